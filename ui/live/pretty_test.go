package live

import (
	"strings"
	"testing"
)

// The arguments come out indented however the stream cut them, strings
// (commas, braces, escaped quotes inside) untouched.
func TestPrettyJSONStreams(t *testing.T) {
	const in = "```json\n" + `{"city": "Paris, \"FR\" {x}", "days":[1,2], "none": {}, "unit":"celsius"}` + "\n```"
	const want = "```json\n{\n  \"city\": \"Paris, \\\"FR\\\" {x}\",\n  \"days\": [\n    1,\n    2\n  ],\n  \"none\": {},\n  \"unit\": \"celsius\"\n}\n```"
	for cut := 1; cut <= len(in); cut++ {
		var p prettyJSON
		var sb strings.Builder
		for k := 0; k < len(in); k += cut {
			p.write(&sb, in[k:min(k+cut, len(in))])
		}
		if got := strings.ReplaceAll(sb.String(), indentUnit, "  "); got != want {
			t.Fatalf("in fragments of %d bytes:\n%s\nwant\n%s", cut, got, want)
		}
	}
}
