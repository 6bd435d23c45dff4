package llamacpp

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/cpuid/v2"

	"tpsrace/config"
)

// BoxProbe measures what the memory roofline of a llama.cpp lane rests on
// (config.Box). Its fields are where it looks, so that tests can point
// them elsewhere; DefaultBoxProbe looks at this machine.
type BoxProbe struct {
	CacheDir string // the memory bandwidth's cache, keyed by CPU model; "" caches nothing
	SysCPU   string // /sys/devices/system/cpu: the caches' sizes
	CPUInfo  string // /proc/cpuinfo: the CPU vendor and model, and a cache size when nothing else has one
	// CPUIDL3 is the bytes one instance of the L3 holds as the CPUID
	// instruction describes it, and whether it does (the function CPUIDL3
	// asks this machine's); nil asks nothing.
	CPUIDL3 func() (bytes int64, ok bool)
	Getconf string // getconf: the caches glibc reads from CPUID when sysfs hides them; "" asks nothing
	// MeasureBandwidth measures this machine's memory bandwidth in bytes per
	// second, and whether other processes left it alone meanwhile (CopyBandwidth).
	MeasureBandwidth func() (bytesPerSecond float64, undisturbed bool)
}

// DefaultBoxProbe looks at this machine, caching under the user's cache
// directory (tpsrace/memory-bandwidth.json).
func DefaultBoxProbe() BoxProbe {
	dir, err := os.UserCacheDir()
	if err == nil {
		dir = filepath.Join(dir, "tpsrace")
	}
	return BoxProbe{CacheDir: dir, SysCPU: "/sys/devices/system/cpu", CPUInfo: "/proc/cpuinfo", CPUIDL3: CPUIDL3, Getconf: "getconf", MeasureBandwidth: CopyBandwidth}
}

// CPUIDL3 is the size of the L3 instance this machine's cores share, from
// the CPUID instruction (github.com/klauspost/cpuid): Intel's leaf 4, AMD's
// and Hygon's leaf 0x8000001D, each describing one instance (an AMD chip
// has one per CCX, 32 MB on Zen 5, not the chip's sum). ok is false off
// x86, and where CPUID does not describe its L3: an AMD CPU or VM without
// the topology extensions (TOPOEXT) that leaf 0x8000001D needs.
func CPUIDL3() (bytes int64, ok bool) {
	l3 := cpuid.CPU.Cache.L3 // -1 when not detected
	return int64(l3), l3 > 0
}

// Box measures the roofline's inputs for a model file on this machine: the
// bytes a decode step reads (DecodeBytes), the last-level cache and the
// memory bandwidth. A cache size that cannot be had is 0, and the roofline
// says it is not known; a model file that cannot be read is an error, and
// nothing is measured.
func (b BoxProbe) Box(modelPath string) (config.Box, error) {
	n, err := DecodeBytes(modelPath)
	if err != nil {
		return config.Box{}, err
	}
	cpuinfo, _ := os.ReadFile(b.CPUInfo)
	cpu := string(cpuinfo)
	bw, undisturbed := b.bandwidth(cpuinfoModel(cpu))
	return config.Box{DecodeBytes: n, CacheBytes: b.lastLevelCache(cpu), MemoryBandwidth: bw, BandwidthDisturbed: !undisturbed}, nil
}

