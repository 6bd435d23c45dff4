package llamacpp

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// A GGUF reader, just enough for what a decode step reads: the header, the
// key-values (skipped but for the architecture and the expert counts) and
// the tensor-info table; no tensor data.
//
// A hand reader rather than github.com/gpustack/gguf-parser-go (v0.28.2),
// measured linked into tpsrace in place of this file: +294 KB of binary
// (29.26 → 29.55 MB), 26 more packages (341 → 367: its util/*, httpretty,
// ringbuffer, golang.org/x/crypto/ssh and its ciphers, x/exp, x/sync), five
// more modules in go.mod (gonum, x/tools and x/mod among them) and x/exp
// upgraded, and 0.39 ms and 190 KB of package initialisation (median of 15
// `GODEBUG=inittrace=1 tpsrace version`) paid by every command, against
// issue 35's start-up budget. What it adds is remote fetching (HTTP, Ollama,
// ModelScope) and memory estimation; what tpsrace needs is a table read in
// about 150 lines, tested against the files llamacpptest writes.
//
// The format (llama.cpp's gguf.h), little-endian:
// "GGUF", version u32 (2 or 3), tensor count u64, key-value count u64; each
// key-value as key (string), value type u32, value; each tensor info as
// name, dimension count u32, dimensions u64, ggml type u32, data offset
// u64. A string is its byte length u64 and its bytes; an array is its
// element type u32, length u64 and elements.

// ggufTensor is one entry of a GGUF file's tensor-info table.
type ggufTensor struct {
	name     string
	dims     []uint64
	ggmlType uint32
}

// ggufModel is what DecodeBytes needs of a GGUF file.
type ggufModel struct {
	arch                 string
	experts, expertsUsed uint64 // <arch>.expert_count and expert_used_count; 0 for a dense model
	tensors              []ggufTensor
}

// ggmlBlocks are the ggml tensor types' block sizes (values per block) and
// bytes per block, from ggml.c's type_traits.
var ggmlBlocks = map[uint32]struct{ values, bytes uint64 }{
	0: {1, 4}, 1: {1, 2}, 2: {32, 18}, 3: {32, 20}, 6: {32, 22}, 7: {32, 24}, 8: {32, 34}, 9: {32, 36}, // F32 F16 Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q8_1
	10: {256, 84}, 11: {256, 110}, 12: {256, 144}, 13: {256, 176}, 14: {256, 210}, 15: {256, 292}, // Q2_K … Q8_K
	16: {256, 66}, 17: {256, 74}, 18: {256, 98}, 19: {256, 50}, 20: {32, 18}, 21: {256, 110}, 22: {256, 82}, 23: {256, 136}, // IQ2_XXS … IQ4_XS
	24: {1, 1}, 25: {1, 2}, 26: {1, 4}, 27: {1, 8}, 28: {1, 8}, 29: {256, 56}, 30: {1, 2}, // I8 I16 I32 I64 F64 IQ1_M BF16
	34: {256, 54}, 35: {256, 66}, 39: {32, 17}, 40: {64, 36}, 41: {128, 18}, 42: {64, 18}, // TQ1_0 TQ2_0 MXFP4 NVFP4 Q1_0 Q2_0
}

// bytes is the tensor's size in the file.
func (t ggufTensor) bytes() (uint64, error) {
	b, ok := ggmlBlocks[t.ggmlType]
	if !ok {
		return 0, fmt.Errorf("tensor %s: unknown ggml type %d", t.name, t.ggmlType)
	}
	n := uint64(1)
	for _, d := range t.dims {
		n *= d
	}
	return n / b.values * b.bytes, nil
}

