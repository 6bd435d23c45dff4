package llamacpp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"tpsrace/config"
	"tpsrace/format"
)

// Info is what a lane shows about a llama.cpp server and the machine it runs on.
type Info struct {
	Model       string // the model alias, else the model file's name without .gguf
	ContextSize int    // n_ctx of a slot
	Slots       int    // requests generated at once (--parallel); more wait in a queue
	Build       string // llama.cpp build, "b7010-1e2d3f4a"
	ModelPath   string // the model file, as the server names it (on its machine)
	// This machine, reported only for a server on it (spawned, or at a loopback base URL).
	CPU   string // CPU model, trimmed of noise: "AMD Ryzen 9 7950X"
	Cores int    // logical CPUs (hardware threads) this process, and so a spawned server, may use
	GPU   string // GPU the server logged using, else nvidia-smi's; "2× NVIDIA H200" for several
}

const (
	propsLimit     = 4 << 20 // /props carries the chat template
	logHeadBytes   = 1 << 20 // device lines come in the first kilobytes of a log that grows with every request
	commandTimeout = 5 * time.Second
)

// Describe reads GET /props of the server at p.BaseURL (the model, context
// size, slots and build) and, for a server on this machine, the CPU and the
// GPU. logPath, when not "", is a spawned server's log (Server.LogPath),
// whose device lines name the GPU llama-server really uses; otherwise the
// GPU comes from nvidia-smi, when there is one. On error the Info returned
// still holds the hardware.
func Describe(ctx context.Context, p config.Provider, logPath string) (Info, error) {
	var info Info
	if logPath != "" || onThisMachine(p.BaseURL) {
		info.CPU, info.Cores, info.GPU = cpuModel(ctx), runtime.NumCPU(), gpuName(ctx, logPath)
	}
	resp, err := getOK(ctx, p, "/props")
	if err != nil {
		return info, err
	}
	defer resp.Body.Close()
	var props struct {
		DefaultGenerationSettings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		TotalSlots int    `json:"total_slots"`
		ModelPath  string `json:"model_path"`
		ModelAlias string `json:"model_alias"`
		BuildInfo  string `json:"build_info"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, propsLimit)).Decode(&props); err != nil {
		return info, fmt.Errorf("GET %s/props: %w", config.RedactURL(root(p.BaseURL)), err)
	}
	info.Model = modelName(props.ModelAlias, props.ModelPath)
	info.ContextSize = props.DefaultGenerationSettings.NCtx
	info.Slots = props.TotalSlots
	info.Build = props.BuildInfo
	info.ModelPath = props.ModelPath
	return info, nil
}

// Line is the one-line "on-box hardware" summary of a lane, leaving out
// what is not known:
//
//	qwen2.5-1.5b · ctx 4096 · 4 slots · AMD Ryzen 9 7950X (32 threads) · RTX 4090 · b7010
func (i Info) Line() string {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	add(i.Model != "", i.Model)
	add(i.ContextSize > 0, fmt.Sprintf("ctx %d", i.ContextSize))
	add(i.Slots > 0, format.Plural(i.Slots, "slot"))
	switch {
	case i.CPU != "" && i.Cores > 0:
		parts = append(parts, fmt.Sprintf("%s (%d threads)", i.CPU, i.Cores))
	case i.CPU != "":
		parts = append(parts, i.CPU)
	case i.Cores > 0:
		parts = append(parts, format.Plural(i.Cores, "CPU thread"))
	}
	add(i.GPU != "", i.GPU)
	build, _, _ := strings.Cut(i.Build, "-") // "b7010-1e2d3f4a": the number says which release
	add(build != "", build)
	return strings.Join(parts, " · ")
}

// QueueNote says what happens to the users of a race beyond the server's
// slots: "16 users > 4 slots: 12 queue on the server". It is "" when every
// user gets a slot, or the slots are not known (0).
func QueueNote(concurrency, slots int) string {
	if slots <= 0 || concurrency <= slots {
		return ""
	}
	queued, verb := concurrency-slots, "queue"
	if queued == 1 {
		verb = "queues"
	}
	return fmt.Sprintf("%s > %s: %d %s on the server", format.Plural(concurrency, "user"), format.Plural(slots, "slot"), queued, verb)
}

// modelName prefers an alias the user gave (--alias) to the file's name;
// llama-server reports the path as the alias when there is none.
func modelName(alias, path string) string {
	if alias != "" && !strings.ContainsAny(alias, `/\`) && !strings.HasSuffix(alias, ".gguf") {
		return alias
	}
	if path == "" {
		path = alias
	}
	base := path[strings.LastIndexAny(path, `/\`)+1:] // the server may run on Windows
	return strings.TrimSuffix(base, ".gguf")
}

// onThisMachine reports whether a base URL points at this machine, so that
// its CPU and GPU are the server's.
func onThisMachine(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// cpuModel is this machine's CPU model: /proc/cpuinfo on Linux, sysctl on macOS.
func cpuModel(ctx context.Context) string {
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		return tidyCPU(cpuinfoModel(string(data)))
	}
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sysctl", "-n", "machdep.cpu.brand_string").Output()
	if err != nil {
		return ""
	}
	return tidyCPU(string(out))
}

// cpuinfoModel is the first "model name" (x86) or "Model" (Raspberry Pi) of /proc/cpuinfo.
func cpuinfoModel(cpuinfo string) string {
	for line := range strings.Lines(cpuinfo) {
		key, value, ok := strings.Cut(line, ":")
		if key = strings.TrimSpace(key); ok && (key == "model name" || key == "Model") {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// cpuNoise is what CPU model strings carry that a lane has no room for,
// compiled on first use: a command that reads no CPU name pays nothing.
var cpuNoise = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\((R|TM|tm)\)`),          // Intel(R) Core(TM)
		regexp.MustCompile(`\s+CPU\s+@.*$`),          // i7-8700K CPU @ 3.70GHz
		regexp.MustCompile(`\s+@\s*[\d.]+\s*GHz$`),   // E5-2680 v4 @ 2.40GHz
		regexp.MustCompile(`\s+\d+-Core Processor$`), // AMD Ryzen 9 7950X 16-Core Processor
		regexp.MustCompile(`\s+(w/|with) Radeon.*$`), // Ryzen 7 7840U w/ Radeon 780M Graphics
	}
})