// lastLevelCache is the size of one instance of the last-level cache: the
// largest data or unified cache of CPU 0 in sysfs (one instance's size, the
// L3 on most machines), else CPUID's L3 (CPUIDL3: a VM that hides sysfs's
// caches may still describe them to CPUID), else the
// largest cache that getconf reports, else /proc/cpuinfo's "cache size".
// Else 0, not known (a share of the memory limit for any model).
//
// One instance, not the chip's sum: an AMD chip has an L3 per CCX, and a
// step reads from memory what its threads' instances do not hold. Threads
// on cores of several instances may together keep more than one instance's
// worth, but which cores they run on is the scheduler's choice, so one
// instance is the conservative figure: a model between it and the sum of
// the instances its threads span may be called beyond the cache while
// partly served from it, never the other way round.
//
// On AMD and Hygon getconf's L3, where CPUIDL3 has none, is glibc's
// reading of leaf 0x80000006, the whole chip's L3 (508 MB in a Zen 5 EPYC
// VM, whose CCXs hold 32 MB each): never used there. Linux puts the core's
// L2 in their cpuinfo "cache size" (1 MB on Zen 4 and 5): not the last
// level, but a cache the core surely has to itself, so a model under it is
// surely cached and one above it gets a share of the memory limit (the
// conservative error again, as between one L3 instance and the chip's).
func (b BoxProbe) lastLevelCache(cpuinfo string) int64 {
	dirs, _ := filepath.Glob(filepath.Join(b.SysCPU, "cpu0", "cache", "index*"))
	var largest int64
	for _, d := range dirs {
		typ, _ := os.ReadFile(filepath.Join(d, "type"))
		size, _ := os.ReadFile(filepath.Join(d, "size"))
		if strings.TrimSpace(string(typ)) != "Instruction" {
			largest = max(largest, parseCacheSize(string(size)))
		}
	}
	if largest > 0 {
		return largest
	}
	if b.CPUIDL3 != nil {
		if l3, ok := b.CPUIDL3(); ok {
			return l3
		}
	}
	var vendor, size string
	for line := range strings.Lines(cpuinfo) {
		if key, value, ok := strings.Cut(line, ":"); ok {
			switch strings.TrimSpace(key) {
			case "vendor_id":
				vendor = cmp.Or(vendor, strings.TrimSpace(value))
			case "cache size":
				size = cmp.Or(size, value)
			}
		}
	}
	if vendor == "AuthenticAMD" || vendor == "HygonGenuine" {
		return parseCacheSize(size) // the core's L2: smaller than its L3 instance, so surely its own
	}
	if b.Getconf != "" {
		out, _ := exec.Command(b.Getconf, "-a").Output() // none on macOS or musl: cpuinfo's
		if largest = largestGetconfCache(string(out)); largest > 0 {
			return largest
		}
	}
	return parseCacheSize(size)
}

// largestGetconfCache is the largest data or unified cache in `getconf -a`'s
// lines "LEVEL3_CACHE_SIZE   33554432" (bytes); 0 when none has a size.
func largestGetconfCache(out string) int64 {
	var largest int64
	for line := range strings.Lines(out) {
		name, value, _ := strings.Cut(strings.TrimSpace(line), " ")
		if strings.HasPrefix(name, "LEVEL") && !strings.Contains(name, "ICACHE") && strings.HasSuffix(name, "CACHE_SIZE") {
			n, _ := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			largest = max(largest, n)
		}
	}
	return largest
}

// parseCacheSize reads "32768K" (sysfs) or "1024 KB" (cpuinfo) as bytes; 0 when it cannot.
func parseCacheSize(s string) int64 {
	s = strings.ToUpper(strings.TrimSpace(s))
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		bytes  int64
	}{{"KB", 1 << 10}, {"K", 1 << 10}, {"MB", 1 << 20}, {"M", 1 << 20}} {
		if strings.HasSuffix(s, u.suffix) {
			s, unit = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n * unit
}

// bandwidthCache is the cache file: bytes per second by CPU model, from
// the probe of that version. A file of another version (the first had
// none, and cached figures measured while other processes had the cores)
// is measured anew.
type bandwidthCache struct {
	Probe          int                `json:"probe"`
	BytesPerSecond map[string]float64 `json:"memory_bandwidth_bytes_per_s"`
}

const bandwidthProbe = 2

// bandwidthMu keeps two lanes of one process from measuring at once, each
// slowing the other.
var bandwidthMu sync.Mutex

// bandwidth is this machine's memory bandwidth: the cached figure for this
// CPU model, else measured now and cached if the measurement was
// undisturbed; a disturbed one serves this run only, said so, and the next
// measures again. A machine whose CPU model is not known is measured every
// time.
func (b BoxProbe) bandwidth(cpu string) (bytesPerSecond float64, undisturbed bool) {
	bandwidthMu.Lock()
	defer bandwidthMu.Unlock()
	path := filepath.Join(b.CacheDir, "memory-bandwidth.json")
	var cache bandwidthCache
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &cache) // a broken cache is measured anew
	}
	if cache.Probe != bandwidthProbe {
		cache = bandwidthCache{Probe: bandwidthProbe}
	}
	if bw := cache.BytesPerSecond[cpu]; bw > 0 && cpu != "" {
		return bw, true
	}
	bw, undisturbed := b.MeasureBandwidth()
	if cpu == "" || b.CacheDir == "" || bw <= 0 || !undisturbed {
		return bw, undisturbed
	}
	if cache.BytesPerSecond == nil {
		cache.BytesPerSecond = map[string]float64{}
	}
	cache.BytesPerSecond[cpu] = bw
	if data, err := json.MarshalIndent(cache, "", "  "); err == nil {
		// Not caching only costs the next start a measurement.
		_ = errors.Join(os.MkdirAll(b.CacheDir, 0o755), os.WriteFile(path, data, 0o644))
	}
	return bw, true
}

