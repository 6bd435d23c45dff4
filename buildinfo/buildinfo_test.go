package buildinfo

import "testing"

func TestShort(t *testing.T) {
	for _, c := range []struct {
		info Info
		want string
	}{
		{Info{Version: "v1.4.0", Commit: "2a8f072d1c3e4b5a6978", Go: "go1.26.0"}, "v1.4.0"},
		{Info{Version: "(devel)", Commit: "2a8f072d1c3e4b5a6978-dirty"}, "(devel) 2a8f072d1c3e-dirty"},
		{Info{Commit: "2a8f07"}, "2a8f07"},
		{Info{Go: "go1.26.0"}, "unknown"},
	} {
		if got := c.info.Short(); got != c.want {
			t.Errorf("%+v: Short %q, want %q", c.info, got, c.want)
		}
	}
}

// A test binary has build information too: at least the Go release.
func TestReadKnowsTheGoRelease(t *testing.T) {
	if Read().Go == "" {
		t.Error("Read: no Go release")
	}
}
