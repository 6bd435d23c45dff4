package llamacpptest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"
)

// A GGUF reader, to check the writer's output.

type ggufInfo struct {
	name   string
	dims   []uint64
	typ    uint32
	offset uint64
}

type ggufFile struct {
	version   uint32
	kvs       []ggufKV // in file order, values as written
	tensors   []ggufInfo
	dataStart int
}

func readGGUF(data []byte) (*ggufFile, error) {
	g := &ggufReader{r: bytes.NewReader(data)}
	var magic [4]byte
	g.get(&magic)
	if magic != [4]byte{'G', 'G', 'U', 'F'} {
		return nil, fmt.Errorf("magic %q", magic)
	}
	f := &ggufFile{}
	var nTensors, nKVs uint64
	g.get(&f.version)
	g.get(&nTensors)
	g.get(&nKVs)
	for range nKVs {
		key := g.getString()
		var typ uint32
		g.get(&typ)
		value, err := g.value(typ)
		if err = errors.Join(err, g.err); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		f.kvs = append(f.kvs, ggufKV{key, value})
	}
	for range nTensors {
		t := ggufInfo{name: g.getString()}
		var nDims uint32
		g.get(&nDims)
		t.dims = make([]uint64, nDims)
		g.get(t.dims)
		g.get(&t.typ)
		g.get(&t.offset)
		if g.err != nil {
			return nil, fmt.Errorf("tensor info %q: %w", t.name, g.err)
		}
		f.tensors = append(f.tensors, t)
	}
	read := len(data) - g.r.Len()
	f.dataStart = (read + ggufAlignment - 1) / ggufAlignment * ggufAlignment
	if !slices.Equal(data[read:f.dataStart], make([]byte, f.dataStart-read)) {
		return nil, errors.New("padding before the data is not zeros")
	}
	return f, nil
}

// ggufReader reads little-endian values until the first error, which it
// keeps.
type ggufReader struct {
	r   *bytes.Reader
	err error
}

func (g *ggufReader) get(v any) {
	if g.err == nil {
		g.err = binary.Read(g.r, binary.LittleEndian, v)
	}
}

func (g *ggufReader) getString() string {
	var n uint64
	g.get(&n)
	if g.err != nil || n > uint64(g.r.Len()) {
		g.err = errors.Join(g.err, io.ErrUnexpectedEOF)
		return ""
	}
	s := make([]byte, n)
	g.get(s)
	return string(s)
}

// value reads a value of GGUF type typ.
func (g *ggufReader) value(typ uint32) (any, error) {
	switch typ {
	case ggufUint32:
		var v uint32
		g.get(&v)
		return v, nil
	case ggufInt32:
		var v int32
		g.get(&v)
		return v, nil
	case ggufFloat32:
		var v float32
		g.get(&v)
		return v, nil
	case ggufString:
		return g.getString(), nil
	case ggufArray:
		return g.array()
	}
	return nil, fmt.Errorf("value type %d", typ)
}

// array reads an array: its element type, its length and its elements.
func (g *ggufReader) array() (any, error) {
	var elem uint32
	var n uint64
	g.get(&elem)
	g.get(&n)
	switch elem {
	case ggufString:
		var v []string
		for range n {
			v = append(v, g.getString())
		}
		return v, nil
	case ggufFloat32:
		v := make([]float32, n)
		g.get(v)
		return v, nil
	case ggufInt32:
		v := make([]int32, n)
		g.get(v)
		return v, nil
	}
	return nil, fmt.Errorf("array of type %d", elem)
}

func (f *ggufFile) value(key string) any {
	for _, kv := range f.kvs {
		if kv.key == key {
			return kv.value
		}
	}
	return nil
}

// floats reads tensor t's data from the file.
func (f *ggufFile) floats(data []byte, t ggufInfo) []float32 {
	n := uint64(1)
	for _, d := range t.dims {
		n *= d
	}
	at := uint64(f.dataStart) + t.offset
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[at+4*uint64(i):]))
	}
	return out
}

