package format

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Duration(850 * time.Millisecond), "850ms"},
		{Duration(1240 * time.Millisecond), "1.24s"},
		{Duration(12400 * time.Millisecond), "12.4s"},
		{Duration(125 * time.Second), "2m05s"},
		{TPS(1820.4), "1,820"},
		{TPS(125.2), "125"},
		{TPS(25.34), "25.3"},
		{TPS(0.844), "0.84"},
		// The precision is chosen by the value as written: never "10.00"
		// beside "10.0", nor "100.0" or "10.00s".
		{TPS(9.996), "10.0"},
		{TPS(9.994), "9.99"},
		{TPS(99.96), "100"},
		{TPS(math.Inf(1)), "∞"},
		{Times(math.Inf(1)), "∞×"},
		{Duration(9996 * time.Millisecond), "10.0s"},
		{Duration(59960 * time.Millisecond), "1m00s"},
		// Rounded to the precision shown, as speeds, never truncated:
		// bench JSON's 280.969ms reads "281ms"; 999.6ms rolls to seconds.
		{Duration(280969 * time.Microsecond), "281ms"},
		{Duration(280499 * time.Microsecond), "280ms"},
		{Duration(1310 * time.Microsecond), "1ms"},
		{Duration(999400 * time.Microsecond), "999ms"},
		{Duration(999600 * time.Microsecond), "1.00s"},
		{Duration(-280969 * time.Microsecond), "-281ms"},
		{Precise(38 * time.Microsecond), "38µs"},
		{Precise(1310 * time.Microsecond), "1.3ms"},
		{Precise(9940 * time.Microsecond), "9.9ms"},
		{Precise(9960 * time.Microsecond), "10ms"},
		// A share and a median token count read the same from the exact
		// value (the dashboard) and from the JSON's (a report): cold 800ms,
		// warm 700ms is a saving of 0.125, 13%, however it is stored.
		{Percent(1 - 0.7/0.8), "13%"},
		{Percent(0.125), "13%"},
		{Percent(0.1244), "12%"},
		{Percent(0.82), "82%"},
		{Tokens(1920.5), "1,921"},
		{Tokens(1920.4), "1,920"},
		{Short(1820), "1.8k"},
		{Short(12000), "12k"},
		{Short(950), "950"},
		{Short(5.3), "5.3"},
		{Count(1234567), "1,234,567"},
		{Count(999), "999"},
		{Plural(1, "provider"), "1 provider"},
		{Plural(0, "run"), "0 runs"},
		{Plural(1024, "user"), "1,024 users"},
		{USD(0), "$0"},
		{USD(0.00042), "$0.00042"},
		{USD(0.0012345), "$0.0012"},
		{USD(0.000012), "$0.000012"},
		{USD(0.5), "$0.50"},
		{USD(1.254), "$1.25"},
		{Times(14.2), "14×"},
		{Times(2.54), "2.5×"},
		{Ordinal(1), "1st"},
		{Ordinal(2), "2nd"},
		{Ordinal(3), "3rd"},
		{Ordinal(4), "4th"},
		{Ordinal(11), "11th"},
		{Ordinal(22), "22nd"},
		{PadLeft("ab", 4), "  ab"},
		{PadRight("日", 4), "日  "},
		{Model("sim:wafer", 20), "sim:wafer"},
		{Model("accounts/fireworks/models/llama-v3p3-70b-instruct", 40), "accounts/…/llama-v3p3-70b-instruct"},
		{Model("accounts/fireworks/models/llama-v3p3-70b-instruct", 30), "…/llama-v3p3-70b-instruct"},
		{Model("meta-llama/Llama-3.3-70B-Instruct-Turbo", 30), "…/Llama-3.3-70B-Instruct-Turbo"},
		{Model("meta-llama/Llama-3.3-70B-Instruct-Turbo", 17), "Llama-3.…ct-Turbo"},
		{Model("meta-llama/Llama-3.3-70B-Instruct-Turbo", 5), ""},
		{Middle("abcdefghij", 7), "abc…hij"},
		{Middle("abc", 7), "abc"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	for items, want := range map[string]string{"": "", "a": "a", "a|b": "a and b", "a|b|c": "a, b and c"} {
		var list []string
		if items != "" {
			list = strings.Split(items, "|")
		}
		if got := List(list); got != want {
			t.Errorf("List(%q) = %q, want %q", list, got, want)
		}
	}
}

func TestOneOrMany(t *testing.T) {
	if got := OneOrMany(1, "it was", "all were"); got != "it was" {
		t.Errorf("OneOrMany(1) = %q", got)
	}
	if got := OneOrMany(2.0, " busy slot", " busy slots"); got != " busy slots" {
		t.Errorf("OneOrMany(2.0) = %q", got)
	}
}
