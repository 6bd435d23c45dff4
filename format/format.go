// Package format writes figures the same way in every view (dashboard, bench,
// report, replay, watch): durations, speeds, counts and money, short enough
// for a narrow lane and never rounded so far that two different figures read
// the same; and pads styled text to a width. It sits at the bottom of the
// import map: anyone may import it, it imports nothing of tpsrace.
package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Undefined is what a figure that is not defined shows, never a 0: the same
// "-" on the dashboard as in bench's table and Markdown.
const Undefined = "-"

// Duration is "850ms", "1.24s", "12.4s" or "2m05s", rounded (as TPS) to
// the precision shown: 280.969ms reads "281ms", 999.6ms "1.00s".
func Duration(d time.Duration) string {
	d = d.Truncate(time.Microsecond) // bench JSON's precision, as TPS
	switch {
	case d < 0:
		return "-" + Duration(-d)
	case d.Round(time.Millisecond) < time.Second: // 999.6ms reads "1.00s", not "1000ms"
		return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
	case d.Round(10*time.Millisecond) < 10*time.Second: // 9.996s reads "10.0s", not "10.00s"
		return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
	case d.Round(100*time.Millisecond) < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// Precise is a short time to the microsecond: "38µs", "2.4ms", then as Duration.
func Precise(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + Precise(-d)
	case d < time.Millisecond:
		return strconv.FormatInt(d.Microseconds(), 10) + "µs"
	case d.Round(100*time.Microsecond) < 10*time.Millisecond: // 9.96ms reads "10ms", as Duration, not "10.0ms"
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + "ms"
	}
	return Duration(d)
}

// TPS is a speed in tokens (or words) per second: "1,820", "125", "25.3", "0.84".
func TPS(v float64) string {
	v = math.Round(v*100) / 100 // from bench JSON's precision, so no view rounds twice to another figure
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v): // a ratio over a speed of 0 (or none); never int(±Inf)
		return nonFinite(v)
	// Each precision is chosen by the value as it will be written, so
	// 9.996 reads "10.0" as 10.04 does, not "10.00" beside a "10.0", and
	// 99.96 reads "100", not "100.0".
	case math.Round(v*10) >= 1000:
		return Count(int(math.Round(v)))
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Short is a speed for a tight axis label: "1.8k", "950", "25", "2.5", "0".
func Short(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 9995:
		return strconv.FormatFloat(v/1000, 'f', 0, 64) + "k"
	case v >= 1000:
		return strconv.FormatFloat(v/1000, 'f', 1, 64) + "k"
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
}

// Count is an integer with thousands separators: "12,345".
func Count(n int) string {
	if n < 0 {
		return "-" + Count(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural is n and its noun, the noun plural (an s) unless n is 1:
// "1 run", "12,345 tokens".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Count(n) + " " + noun + "s"
}

// OneOrMany is one when n is 1 and many otherwise: for the words after a
// count that Plural's s does not make ("it was" / "all were", "1 busy
// slot" from a gauge's float).
func OneOrMany[N int | float64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Percent is a share (0.82) as a whole percentage, "82%", rounded from the
// bench JSON's precision (0.001) as TPS is, so the dashboard's exact share
// and a report's JSON one read the same.
func Percent(share float64) string {
	share = math.Round(share*1000) / 1000
	return strconv.Itoa(int(math.Round(share*100))) + "%"
}

// Tokens is a token count that may be a median of several (1920.5) as a
// whole number, rounded half away from zero: "1,921".
func Tokens(v float64) string { return Count(int(math.Round(v))) }

// USD is a cost, with enough digits to tell small costs apart: "$0.00042", "$1.25".
func USD(v float64) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 8, 64), 64) // bench JSON's 8 significant digits, as TPS
	switch {
	case v == 0:
		return "$0"
	case v >= 1:
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	default: // two significant digits
		return "$" + strconv.FormatFloat(v, 'f', 1-int(math.Floor(math.Log10(v))), 64)
	}
}

// Times is a ratio between two speeds: "14×", "2.5×".
func Times(r float64) string {
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return nonFinite(r) + "×"
	}
	if r >= 10 {
		return Count(int(math.Round(r))) + "×"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "×"
}

// nonFinite writes ±Inf as "∞" and NaN as Undefined.
func nonFinite(v float64) string {
	switch {
	case math.IsNaN(v):
		return Undefined
	case v < 0:
		return "-∞"
	}
	return "∞"
}

// Ordinal is a place: "1st", "2nd", "3rd", "11th", "22nd".
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// PadRight pads s with spaces to width cells (styled text allowed).
func PadRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-Width(s), 0))
}

// PadLeft right-aligns s in width cells (styled text allowed).
func PadLeft(s string, width int) string {
	return strings.Repeat(" ", max(width-Width(s), 0)) + s
}

// Model is a model ID in at most width cells, or "" when no useful part
// fits: the inner segments of a path go first
// ("accounts/…/llama-v3p3-70b-instruct"), then its head ("…/Llama-3.3-70B-Instruct-Turbo"),
// then the middle of the name itself ("Llama-3.…ct-Turbo").
func Model(id string, width int) string {
	if ansi.StringWidth(id) <= width {
		return id
	}
	segments := strings.Split(id, "/")
	name := segments[len(segments)-1]
	var tries []string
	if len(segments) > 2 {
		tries = append(tries, segments[0]+"/…/"+name)
	}
	if len(segments) > 1 {
		tries = append(tries, "…/"+name)
	}
	for _, s := range tries {
		if ansi.StringWidth(s) <= width {
			return s
		}
	}
	return Middle(name, width)
}

// Middle cuts the middle of s to fit width cells ("Llama-3.…ct-Turbo"),
// keeping its start and its end, which tell models apart; "" under 6 cells.
func Middle(s string, width int) string {
	runes := []rune(s)
	switch {
	case ansi.StringWidth(s) <= width:
		return s
	case width < 6:
		return ""
	}
	head := width / 2
	tail := width - 1 - head
	for ansi.StringWidth(string(runes[:head]))+1+ansi.StringWidth(string(runes[len(runes)-tail:])) > width {
		if head > tail {
			head--
		} else {
			tail--
		}
	}
	return string(runes[:head]) + "…" + string(runes[len(runes)-tail:])
}

// List is items as a sentence lists them: "a", "a and b", "a, b and c".
func List(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
