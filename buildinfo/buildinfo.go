// Package buildinfo says which tpsrace this is, from the build information
// Go embeds in every binary: `tpsrace version` prints it and recordings
// carry it in their header, so a replay can say which build measured the
// race.
//
//	info := buildinfo.Read()
//	fmt.Println(info.Short()) // "v1.4.0", or "(devel) 2a8f072d1c3e-dirty"
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Info is what the build information says. Fields are "" where it says
// nothing (a test binary has no module version and no VCS stamp).
type Info struct {
	Version string `json:"version"` // the module version: a tag, a pseudo-version or "(devel)"
	Commit  string `json:"commit"`  // the VCS revision, "-dirty" when built with uncommitted changes
	Go      string `json:"go"`      // the Go release it was built with
}

// Read is this binary's Info.
func Read() Info {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}
	}
	i := Info{Version: info.Main.Version, Go: info.GoVersion}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		i.Commit = rev
		if settings["vcs.modified"] == "true" {
			i.Commit += "-dirty"
		}
	}
	return i
}

// Short is Info in a few words: the version, with the commit (12 hex
// digits) when the version alone does not name the build (a development
// build); "unknown" when nothing is known.
func (i Info) Short() string {
	var parts []string
	if i.Version != "" {
		parts = append(parts, i.Version)
	}
	if i.Commit != "" && (i.Version == "" || i.Version == "(devel)") {
		rev, dirty := strings.CutSuffix(i.Commit, "-dirty")
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "-dirty"
		}
		parts = append(parts, rev)
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, " ")
}
