package llamacpptest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A GGUF v3 writer, just enough for a tiny llama.cpp model that the
// real-server tests can race without downloading one. The format
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
	dims []uint64  // fastest-varying first: a matrix of R rows of C columns is {C, R}
	data []float32 // nil for zeros, written without holding them: a large model's matrices
}

func writeGGUF(w io.Writer, kvs []ggufKV, tensors []ggufTensor) error {
	var g ggufWriter
	g.b.WriteString("GGUF")
	g.put(uint32(3))
	g.put(uint64(len(tensors)))
	g.put(uint64(len(kvs)))
	for _, kv := range kvs {
		if err := g.keyValue(kv); err != nil {
			return err
		}
	}
	if err := g.tensorInfos(tensors); err != nil {
		return err
	}
	g.pad()
	return g.tensorData(w, tensors)
}

// ggufWriter builds a GGUF file's bytes in b; a bytes.Buffer does not
// fail, so only the final writes return errors.
type ggufWriter struct{ b bytes.Buffer }

func (g *ggufWriter) put(v any)          { _ = binary.Write(&g.b, binary.LittleEndian, v) }
func (g *ggufWriter) putString(s string) { g.put(uint64(len(s))); g.b.WriteString(s) }
func (g *ggufWriter) pad()               { g.b.Write(make([]byte, padding(uint64(g.b.Len())))) }
func padding(n uint64) uint64            { return (ggufAlignment - n%ggufAlignment) % ggufAlignment }
func (t ggufTensor) values() (n uint64) {
	n = 1
	for _, d := range t.dims {
		n *= d
	}
	return n
}

// keyValue writes one key-value: its key, its value type and its value.
func (g *ggufWriter) keyValue(kv ggufKV) error {
	g.putString(kv.key)
	switch v := kv.value.(type) {
	case uint32:
		g.put(uint32(ggufUint32))
		g.put(v)
	case int32:
		g.put(uint32(ggufInt32))
		g.put(v)
	case float32:
		g.put(uint32(ggufFloat32))
		g.put(v)
	case string:
		g.put(uint32(ggufString))
		g.putString(v)
	case []string:
		g.put([]uint32{ggufArray, ggufString})
		g.put(uint64(len(v)))
		for _, s := range v {
			g.putString(s)
		}
	case []float32:
		g.put([]uint32{ggufArray, ggufFloat32})
		g.put(uint64(len(v)))
		g.put(v)
	case []int32:
		g.put([]uint32{ggufArray, ggufInt32})
		g.put(uint64(len(v)))
		g.put(v)
	default:
		return fmt.Errorf("gguf: %s: unsupported value type %T", kv.key, v)
	}
	return nil
}

// tensorInfos writes each tensor's name, dimensions, type and the offset
// of its data, each tensor's data padded to the alignment.
func (g *ggufWriter) tensorInfos(tensors []ggufTensor) error {
	var offset uint64
	for _, t := range tensors {
		n := t.values()
		if t.data != nil && n != uint64(len(t.data)) {
			return fmt.Errorf("gguf: tensor %s: dimensions %v hold %d values, data has %d", t.name, t.dims, n, len(t.data))
		}
		g.putString(t.name)
		g.put(uint32(len(t.dims)))
		g.put(t.dims)
		g.put(uint32(ggmlF32))
		g.put(offset)
		offset += 4*n + padding(4*n)
	}
	return nil
}

// tensorData writes what g holds, then each tensor's data and its
// padding to w; a tensor of zeros is streamed, never held.
func (g *ggufWriter) tensorData(w io.Writer, tensors []ggufTensor) error {
	zeros := make([]byte, 1<<20)
	for _, t := range tensors {
		if t.data != nil {
			g.put(t.data)
			g.pad()
			continue
		}
		// Flush what came before, then stream the zeros and their padding.
		if _, err := w.Write(g.b.Bytes()); err != nil {
			return err
		}
		g.b.Reset()
		for n := 4*t.values() + padding(4*t.values()); n > 0; {
			chunk := min(n, uint64(len(zeros)))
			if _, err := w.Write(zeros[:chunk]); err != nil {
				return err
			}
			n -= chunk
		}
	}
	_, err := w.Write(g.b.Bytes())
	return err
}

// Shape of the tiny model: one layer, two heads of 64 (a head size every
// llama.cpp backend has kernels for).
const (
	tinyEmbd    = 128
	tinyHeads   = 2
	tinyFF      = 128 // the feed-forward width; LargeModel's is wider
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
func tinyLlama(ff uint64) ([]ggufKV, []ggufTensor) {
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
		{"llama.feed_forward_length", uint32(ff)},
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
		return ggufTensor{name, []uint64{cols, rows}, nil}
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
		matrix("blk.0.ffn_gate.weight", tinyEmbd, ff),
		matrix("blk.0.ffn_up.weight", tinyEmbd, ff),
		matrix("blk.0.ffn_down.weight", ff, tinyEmbd),
	}
	return kvs, tensors
}

// Model writes the tiny model into a temporary directory of t and returns
// its path.
func Model(t testing.TB) string {
	t.Helper()
	return writeModel(t, "tiny-llama.gguf", tinyFF)
}

// LargeModel writes the tiny model with a feed-forward layer wide enough
// that a decode step reads at least size bytes (its three zero matrices of
// 128 × width float32), for a model larger than a CPU cache, and returns
// its path. It behaves as Model's does.
func LargeModel(t testing.TB, size int64) string {
	t.Helper()
	const bytesPerWidth = 3 * tinyEmbd * 4
	width := (uint64(size) + bytesPerWidth - 1) / bytesPerWidth
	return writeModel(t, "large-llama.gguf", (width+31)/32*32)
}

func writeModel(t testing.TB, name string, ff uint64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	kvs, tensors := tinyLlama(ff)
	w := bufio.NewWriter(f)
	if err := errors.Join(writeGGUF(w, kvs, tensors), w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}