// tidyCPU: "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz" becomes "Intel Core i7-8700K".
func tidyCPU(name string) string {
	for _, re := range cpuNoise() {
		name = re.ReplaceAllString(name, "")
	}
	return strings.Join(strings.Fields(name), " ")
}

// deviceLines find GPU names in llama-server's log, most reliable first:
// each names every device once. Compiled on first use, as cpuNoise.
var deviceLines = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// Every backend, since llama.cpp's backend registry (2025), with or without a device id:
		// "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4090) (0000:01:00.0) - 23671 MiB free"
		regexp.MustCompile(`using device \S+ \((.+?)\)(?: \([^()]*\))? - \d+ MiB free`),
		// CUDA and ROCm: "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes"
		regexp.MustCompile(`(?m)^\s*Device \d+: ([^,\n]+),`),
		// Vulkan: "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) | uma: 0 | fp16: 1 | ..."
		regexp.MustCompile(`ggml_vulkan: \d+ = ([^|\n]+?)(?: \([^()|]*\))? \|`),
		// Metal: "ggml_metal_init: GPU name:   Apple M2 Pro"
		regexp.MustCompile(`GPU name:\s+(.+)`),
	}
})

// gpuName is the GPU of the server's log, else of nvidia-smi, else "".
func gpuName(ctx context.Context, logPath string) string {
	if logPath != "" {
		if name := gpuFromLog(readHead(logPath, logHeadBytes)); name != "" {
			return name
		}
	}
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "nvidia-smi", "--query-gpu=name", "--format=csv,noheader").Output()
	if err != nil {
		return ""
	}
	return countNames(strings.Split(strings.TrimSpace(string(out)), "\n"))
}

// gpuFromLog is the GPU named by the first kind of device line in the log.
func gpuFromLog(log string) string {
	for _, re := range deviceLines() {
		var names []string
		for _, m := range re.FindAllStringSubmatch(log, -1) {
			names = append(names, m[1])
		}
		if len(names) > 0 {
			return countNames(names)
		}
	}
	return ""
}

// countNames joins GPU names, counting repeats: "2× NVIDIA H200 + NVIDIA T4".
func countNames(names []string) string {
	var order []string
	count := map[string]int{}
	for _, n := range names {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if count[n] == 0 {
			order = append(order, n)
		}
		count[n]++
	}
	for i, n := range order {
		if count[n] > 1 {
			order[i] = fmt.Sprintf("%d× %s", count[n], n)
		}
	}
	return strings.Join(order, " + ")
}

// readHead is the start of a file, "" when it cannot be read.
func readHead(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, n))
	return string(data)
}
