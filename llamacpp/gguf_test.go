package llamacpp

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/llamacpp/llamacpptest"
)

// The tiny model of the real-server tests: F32, vocabulary 299, width 128,
// one layer of four 128×128 attention and three 128×128 feed-forward
// matrices and two norms, and an output norm and matrix of its own. A
// decode step reads all but the token embeddings.
func TestDecodeBytesTinyModel(t *testing.T) {
	got, err := DecodeBytes(llamacpptest.Model(t))
	if err != nil {
		t.Fatal(err)
	}
	const vocab, embd = 299, 128
	want := int64(4 * (vocab*embd + embd + 7*embd*embd + 2*embd))
	if got != want {
		t.Errorf("DecodeBytes = %d, want %d", got, want)
	}
}

// LargeModel's wider feed-forward layer: at least the bytes asked for, and
// no more than its rounding and the tiny model's other tensors add.
func TestDecodeBytesLargeModel(t *testing.T) {
	const size = 8 << 20
	got, err := DecodeBytes(llamacpptest.LargeModel(t, size))
	if err != nil {
		t.Fatal(err)
	}
	if got < size || got > size+1<<20 {
		t.Errorf("DecodeBytes = %d, want %d to %d", got, size, size+1<<20)
	}
}

// header writes a GGUF v3 header with uint32 key-values and tensor infos (no data).
func header(kvs map[string]uint32, arch string, tensors []ggufTensor) []byte {
	var b bytes.Buffer
	put := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { put(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	put(uint32(3))
	put(uint64(len(tensors)))
	put(uint64(len(kvs) + 2))
	str("general.architecture")
	put(uint32(ggufString))
	str(arch)
	str("tokenizer.ggml.tokens") // an array of strings, skipped
	put([]uint32{ggufArray, ggufString})
	put(uint64(2))
	str("a")
	str("b")
	for k, v := range kvs {
		str(k)
		put(uint32(ggufUint32))
		put(v)
	}
	for _, t := range tensors {
		str(t.name)
		put(uint32(len(t.dims)))
		put(t.dims)
		put(t.ggmlType)
		put(uint64(0))
	}
	return b.Bytes()
}

func decodeBytesOf(t *testing.T, data []byte) (int64, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.gguf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return DecodeBytes(path)
}

func TestDecodeBytesRules(t *testing.T) {
	const q4k, q6k, f32 = 12, 14, 0
	tests := []struct {
		name    string
		kvs     map[string]uint32
		tensors []ggufTensor
		want    int64
	}{
		// Tied: no output.weight, the embedding table is the output matrix.
		{"tied embeddings", nil, []ggufTensor{{"token_embd.weight", []uint64{256, 1000}, q6k}, {"blk.0.attn_q.weight", []uint64{256, 256}, q4k}},
			1000*210 + 256*144},
		{"own output", nil, []ggufTensor{{"token_embd.weight", []uint64{256, 1000}, q6k}, {"output.weight", []uint64{256, 1000}, q6k}, {"output_norm.weight", []uint64{256}, f32}},
			1000*210 + 256*4},
		// Two of eight experts: a quarter of each expert tensor.
		{"mixture of experts", map[string]uint32{"qwen3moe.expert_count": 8, "qwen3moe.expert_used_count": 2},
			[]ggufTensor{{"output.weight", []uint64{256, 10}, q4k}, {"blk.0.ffn_up_exps.weight", []uint64{256, 64, 8}, q4k}},
			10*144 + 64*8*144/4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeBytesOf(t, header(tc.kvs, "qwen3moe", tc.tensors))
			if err != nil || got != tc.want {
				t.Errorf("DecodeBytes = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestDecodeBytesRefusesBadFiles(t *testing.T) {
	whole := header(nil, "llama", []ggufTensor{{"output.weight", []uint64{256, 10}, 12}})
	unknownType := header(nil, "llama", []ggufTensor{{"output.weight", []uint64{256, 10}, 99}})
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"not gguf", []byte("PK\x03\x04 a zip"), "not a GGUF file"},
		{"cut short", whole[:len(whole)-5], "tensor info 0: cut short"},
		{"unknown type", unknownType, "unknown ggml type 99"},
		{"old version", append([]byte("GGUF\x01\x00\x00\x00"), whole[8:]...), "GGUF version 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeBytesOf(t, tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "m.gguf") {
				t.Errorf("err = %v, want one naming the file and saying %q", err, tc.want)
			}
		})
	}
}

// Block sizes agree with ggml's: a 256-value row of each K-quant.
func TestGGMLBlockSizes(t *testing.T) {
	for typ, want := range map[uint32]uint64{2: 8 * 18, 8: 8 * 34, 10: 84, 12: 144, 14: 210, 23: 136, 30: 512} {
		got, err := ggufTensor{name: "row", dims: []uint64{256}, ggmlType: typ}.bytes()
		if err != nil || got != want {
			t.Errorf("type %d: %d bytes, %v; want %d", typ, got, err, want)
		}
	}
}
