// Command genvocab writes tokens/o200k.bin, the compact form of the o200k_base
// vocabulary that package tokens embeds (layout: package o200k). Its source
// is the o200k_base.tiktoken file that tiktoken-go-loader ships (base64
// token, space, rank, one a line, ranks 0..n-1 in order); tiktoken-go itself
// says which tokens are not single.
//
//	go generate ./tokens
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/pkoukk/tiktoken-go-loader/assets"

	"tpsrace/tokens/internal/o200k"
)

func main() {
	src, err := assets.Assets.ReadFile("o200k_base.tiktoken")
	check(err)
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(tiktoken.MODEL_O200K_BASE)
	check(err)
	var info, blob []byte
	notSingle := 0
	for i, line := range bytes.Split(bytes.TrimSpace(src), []byte("\n")) {
		b64, rank, ok := bytes.Cut(line, []byte(" "))
		if !ok {
			check(fmt.Errorf("line %d: no rank", i+1))
		}
		if r, err := strconv.Atoi(string(rank)); err != nil || r != i {
			check(fmt.Errorf("line %d: rank %q, want %d in order", i+1, rank, i))
		}
		token, err := base64.StdEncoding.DecodeString(string(b64))
		check(err)
		if len(token) == 0 || len(token) > 128 {
			check(fmt.Errorf("line %d: token of %d bytes", i+1, len(token)))
		}
		b := byte(len(token) - 1)
		if len(enc.EncodeOrdinary(string(token))) != 1 {
			b |= o200k.NotSingle
			notSingle++
		}
		info = append(info, b)
		blob = append(blob, token...)
	}
	if len(info) != o200k.Tokens {
		check(fmt.Errorf("%d tokens, want %d", len(info), o200k.Tokens))
	}
	if len(blob) >= 1<<(o200k.FingerprintShift-o200k.StartShift) {
		check(fmt.Errorf("blob of %d bytes: starts do not fit an entry", len(blob)))
	}
	slots := make([]uint64, 1<<o200k.SlotBits)
	const mask = 1<<o200k.SlotBits - 1
	longest, at := 0, 0
	for r, b := range info {
		token := string(blob[at : at+int(b&^o200k.NotSingle)+1])
		h := o200k.Hash(token)
		i, probes := h&mask, 1
		for ; slots[i] != 0; probes++ {
			i = (i + 1) & mask
		}
		slots[i] = o200k.Entry(r, b, at, h, utf8.ValidString(token))
		at += len(token)
		longest = max(longest, probes)
	}
	out := append(info, blob...)
	for _, s := range slots {
		out = binary.LittleEndian.AppendUint64(out, s)
	}
	check(os.WriteFile("o200k.bin", out, 0o644))
	fmt.Printf("o200k.bin: %d tokens (%d not single), %d bytes, longest probe %d\n", len(info), notSingle, len(out), longest)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvocab:", err)
		os.Exit(1)
	}
}
