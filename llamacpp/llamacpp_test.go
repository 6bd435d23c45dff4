package llamacpp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/tokens"
)

// fakeServer is the fake llama-server built from testdata/fakeserver.
var fakeServer string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tpsrace-fakeserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeServer = filepath.Join(dir, "llama-server")
	if out, err := exec.Command("go", "build", "-o", fakeServer, "./testdata/fakeserver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the fake llama-server: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left running:", err)
			code = 1
		}
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func attached(baseURL string) config.Provider {
	return config.Provider{Name: "workstation", Kind: config.KindLlamaCpp, BaseURL: baseURL, Model: "default", Timeout: config.DefaultTimeouts}
}

// closedURL is a base URL at which nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return "http://" + ln.Addr().String() + "/v1"
}

// ggufStub is a file that passes the model check: the GGUF magic and nothing more.
func ggufStub(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := os.WriteFile(path, []byte("GGUF\x03\x00\x00\x00"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckAttached(t *testing.T) {
	ctx := context.Background()
	loading := simtest.Start(t, sim.Options{LoadTime: time.Hour})
	if reason := Check(ctx, attached(loading.URL())); reason != "" {
		t.Errorf("a server still loading its model is there: Check = %q, want \"\"", reason)
	}

	down := closedURL(t)
	want := "no llama-server at " + strings.TrimSuffix(down, "/v1") + " (start it, or remove the entry)"
	if reason := Check(ctx, attached(down)); reason != want {
		t.Errorf("Check = %q, want %q", reason, want)
	}

	withPassword := strings.Replace(down, "http://", "http://user:hunter2@", 1)
	if reason := Check(ctx, attached(withPassword)); reason == "" || strings.Contains(reason, "hunter2") {
		t.Errorf("Check = %q, want a reason without the password", reason)
	}
}

func TestCheckSpawned(t *testing.T) {
	model := ggufStub(t)
	notGGUF := filepath.Join(t.TempDir(), "model.safetensors")
	if err := os.WriteFile(notGGUF, []byte("{\"__metadata__\":{}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nope", "llama-server")
	tests := []struct {
		name          string
		model, server string
		env           string // $TPSRACE_LLAMA_SERVER
		args          []string
		want          string // "" or a part of the reason
	}{
		{name: "ready", model: model, server: fakeServer},
		{name: "server from the environment", model: model, server: DefaultServer, env: fakeServer},
		{name: "model missing", model: filepath.Join(t.TempDir(), "gone.gguf"), server: fakeServer, want: "model file not found: "},
		{name: "model not GGUF", model: notGGUF, server: fakeServer, want: "is not a GGUF file"},
		{name: "llama-server not installed", model: model, server: DefaultServer,
			want: "llama-server not found: install llama.cpp (https://github.com/ggml-org/llama.cpp), or set TPSRACE_LLAMA_SERVER"},
		{name: "environment names nothing", model: model, server: DefaultServer, env: missing, want: "llama-server not found: TPSRACE_LLAMA_SERVER=" + missing + " is not an executable file"},
		{name: "server names nothing", model: model, server: missing, want: "llama-server not found: server " + missing + " is not an executable file"},
		{name: "args set the port", model: model, server: fakeServer, args: []string{"-ngl", "99", "--port", "9000"}, want: "args: remove --port: tpsrace sets -m, --host and --port itself"},
		{name: "args set the model", model: model, server: fakeServer, args: []string{"--model=other.gguf"}, want: "args: remove --model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", t.TempDir()) // no llama-server here
			t.Setenv(ServerEnv, tt.env)
			p := config.Provider{Name: "laptop", Kind: config.KindLlamaCpp, ModelPath: tt.model, Server: tt.server, Args: tt.args}
			reason := Check(context.Background(), p)
			if tt.want == "" && reason != "" || !strings.Contains(reason, tt.want) {
				t.Errorf("Check = %q, want %q", reason, tt.want)
			}
		})
	}
}

func TestCheckOtherKinds(t *testing.T) {
	p := config.Provider{Name: "groq", Kind: config.KindOpenAI, BaseURL: closedURL(t), Model: "m"}
	if reason := Check(context.Background(), p); reason != "" {
		t.Errorf("Check of an openai entry = %q, want \"\"", reason)
	}
}

func TestDescribe(t *testing.T) {
	s := simtest.Start(t, sim.Options{Slots: 4})
	log := filepath.Join(t.TempDir(), "server.log")
	device := "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4090) (0000:01:00.0) - 23671 MiB free\n"
	if err := os.WriteFile(log, []byte("main: loading model\n"+device), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := Describe(context.Background(), attached(s.URL()), log)
	if err != nil {
		t.Fatal(err)
	}
	if info.Model != "tpsrace-simulator" || info.ContextSize != 8192 || info.Slots != 4 || info.Build != "b0-tpsrace-simulator" {
		t.Errorf("from /props: %+v, want the simulator's model, ctx 8192, 4 slots, build b0-tpsrace-simulator", info)
	}
	if info.GPU != "NVIDIA GeForce RTX 4090" {
		t.Errorf("GPU = %q, want the one the log names", info.GPU)
	}
	if info.Cores != runtime.NumCPU() {
		t.Errorf("Cores = %d, want %d", info.Cores, runtime.NumCPU())
	}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil && strings.Contains(string(data), "model name") && info.CPU == "" {
		t.Error("CPU is empty, but /proc/cpuinfo names a model")
	}
	wantLine := fmt.Sprintf("tpsrace-simulator · ctx 8192 · 4 slots · %s (%d threads) · NVIDIA GeForce RTX 4090 · b0", info.CPU, info.Cores)
	if info.CPU != "" && info.Line() != wantLine {
		t.Errorf("Line = %q, want %q", info.Line(), wantLine)
	}
}

func TestDescribeSendsTheKeyAndNeverShowsIt(t *testing.T) {
	const key = "sk-local-secret"
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Invalid API Key %s"}}`, r.Header.Get("Authorization"))
			return
		}
		fmt.Fprint(w, `{"default_generation_settings":{"n_ctx":2048},"total_slots":1,"model_path":"/m/tiny.gguf","build_info":"b7010-1e2d3f4a"}`)
	}))
	defer api.Close()

	p := attached(api.URL + "/v1")
	p.APIKey = key
	info, err := Describe(context.Background(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if info.Model != "tiny" || info.Slots != 1 || info.ContextSize != 2048 {
		t.Errorf("Describe = %+v, want model tiny, 1 slot, ctx 2048", info)
	}

	p.APIKey = "sk-wrong-" + key
	_, err = Describe(context.Background(), p, "")
	if err == nil || !strings.Contains(err.Error(), "set api_key") || strings.Contains(err.Error(), key) {
		t.Errorf("Describe with a wrong key: %v, want a hint to set api_key, without the key", err)
	}
}

func TestFetchMetrics(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	p := attached(s.URL())
	p.Model = "sim:ttft=0s,tps=2000,tokens=40,timings=1"
	const prompt = "Count to forty."
	results := probes.Race{Providers: []config.Provider{p}, Request: probes.Request{Prompt: prompt, MaxTokens: 100}, Concurrency: 2}.Run(context.Background(), nil)
	for _, r := range results[0] {
		if !r.OK() {
			t.Fatalf("stream %d: %v", r.Stream, r.Err)
		}
	}
	m, err := FetchMetrics(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if m[MetricPredictedTokens] != 80 || m[MetricPromptTokens] != float64(2*tokens.Count(prompt)) {
		t.Errorf("predicted %v, prompt %v; want 80 and %d", m[MetricPredictedTokens], m[MetricPromptTokens], 2*tokens.Count(prompt))
	}
	if m[MetricPredictedSeconds] <= 0 {
		t.Errorf("%s = %v, want the time spent generating", MetricPredictedSeconds, m[MetricPredictedSeconds])
	}
}

func TestFetchMetricsNotEnabled(t *testing.T) {
	// What llama-server answers when started without --metrics.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotImplemented)
		fmt.Fprint(w, `{"error":{"code":501,"message":"This server does not support metrics endpoint. Start it with `+"`--metrics`"+`"}}`)
	}))
	defer api.Close()
	_, err := FetchMetrics(context.Background(), attached(api.URL+"/v1"))
	if err == nil || !strings.Contains(err.Error(), "start llama-server with --metrics") {
		t.Errorf("err = %v, want a hint to start llama-server with --metrics", err)
	}
}

