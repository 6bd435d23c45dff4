package llamacpp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"testing"
)

// A GGUF v3 writer, just enough for a tiny llama.cpp model that the
// real-server test can race without downloading one. The format
// (llama.cpp's gguf.h), all little-endian: "GGUF", version u32, tensor
// count u64, key-value count u64; each key-value as key (string), value type
// u32, value; each tensor info as name, dimension count u32, dimensions u64
// (fastest-varying first), ggml type u32, data offset u64; padding to the
// alignment; then each tensor's data, padded to the alignment. A string is
// its byte length u64 and its bytes; an array is its element type u32,
// length u64 and elements.

// GGUF value types, and ggml's F32 tensor type.
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufString  = 8
	ggufArray   = 9

	ggmlF32       = 0
	ggufAlignment = 32
)

// ggufKV is one key-value: uint32, int32, float32, string, or a slice of
// string, float32 or int32.
type ggufKV struct {
	key   string
	value any
}

type ggufTensor struct {
	name string
	dims []uint64 // fastest-varying first: a matrix of R rows of C columns is {C, R}
	data []float32
}

func writeGGUF(w io.Writer, kvs []ggufKV, tensors []ggufTensor) error {
	var b bytes.Buffer
	put := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) } // a bytes.Buffer does not fail
	putString := func(s string) { put(uint64(len(s))); b.WriteString(s) }
	pad := func() { b.Write(make([]byte, (ggufAlignment-b.Len()%ggufAlignment)%ggufAlignment)) }

	b.WriteString("GGUF")
	put(uint32(3))
	put(uint64(len(tensors)))
	put(uint64(len(kvs)))
	for _, kv := range kvs {
		putString(kv.key)
		switch v := kv.value.(type) {
		case uint32:
			put(uint32(ggufUint32))
			put(v)
		case int32:
			put(uint32(ggufInt32))
			put(v)
		case float32:
			put(uint32(ggufFloat32))
			put(v)
		case string:
			put(uint32(ggufString))
			putString(v)
		case []string:
			put([]uint32{ggufArray, ggufString})
			put(uint64(len(v)))
			for _, s := range v {
				putString(s)
			}
		case []float32:
			put([]uint32{ggufArray, ggufFloat32})
			put(uint64(len(v)))
			put(v)
		case []int32:
			put([]uint32{ggufArray, ggufInt32})
			put(uint64(len(v)))
			put(v)
		default:
			return fmt.Errorf("gguf: %s: unsupported value type %T", kv.key, v)
		}
	}
	var offset uint64
	for _, t := range tensors {
		n := uint64(1)
		for _, d := range t.dims {
			n *= d
		}
		if n != uint64(len(t.data)) {
			return fmt.Errorf("gguf: tensor %s: dimensions %v hold %d values, data has %d", t.name, t.dims, n, len(t.data))
		}
		putString(t.name)
		put(uint32(len(t.dims)))
		put(t.dims)
		put(uint32(ggmlF32))
		put(offset)
		offset += (4*n + ggufAlignment - 1) / ggufAlignment * ggufAlignment
	}
	pad()
	for _, t := range tensors {
		put(t.data)
		pad()
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Shape of the tiny model: one layer, two heads of 64 (a head size every
// llama.cpp backend has kernels for).
const (
	tinyEmbd    = 128
	tinyHeads   = 2
	tinyFF      = 128
	tinyContext = 2048
)

// tinyWords are the model's word tokens, each one o200k token too.
var tinyWords = []string{"the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "be",
	"at", "by", "this", "had", "not", "are", "but", "from", "or", "have", "an", "they", "which", "one", "you", "were",
	"all", "we", "can", "her", "has", "there", "been", "if", "more", "when"}

// SentencePiece token types.
const (
	tokenNormal  = 1
	tokenUnknown = 2
	tokenControl = 3
	tokenByte    = 6
)

// tinyLlama is a llama.cpp model of well under 1 MB that streams words as
// fast as llama.cpp can run it and never ends on its own. Its layer
// matrices are zero, so each layer adds nothing and the hidden state is the
// token's embedding: all ones, for every token. The output matrix scores
// every word token +1 per dimension, EOS −1 and the rest 0, so sampling
// always picks a word: generation runs to max_tokens.
func tinyLlama() ([]ggufKV, []ggufTensor) {
	tokens := []string{"<unk>", "<s>", "</s>"}
	types := []int32{tokenUnknown, tokenControl, tokenControl}
	for b := range 256 {
		tokens = append(tokens, fmt.Sprintf("<0x%02X>", b))
		types = append(types, tokenByte)
	}
	firstWord := len(tokens)
	for _, w := range tinyWords {
		tokens = append(tokens, "▁"+w)
		types = append(types, tokenNormal)
	}
	scores := make([]float32, len(tokens))
	for i := firstWord; i < len(tokens); i++ {
		scores[i] = -float32(i - firstWord)
	}
	kvs := []ggufKV{
		{"general.architecture", "llama"},
		{"general.name", "tpsrace tiny llama"},
		{"general.alignment", uint32(ggufAlignment)},
		{"llama.context_length", uint32(tinyContext)},
		{"llama.embedding_length", uint32(tinyEmbd)},
		{"llama.block_count", uint32(1)},
		{"llama.feed_forward_length", uint32(tinyFF)},
		{"llama.attention.head_count", uint32(tinyHeads)},
		{"llama.attention.head_count_kv", uint32(tinyHeads)},
		{"llama.rope.dimension_count", uint32(tinyEmbd / tinyHeads)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.scores", scores},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.unknown_token_id", uint32(0)},
		{"tokenizer.ggml.bos_token_id", uint32(1)},
		{"tokenizer.ggml.eos_token_id", uint32(2)},
	}

	vocab := uint64(len(tokens))
	filled := func(n int, v float32) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	output := make([]float32, 0, vocab*tinyEmbd) // row t scores token t
	for t := range int(vocab) {
		row := float32(0)
		switch {
		case t >= firstWord:
			row = 1
		case t == 2:
			row = -1
		}
		output = append(output, filled(tinyEmbd, row)...)
	}
	matrix := func(name string, cols, rows uint64) ggufTensor {
		return ggufTensor{name, []uint64{cols, rows}, make([]float32, cols*rows)}
	}
	norm := func(name string) ggufTensor { return ggufTensor{name, []uint64{tinyEmbd}, filled(tinyEmbd, 1)} }
	tensors := []ggufTensor{
		{"token_embd.weight", []uint64{tinyEmbd, vocab}, filled(int(tinyEmbd*vocab), 1)},
		norm("output_norm.weight"),
		{"output.weight", []uint64{tinyEmbd, vocab}, output},
		norm("blk.0.attn_norm.weight"),
		matrix("blk.0.attn_q.weight", tinyEmbd, tinyEmbd),
		matrix("blk.0.attn_k.weight", tinyEmbd, tinyEmbd),
		matrix("blk.0.attn_v.weight", tinyEmbd, tinyEmbd),
		matrix("blk.0.attn_output.weight", tinyEmbd, tinyEmbd),
		norm("blk.0.ffn_norm.weight"),
		matrix("blk.0.ffn_gate.weight", tinyEmbd, tinyFF),
		matrix("blk.0.ffn_up.weight", tinyEmbd, tinyFF),
		matrix("blk.0.ffn_down.weight", tinyFF, tinyEmbd),
	}
	return kvs, tensors
}

func writeTinyLlama(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	kvs, tensors := tinyLlama()
	return errors.Join(writeGGUF(f, kvs, tensors), f.Close())
}

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
	r := bytes.NewReader(data)
	var err error
	get := func(v any) {
		if err == nil {
			err = binary.Read(r, binary.LittleEndian, v)
		}
	}
	getString := func() string {
		var n uint64
		get(&n)
		if err != nil || n > uint64(r.Len()) {
			err = errors.Join(err, io.ErrUnexpectedEOF)
			return ""
		}
		s := make([]byte, n)
		get(s)
		return string(s)
	}
	var magic [4]byte
	get(&magic)
	if magic != [4]byte{'G', 'G', 'U', 'F'} {
		return nil, fmt.Errorf("magic %q", magic)
	}
	f := &ggufFile{}
	var nTensors, nKVs uint64
	get(&f.version)
	get(&nTensors)
	get(&nKVs)
	for range nKVs {
		key := getString()
		var typ uint32
		get(&typ)
		var value any
		switch typ {
		case ggufUint32:
			var v uint32
			get(&v)
			value = v
		case ggufInt32:
			var v int32
			get(&v)
			value = v
		case ggufFloat32:
			var v float32
			get(&v)
			value = v
		case ggufString:
			value = getString()
		case ggufArray:
			var elem uint32
			var n uint64
			get(&elem)
			get(&n)
			switch elem {
			case ggufString:
				var v []string
				for range n {
					v = append(v, getString())
				}
				value = v
			case ggufFloat32:
				v := make([]float32, n)
				get(v)
				value = v
			case ggufInt32:
				v := make([]int32, n)
				get(v)
				value = v
			default:
				return nil, fmt.Errorf("%s: array of type %d", key, elem)
			}
		default:
			return nil, fmt.Errorf("%s: value type %d", key, typ)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		f.kvs = append(f.kvs, ggufKV{key, value})
	}
	for range nTensors {
		t := ggufInfo{name: getString()}
		var nDims uint32
		get(&nDims)
		t.dims = make([]uint64, nDims)
		get(t.dims)
		get(&t.typ)
		get(&t.offset)
		if err != nil {
			return nil, fmt.Errorf("tensor info %q: %w", t.name, err)
		}
		f.tensors = append(f.tensors, t)
	}
	read := len(data) - r.Len()
	f.dataStart = (read + ggufAlignment - 1) / ggufAlignment * ggufAlignment
	if !slices.Equal(data[read:f.dataStart], make([]byte, f.dataStart-read)) {
		return nil, errors.New("padding before the data is not zeros")
	}
	return f, nil
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
	kvs, tensors := tinyLlama()
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
		if got := f.floats(data, info); !slices.Equal(got, want.data) {
			t.Errorf("tensor %s: data read back differs", info.name)
		}
		wantOffset += (uint64(4*len(want.data)) + ggufAlignment - 1) / ggufAlignment * ggufAlignment
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
