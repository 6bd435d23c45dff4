package llamacpp

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/llamacpp/llamacpptest"
	"tpsrace/testenv"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLastLevelCache(t *testing.T) {
	sys := t.TempDir()
	writeFiles(t, sys, map[string]string{
		"cpu0/cache/index0/type": "Data\n", "cpu0/cache/index0/size": "48K\n",
		"cpu0/cache/index1/type": "Instruction\n", "cpu0/cache/index1/size": "64M\n", // never the last level
		"cpu0/cache/index2/type": "Unified\n", "cpu0/cache/index2/size": "2048K\n",
		"cpu0/cache/index3/type": "Unified\n", "cpu0/cache/index3/size": "32768K\n",
	})
	cpuinfo := "processor\t: 0\ncache size\t: 1024 KB\n"
	amd := "vendor_id\t: AuthenticAMD\n" + cpuinfo
	cpuidL3 := func(bytes int64) func() (int64, bool) { return func() (int64, bool) { return bytes, bytes > 0 } }
	getconf := fakeGetconf(t, getconfOfAnEPYCVM)
	for _, c := range []struct {
		name    string
		probe   BoxProbe
		cpuinfo string
		want    int64
	}{
		{"sysfs, one instance", BoxProbe{SysCPU: sys, CPUIDL3: cpuidL3(16 << 20), Getconf: getconf}, cpuinfo, 32 << 20},
		{"no sysfs: CPUID's instance, not getconf's chip", BoxProbe{SysCPU: t.TempDir(), CPUIDL3: cpuidL3(32 << 20), Getconf: getconf}, amd, 32 << 20},
		{"no sysfs, no CPUID L3: getconf", BoxProbe{SysCPU: t.TempDir(), CPUIDL3: cpuidL3(-1), Getconf: getconf}, cpuinfo, 532676608},
		// On AMD, getconf's L3 without CPUID's is the chip's: cpuinfo's L2, the core's own, instead.
		{"AMD, no CPUID L3", BoxProbe{SysCPU: t.TempDir(), CPUIDL3: cpuidL3(-1), Getconf: getconf}, amd, 1 << 20},
		{"cpuinfo", BoxProbe{SysCPU: t.TempDir()}, cpuinfo, 1 << 20},
		{"AMD cpuinfo", BoxProbe{SysCPU: t.TempDir()}, amd, 1 << 20},
		{"AMD, nothing", BoxProbe{SysCPU: t.TempDir(), CPUIDL3: cpuidL3(-1), Getconf: getconf}, "vendor_id\t: AuthenticAMD\n", 0},
		{"nothing", BoxProbe{SysCPU: t.TempDir()}, "processor\t: 0\n", 0},
	} {
		if got := c.probe.lastLevelCache(c.cpuinfo); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// fakeGetconf is a getconf that prints out.
func fakeGetconf(t *testing.T, out string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		testenv.OtherOS(t, "the fake getconf is a shell script")
	}
	path := filepath.Join(t.TempDir(), "getconf")
	if err := os.WriteFile(path, []byte("#!/bin/sh\ncat <<'EOF'\n"+out+"EOF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRealLastLevelCache reads this machine's cache as a lane does: where
// sysfs shows no caches and CPUID describes the L3, its instance; on AMD
// without either, cpuinfo's L2, whatever getconf says of the chip.
func TestRealLastLevelCache(t *testing.T) {
	probe := DefaultBoxProbe()
	cpuinfo, _ := os.ReadFile(probe.CPUInfo)
	got := probe.lastLevelCache(string(cpuinfo))
	l3, known := CPUIDL3()
	out, _ := exec.Command(probe.Getconf, "-a").Output()
	dirs, _ := filepath.Glob(filepath.Join(probe.SysCPU, "cpu0", "cache", "index*"))
	amd := strings.Contains(string(cpuinfo), "AuthenticAMD") || strings.Contains(string(cpuinfo), "HygonGenuine")
	t.Logf("last-level cache %d bytes; sysfs: %d cache entries; CPUID L3: %d (known: %v); getconf: %d; AMD: %v",
		got, len(dirs), l3, known, largestGetconfCache(string(out)), amd)
	switch {
	case len(dirs) > 0:
		if got <= 0 {
			t.Errorf("sysfs shows %d caches, but the size is %d", len(dirs), got)
		}
	case known && got != l3:
		t.Errorf("no caches in sysfs: %d bytes, want CPUID's L3 instance, %d", got, l3)
	case !known && amd && got >= largestGetconfCache(string(out)) && got > 0:
		t.Errorf("AMD whose CPUID describes no L3: %d bytes, want cpuinfo's L2, under getconf's chip-wide L3", got)
	}
}

// What glibc's getconf printed in a Firecracker VM on an AMD EPYC, whose
// sysfs has no caches: the L3 is the last level, not the L2 (and, read from
// leaf 0x80000006, the whole chip's).
const getconfOfAnEPYCVM = "LEVEL1_ICACHE_SIZE                 33554432\nLEVEL1_DCACHE_SIZE                 49152\n" +
	"LEVEL1_DCACHE_LINESIZE             64\nLEVEL2_CACHE_SIZE                  1048576\n" +
	"LEVEL3_CACHE_SIZE                  532676608\nLEVEL3_CACHE_ASSOC                 0\nLEVEL4_CACHE_SIZE                  \n"

func TestLargestGetconfCache(t *testing.T) {
	if got := largestGetconfCache(getconfOfAnEPYCVM); got != 532676608 {
		t.Errorf("largestGetconfCache = %d, want the L3's 532676608", got)
	}
	if got := largestGetconfCache("getconf: invalid option\n"); got != 0 {
		t.Errorf("largestGetconfCache of no cache lines = %d, want 0", got)
	}
}

// The bandwidth is measured once per CPU model, then read from the cache.
func TestBoxCachesBandwidthPerCPU(t *testing.T) {
	dir, sys := t.TempDir(), t.TempDir()
	model := llamacpptest.Model(t)
	measured := 0
	probe := func(cpu string) BoxProbe {
		path := filepath.Join(t.TempDir(), "cpuinfo")
		writeFiles(t, filepath.Dir(path), map[string]string{"cpuinfo": "model name\t: " + cpu + "\ncache size\t: 512 KB\n"})
		return BoxProbe{CacheDir: dir, SysCPU: sys, CPUInfo: path, MeasureBandwidth: func() (float64, bool) { measured++; return 20e9, true }}
	}
	first, err := probe("AMD EPYC 9654").Box(model)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Box{MemoryBandwidth: 20e9, CacheBytes: 512 << 10, DecodeBytes: first.DecodeBytes}
	if first != want || first.DecodeBytes <= 0 {
		t.Errorf("Box = %+v, want %+v with the model's decode bytes", first, want)
	}
	if _, err := probe("AMD EPYC 9654").Box(model); err != nil || measured != 1 {
		t.Errorf("the same CPU again: measured %d times (%v), want once", measured, err)
	}
	if _, err := probe("Apple M2 Pro").Box(model); err != nil || measured != 2 {
		t.Errorf("another CPU: measured %d times (%v), want twice", measured, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory-bandwidth.json")); err != nil {
		t.Error(err)
	}
}

// A measurement disturbed by other processes serves its run but is not
// cached; neither is a figure from the first probe's file, which had no
// version and cached disturbed figures too.
func TestBoxCachesOnlyUndisturbedBandwidth(t *testing.T) {
	dir := t.TempDir()
	model := llamacpptest.Model(t)
	writeFiles(t, dir, map[string]string{
		"cpuinfo":               "model name\t: AMD EPYC\n",
		"memory-bandwidth.json": `{"memory_bandwidth_bytes_per_s": {"AMD EPYC": 7529844209}}`,
	})
	var measured []float64
	probe := func(bw float64, undisturbed bool) BoxProbe {
		return BoxProbe{CacheDir: dir, SysCPU: t.TempDir(), CPUInfo: filepath.Join(dir, "cpuinfo"),
			MeasureBandwidth: func() (float64, bool) { measured = append(measured, bw); return bw, undisturbed }}
	}
	for _, step := range []struct {
		probe     BoxProbe
		want      float64
		disturbed bool
	}{
		{probe(9e9, false), 9e9, true},   // the unversioned file's figure is not read; busy: not cached, and said so
		{probe(30e9, true), 30e9, false}, // measured again, undisturbed: cached
		{probe(5e9, false), 30e9, false}, // from the cache
	} {
		box, err := step.probe.Box(model)
		if err != nil || box.MemoryBandwidth != step.want || box.BandwidthDisturbed != step.disturbed {
			t.Errorf("after measuring %v: bandwidth %v (disturbed %v, %v), want %v (disturbed %v)", measured, box.MemoryBandwidth, box.BandwidthDisturbed, err, step.want, step.disturbed)
		}
	}
	if !slices.Equal(measured, []float64{9e9, 30e9}) {
		t.Errorf("measured %v, want 9e9 then 30e9 and then the cache", measured)
	}
}

func TestBoxOfAMissingModel(t *testing.T) {
	probe := BoxProbe{SysCPU: t.TempDir(), CPUInfo: "/nonexistent", MeasureBandwidth: func() (float64, bool) { t.Error("measured for no model"); return 1e10, true }}
	if box, err := probe.Box(filepath.Join(t.TempDir(), "gone.gguf")); err == nil || box != (config.Box{}) {
		t.Errorf("Box = %+v, %v; want nothing and an error", box, err)
	}
}