func TestGGUFWriterRoundTrip(t *testing.T) {
	kvs, tensors := tinyLlama(tinyFF)
	var buf bytes.Buffer
	if err := writeGGUF(&buf, kvs, tensors); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if len(data) >= 1<<20 {
		t.Errorf("the tiny model is %d bytes, want under 1 MB", len(data))
	}
	f, err := readGGUF(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.version != 3 || len(f.kvs) != len(kvs) || len(f.tensors) != len(tensors) {
		t.Fatalf("version %d, %d key-values, %d tensors; want 3, %d, %d", f.version, len(f.kvs), len(f.tensors), len(kvs), len(tensors))
	}
	for i, kv := range kvs {
		if got := f.kvs[i]; got.key != kv.key || fmt.Sprint(got.value) != fmt.Sprint(kv.value) || fmt.Sprintf("%T", got.value) != fmt.Sprintf("%T", kv.value) {
			t.Errorf("key-value %d: %s = %v (%T), want %s = %v (%T)", i, got.key, got.value, got.value, kv.key, kv.value, kv.value)
		}
	}

	// What llama.cpp's llama architecture and SentencePiece vocabulary need.
	if f.value("general.architecture") != "llama" || f.value("tokenizer.ggml.model") != "llama" {
		t.Error("want general.architecture and tokenizer.ggml.model llama")
	}
	if _, ok := f.value("llama.attention.layer_norm_rms_epsilon").(float32); !ok {
		t.Error("llama.attention.layer_norm_rms_epsilon must be an f32")
	}
	vocab := f.value("tokenizer.ggml.tokens").([]string)
	types := f.value("tokenizer.ggml.token_type").([]int32)
	if len(f.value("tokenizer.ggml.scores").([]float32)) != len(vocab) || len(types) != len(vocab) {
		t.Error("scores and token types must have one entry per token")
	}
	if !slices.Equal(vocab[:3], []string{"<unk>", "<s>", "</s>"}) || vocab[3] != "<0x00>" || vocab[3+0x0A] != "<0x0A>" || vocab[3+255] != "<0xFF>" || types[3+0x41] != tokenByte {
		t.Errorf("vocabulary starts %q: want <unk>, <s>, </s> and the 256 byte tokens", vocab[:5])
	}
	if !slices.Contains(vocab, "▁the") {
		t.Error("no ▁word tokens")
	}

	// Tensor infos: consecutive, aligned offsets, and the data where they say.
	wantOffset := uint64(0)
	for i, info := range f.tensors {
		want := tensors[i]
		if info.name != want.name || !slices.Equal(info.dims, want.dims) || info.typ != ggmlF32 {
			t.Errorf("tensor %d: %s %v type %d, want %s %v F32", i, info.name, info.dims, info.typ, want.name, want.dims)
		}
		if info.offset != wantOffset || info.offset%ggufAlignment != 0 {
			t.Errorf("tensor %s at offset %d, want %d (aligned to %d)", info.name, info.offset, wantOffset, ggufAlignment)
		}
		got, wantData := f.floats(data, info), want.data
		if wantData == nil { // zeros
			wantData = make([]float32, len(got))
		}
		if !slices.Equal(got, wantData) {
			t.Errorf("tensor %s: data read back differs", info.name)
		}
		wantOffset += (uint64(4*len(wantData)) + ggufAlignment - 1) / ggufAlignment * ggufAlignment
	}
	if f.dataStart%ggufAlignment != 0 || len(data) != f.dataStart+int(wantOffset) {
		t.Errorf("data starts at %d and the file is %d bytes; want an aligned start and %d bytes", f.dataStart, len(data), f.dataStart+int(wantOffset))
	}

	// The output matrix makes every word token the most likely and EOS the least.
	var output ggufInfo
	for _, info := range f.tensors {
		if info.name == "output.weight" {
			output = info
		}
	}
	rows := f.floats(data, output)
	score := func(token int) float32 { return rows[token*tinyEmbd] }
	if the := slices.Index(vocab, "▁the"); score(the) != 1 || score(2) != -1 || score(3) != 0 {
		t.Errorf("output scores: word %v, EOS %v, byte %v; want 1, -1, 0", score(the), score(2), score(3))
	}
}

func TestGGUFWriterRejectsBadTensors(t *testing.T) {
	err := writeGGUF(io.Discard, nil, []ggufTensor{{"w", []uint64{2, 3}, make([]float32, 5)}})
	if err == nil {
		t.Error("a tensor whose data does not fill its dimensions was written")
	}
	if err := writeGGUF(io.Discard, []ggufKV{{"k", 1.5}}, nil); err == nil {
		t.Error("a float64 value was written: GGUF models keep f32")
	}
}