func TestParseMetrics(t *testing.T) {
	text := "# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.\n" +
		"# TYPE llamacpp:prompt_tokens_total counter\n" +
		"llamacpp:prompt_tokens_total 1234\n" +
		"\n" +
		"llamacpp:kv_cache_usage_ratio\t0.25\n" +
		"llamacpp:n_busy_slots_per_decode NaN\n" +
		`http_requests_total{method="post",path="/a b"} 3 1700000000000` + "\n" +
		"llamacpp:tokens_predicted_seconds_total 1.5e+01\n"
	m, err := parseMetrics(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"llamacpp:prompt_tokens_total": 1234, "llamacpp:kv_cache_usage_ratio": 0.25,
		`http_requests_total{method="post",path="/a b"}`: 3, "llamacpp:tokens_predicted_seconds_total": 15,
	}
	for name, v := range want {
		if got, ok := m[name]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, v)
		}
	}
	if v := m["llamacpp:n_busy_slots_per_decode"]; v == v {
		t.Errorf("NaN sample = %v, want NaN", v)
	}
	if len(m) != len(want)+1 {
		t.Errorf("%d samples, want %d", len(m), len(want)+1)
	}

	for _, bad := range []string{"llamacpp:x\n", "llamacpp:x one\n", "llamacpp:x 1 2 3\n", `x{a="b"}` + "\n"} {
		if _, err := parseMetrics(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("parseMetrics(%q) err = %v, want one naming line 1", bad, err)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		info Info
		want string
	}{
		{Info{Model: "qwen2.5-1.5b", ContextSize: 4096, Slots: 4, Build: "b7010-1e2d3f4a", CPU: "AMD Ryzen 9 7950X", Cores: 32, GPU: "NVIDIA GeForce RTX 4090"},
			"qwen2.5-1.5b · ctx 4096 · 4 slots · AMD Ryzen 9 7950X (32 threads) · NVIDIA GeForce RTX 4090 · b7010"},
		{Info{Model: "tiny", Slots: 1, Build: "b6000"}, "tiny · 1 slot · b6000"},
		{Info{Model: "tiny", Cores: 8}, "tiny · 8 CPU threads"},
		{Info{}, ""},
	}
	for _, tt := range tests {
		if got := tt.info.Line(); got != tt.want {
			t.Errorf("Line(%+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

func TestQueueNote(t *testing.T) {
	tests := []struct {
		concurrency, slots int
		want               string
	}{
		{16, 4, "16 users > 4 slots: 12 queue on the server"},
		{2, 1, "2 users > 1 slot: 1 queues on the server"},
		{4, 4, ""},
		{1, 4, ""},
		{8, 0, ""}, // slots not known
	}
	for _, tt := range tests {
		if got := QueueNote(tt.concurrency, tt.slots); got != tt.want {
			t.Errorf("QueueNote(%d, %d) = %q, want %q", tt.concurrency, tt.slots, got, tt.want)
		}
	}
}

func TestModelName(t *testing.T) {
	tests := []struct{ alias, path, want string }{
		{"", "/home/u/models/qwen2.5-1.5b-instruct-q4_k_m.gguf", "qwen2.5-1.5b-instruct-q4_k_m"},
		{"/home/u/models/qwen.gguf", "/home/u/models/qwen.gguf", "qwen"}, // the path as the alias
		{"qwen-fast", "/home/u/models/qwen.gguf", "qwen-fast"},
		{"", `C:\models\phi-3.gguf`, "phi-3"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := modelName(tt.alias, tt.path); got != tt.want {
			t.Errorf("modelName(%q, %q) = %q, want %q", tt.alias, tt.path, got, tt.want)
		}
	}
}

func TestTidyCPU(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"AMD Ryzen 9 7950X 16-Core Processor", "AMD Ryzen 9 7950X"},
		{"Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", "Intel Core i7-8700K"},
		{"Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "Intel Xeon CPU E5-2680 v4"},
		{"13th Gen Intel(R) Core(TM) i9-13900K", "13th Gen Intel Core i9-13900K"},
		{"AMD Ryzen 7 7840U w/ Radeon  780M Graphics", "AMD Ryzen 7 7840U"},
		{"Apple M2 Pro\n", "Apple M2 Pro"},
	}
	for _, tt := range tests {
		if got := tidyCPU(tt.raw); got != tt.want {
			t.Errorf("tidyCPU(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestCPUInfoModel(t *testing.T) {
	x86 := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 97\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n\nprocessor\t: 1\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
	pi := "processor\t: 0\nBogoMIPS\t: 108.00\nCPU part\t: 0xd08\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n"
	for in, want := range map[string]string{x86: "AMD Ryzen 9 7950X 16-Core Processor", pi: "Raspberry Pi 4 Model B Rev 1.4", "processor\t: 0\n": ""} {
		if got := cpuinfoModel(in); got != want {
			t.Errorf("cpuinfoModel = %q, want %q", got, want)
		}
	}
}

func TestGPUFromLog(t *testing.T) {
	tests := []struct{ name, log, want string }{
		{"device registry with id", "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA H200) (0000:19:00.0) - 142000 MiB free\n" +
			"llama_model_load_from_file_impl: using device CUDA1 (NVIDIA H200) (0000:3b:00.0) - 142000 MiB free\n", "2× NVIDIA H200"},
		{"device registry without id", "llama_model_load_from_file_impl: using device Metal (Apple M2 Pro) - 21845 MiB free\n", "Apple M2 Pro"},
		{"parentheses in the name", "llama_model_load_from_file_impl: using device Vulkan0 (AMD Radeon(TM) 780M) (unknown id) - 8000 MiB free\n", "AMD Radeon(TM) 780M"},
		{"the registry line wins over the CUDA list", "ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n" +
			"llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4090) (0000:01:00.0) - 23671 MiB free\n", "NVIDIA GeForce RTX 4090"},
		{"CUDA list", "ggml_cuda_init: found 2 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n  Device 1: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n",
			"NVIDIA GeForce RTX 3090 + NVIDIA GeForce RTX 4090"},
		{"Vulkan", "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) | uma: 0 | fp16: 1 | warp size: 64\n", "AMD Radeon RX 7900 XTX"},
		{"Metal", "ggml_metal_init: GPU name:   Apple M1 Max\n", "Apple M1 Max"},
		{"CPU only", "main: loading model\nllama_model_loader: loaded meta data with 23 key-value pairs\n", ""},
	}
	for _, tt := range tests {
		if got := gpuFromLog(tt.log); got != tt.want {
			t.Errorf("%s: gpuFromLog = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestOnThisMachine(t *testing.T) {
	for url, want := range map[string]bool{
		"http://127.0.0.1:8080/v1": true, "http://localhost:8080/v1": true, "http://[::1]:8080/v1": true,
		"http://0.0.0.0:8080/v1": true, "http://127.0.0.2:8080": true,
		"http://192.168.1.20:8080/v1": false, "https://llama.example.test/v1": false, "::bad": false,
	} {
		if got := onThisMachine(url); got != want {
			t.Errorf("onThisMachine(%q) = %v, want %v", url, got, want)
		}
	}
}

func TestRoot(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080/v1": "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/": "http://127.0.0.1:8080",
		"http://127.0.0.1:8080": "http://127.0.0.1:8080", "http://h/proxy/llama/v1": "http://h/proxy/llama",
	} {
		if got := root(in); got != want {
			t.Errorf("root(%q) = %q, want %q", in, got, want)
		}
	}
}