// Copy benchmark sizes: buffers far larger than any CPU cache, and passes
// enough for a best of that is not one unlucky scheduling (about 0.1–0.3 s
// on a quiet machine, at most copyMaxPasses on a busy one).
const (
	copyBufferBytes = 256 << 20
	copyPasses      = 5
	copyMaxPasses   = 20
)

// CopyBandwidth is this machine's memory bandwidth in bytes per second: the
// best of a few passes copying a 256 MiB buffer into another, split among
// GOMAXPROCS goroutines as llama.cpp splits a step among its threads,
// counting the bytes read and written (STREAM's "copy" convention).
//
// A pass counts only if the process had its cores all along: its CPU time
// at least 80% of GOMAXPROCS × the pass's wall time (an undisturbed pass
// measures 91–96% on 2 cores, the goroutines' start the rest). Another
// process that takes a core leaves one core to copy it all: 50%, and half
// the bandwidth (27 against 53 GB/s on a 2-core EPYC VM). Such a figure,
// cached, would make every later decode look faster than memory allows.
// undisturbed is false when no pass of copyMaxPasses counted; the figure is
// then the best of them all. Where the process's CPU time is not known,
// every pass counts.
//
// Built with the race detector, every copy is instrumented and runs about
// ten times slower (2.8–4.8 GB/s against 41–63 GB/s on a 2-core EPYC VM)
// with the cores all its own: such a figure is always disturbed.
func CopyBandwidth() (bytesPerSecond float64, undisturbed bool) {
	src, dst := make([]byte, copyBufferBytes), make([]byte, copyBufferBytes)
	for i := range src {
		src[i] = byte(i) // touch every page, so that no pass pays for faulting them in
	}
	copy(dst, src)
	workers := runtime.GOMAXPROCS(0)
	chunk := (copyBufferBytes + workers - 1) / workers
	var best, bestUndisturbed time.Duration // 0: none yet
	for pass, counted := 0, 0; pass < copyMaxPasses && counted < copyPasses; pass++ {
		cpuBefore, cpuKnown := processCPUTime()
		start := time.Now()
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := min(w*chunk, copyBufferBytes), min((w+1)*chunk, copyBufferBytes)
			wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
		}
		wg.Wait()
		d := time.Since(start)
		cpuAfter, _ := processCPUTime()
		if best == 0 || d < best {
			best = d
		}
		if !cpuKnown || cpuAfter-cpuBefore >= time.Duration(0.8*float64(workers)*float64(d)) {
			counted++
			if bestUndisturbed == 0 || d < bestUndisturbed {
				bestUndisturbed = d
			}
		}
	}
	if bestUndisturbed > 0 {
		return math.Round(2 * copyBufferBytes / bestUndisturbed.Seconds()), !raceDetector
	}
	return math.Round(2 * copyBufferBytes / best.Seconds()), false
}