// DecodeBytes is how many bytes of weights one decode step of the GGUF model
// at path must read from memory: every tensor, except
//   - token_embd.weight when the model has its own output.weight: a step
//     gathers one row of it, not the table (a model without output.weight
//     ties the two, and reads the whole table as its output matrix);
//   - of a mixture of experts' expert tensors (…_exps), the share of
//     experts a token uses (expert_used_count ÷ expert_count).
//
// The KV cache a step also reads grows with the context and is left out,
// so the limit this gives is an upper bound.
func DecodeBytes(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	m, err := readGGUF(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	n, err := m.decodeBytes()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

func (m ggufModel) decodeBytes() (int64, error) {
	tied := true
	for _, t := range m.tensors {
		if t.name == "output.weight" {
			tied = false
		}
	}
	var total float64
	for _, t := range m.tensors {
		b, err := t.bytes()
		if err != nil {
			return 0, err
		}
		share := 1.0
		switch {
		case t.name == "token_embd.weight" && !tied:
			share = 0
		case strings.HasSuffix(strings.TrimSuffix(t.name, ".weight"), "_exps") && m.experts > 0 && m.expertsUsed > 0:
			share = float64(m.expertsUsed) / float64(m.experts)
		}
		total += share * float64(b)
	}
	return int64(total), nil
}

// GGUF value types.
const (
	ggufUint8, ggufInt8, ggufUint16, ggufInt16, ggufUint32, ggufInt32, ggufFloat32, ggufBool = 0, 1, 2, 3, 4, 5, 6, 7
	ggufString, ggufArray, ggufUint64, ggufInt64, ggufFloat64                                = 8, 9, 10, 11, 12
)

// Bounds that keep a corrupt file from asking for absurd allocations.
const (
	maxGGUFCount  = 1 << 24
	maxGGUFString = 1 << 24
	maxGGUFDims   = 8
)

var errNotGGUF = errors.New("not a GGUF file (no GGUF magic)")

// readGGUF reads a GGUF file's header, key-values and tensor infos.
func readGGUF(r *bufio.Reader) (ggufModel, error) {
	var m ggufModel
	rd := ggufReader{r: r}
	magic := make([]byte, 4)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "GGUF" {
		return m, errNotGGUF
	}
	if v := rd.u32(); rd.err == nil && v != 2 && v != 3 {
		return m, fmt.Errorf("GGUF version %d, want 2 or 3", v)
	}
	nTensors, nKV := rd.count(), rd.count()
	counts := map[string]uint64{}
	for i := uint64(0); i < nKV && rd.err == nil; i++ {
		key := rd.str()
		typ := rd.u32()
		switch {
		case key == "general.architecture" && typ == ggufString:
			m.arch = rd.str()
		case strings.HasSuffix(key, ".expert_count") || strings.HasSuffix(key, ".expert_used_count"):
			counts[key] = rd.uint(typ)
		default:
			rd.skip(typ)
		}
		if rd.err != nil {
			return m, fmt.Errorf("key-value %d (%q): %w", i, key, rd.err)
		}
	}
	m.experts, m.expertsUsed = counts[m.arch+".expert_count"], counts[m.arch+".expert_used_count"]
	for i := uint64(0); i < nTensors && rd.err == nil; i++ {
		t := ggufTensor{name: rd.str()}
		nDims := rd.u32()
		if nDims > maxGGUFDims {
			return m, fmt.Errorf("tensor %q: %d dimensions", t.name, nDims)
		}
		for range nDims {
			t.dims = append(t.dims, rd.u64())
		}
		t.ggmlType = rd.u32()
		rd.u64() // the data offset
		if rd.err != nil {
			return m, fmt.Errorf("tensor info %d: %w", i, rd.err)
		}
		m.tensors = append(m.tensors, t)
	}
	return m, rd.err
}

// ggufReader reads little-endian values, keeping the first error.
type ggufReader struct {
	r   *bufio.Reader
	err error
}

func (g *ggufReader) read(n int) []byte {
	if g.err != nil {
		return make([]byte, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(g.r, b); err != nil {
		g.err = fmt.Errorf("cut short: %w", err)
	}
	return b
}

func (g *ggufReader) u32() uint32 { return binary.LittleEndian.Uint32(g.read(4)) }
func (g *ggufReader) u64() uint64 { return binary.LittleEndian.Uint64(g.read(8)) }

// count is a u64 count, refused when larger than any real file holds.
func (g *ggufReader) count() uint64 {
	n := g.u64()
	if g.err == nil && n > maxGGUFCount {
		g.err = fmt.Errorf("count %d is too large", n)
	}
	return n
}

func (g *ggufReader) str() string {
	n := g.u64()
	if g.err == nil && n > maxGGUFString {
		g.err = fmt.Errorf("string of %d bytes is too long", n)
	}
	if g.err != nil {
		return ""
	}
	return string(g.read(int(n)))
}

// uint reads an integer value of type typ; other types are skipped as 0.
func (g *ggufReader) uint(typ uint32) uint64 {
	switch typ {
	case ggufUint8, ggufInt8, ggufBool:
		return uint64(g.read(1)[0])
	case ggufUint16, ggufInt16:
		return uint64(binary.LittleEndian.Uint16(g.read(2)))
	case ggufUint32, ggufInt32:
		return uint64(g.u32())
	case ggufUint64, ggufInt64:
		return g.u64()
	}
	g.skip(typ)
	return 0
}

// valueSizes are the sizes of the fixed-size value types.
var valueSizes = map[uint32]int{ggufUint8: 1, ggufInt8: 1, ggufBool: 1, ggufUint16: 2, ggufInt16: 2,
	ggufUint32: 4, ggufInt32: 4, ggufFloat32: 4, ggufUint64: 8, ggufInt64: 8, ggufFloat64: 8}

// skip reads past a value of type typ.
func (g *ggufReader) skip(typ uint32) {
	if g.err != nil {
		return
	}
	if size, ok := valueSizes[typ]; ok {
		g.discard(uint64(size))
		return
	}
	switch typ {
	case ggufString:
		g.discard(g.u64())
	case ggufArray:
		elem, n := g.u32(), g.count()
		if size, ok := valueSizes[elem]; ok {
			g.discard(n * uint64(size))
			return
		}
		for i := uint64(0); i < n && g.err == nil; i++ {
			g.skip(elem)
		}
	default:
		g.err = fmt.Errorf("unknown value type %d", typ)
	}
}

func (g *ggufReader) discard(n uint64) {
	if g.err != nil {
		return
	}
	if n > math.MaxInt32 {
		g.err = fmt.Errorf("value of %d bytes is too long", n)
		return
	}
	if _, err := g.r.Discard(int(n)); err != nil {
		g.err = fmt.Errorf("cut short: %w", err)
	}
}
