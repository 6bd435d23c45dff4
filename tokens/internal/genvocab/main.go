// Command genvocab writes tokens/o200k.bin, the compact form of the o200k_base
// vocabulary that package tokens embeds: a byte per token in rank order (its
// length − 1, all are 1–128 bytes, plus bit 7 when tiktoken does not count
// the token's own bytes as one token), then all tokens' bytes in rank
// order. Its source is the o200k_base.tiktoken file that tiktoken-go-loader
// ships (base64 token, space, rank, one a line, ranks 0..n-1 in order), and
// tiktoken-go itself says which tokens are not single.
//
//	go generate ./tokens
package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/pkoukk/tiktoken-go-loader/assets"
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
			b |= 0x80
			notSingle++
		}
		info = append(info, b)
		blob = append(blob, token...)
	}
	check(os.WriteFile("o200k.bin", append(info, blob...), 0o644))
	fmt.Printf("o200k.bin: %d tokens (%d not single), %d bytes\n", len(info), notSingle, len(info)+len(blob))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvocab:", err)
		os.Exit(1)
	}
}
