package recording_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"tpsrace/buildinfo"
	"tpsrace/recording"
)

// The header carries the build that recorded it (the one `tpsrace
// version` names), and reads back; a recording from before tool_version
// (the shipped demo) still loads and says its version was not recorded.
func TestHeaderCarriesTheToolVersion(t *testing.T) {
	data, _ := recorded(t)
	header, _, _ := strings.Cut(string(data), "\n")
	if !strings.Contains(header, `"tool_version":{"version":`) || !strings.Contains(header, `"go":"`+buildinfo.Read().Go+`"`) {
		t.Errorf("header: %s", header)
	}
	rec, err := recording.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if v := rec.Header.ToolVersion; v == nil || *v != buildinfo.Read() {
		t.Errorf("read back %+v, want %+v", v, buildinfo.Read())
	}
	if made := rec.Header.Made(); !strings.HasSuffix(made, " by tpsrace "+buildinfo.Read().Short()) || strings.Contains(made, "not recorded") {
		t.Errorf("Made %q", made)
	}

	// As written before tool_version existed (the shipped demo is such a file).
	before := regexp.MustCompile(`"tool_version":\{[^}]*\},`).ReplaceAllString(string(data), "")
	if before == string(data) {
		t.Fatal("no tool_version to take out")
	}
	old, err := recording.Read(strings.NewReader(before))
	if err != nil {
		t.Fatal(err)
	}
	if old.Header.ToolVersion != nil || len(old.Races) != len(rec.Races) {
		t.Errorf("old recording: tool_version %+v, %d races", old.Header.ToolVersion, len(old.Races))
	}
	if made := old.Header.Made(); made != "recorded "+rec.Header.RecordedAt.UTC().Format("2006-01-02 15:04")+" UTC by tpsrace (version not recorded)" {
		t.Errorf("old recording: Made %q", made)
	}
}
