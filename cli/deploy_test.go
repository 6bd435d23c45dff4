package cli

import (
	"io"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The command lines in deploy/ are ones `tpsrace watch` (and, for the race
// Job, `tpsrace bench`) accepts.
func TestDeployFilesUseRealWatchFlags(t *testing.T) {
	raw, err := os.ReadFile("../deploy/kubernetes/tpsrace-watch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var deployment struct {
		Kind string
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct{ Args []string }
				}
			}
		}
	}
	if err := yaml.NewDecoder(strings.NewReader(string(raw))).Decode(&deployment); err != nil || deployment.Kind != "Deployment" {
		t.Fatalf("the manifest's first document: kind %q, %v; want a Deployment", deployment.Kind, err)
	}
	lines := map[string][]string{"kubernetes": deployment.Spec.Template.Spec.Containers[0].Args}

	unit, err := os.ReadFile("../deploy/systemd/tpsrace-watch.service")
	if err != nil {
		t.Fatal(err)
	}
	_, exec, _ := strings.Cut(strings.ReplaceAll(string(unit), "\\\n", " "), "ExecStart=")
	exec, _, _ = strings.Cut(exec, "\n")
	lines["systemd"] = strings.Fields(exec)[1:]

	raw, err = os.ReadFile("../deploy/kubernetes/race-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct{ Args []string }
				}
			}
		}
	}
	if err := yaml.Unmarshal(raw, &job); err != nil || len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("race-job.yaml: %v", err)
	}
	if args := job.Spec.Template.Spec.Containers[0].Args; len(args) == 0 || args[0] != "bench" {
		t.Errorf("race-job.yaml runs %q, want tpsrace bench", args)
	} else {
		fs := (&benchCmd{}).flags()
		fs.SetOutput(io.Discard)
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
			t.Errorf("race-job.yaml: %v, arguments left %q, in %q", err, fs.Args(), args)
		}
	}

	for where, args := range lines {
		if len(args) == 0 || args[0] != "watch" {
			t.Errorf("%s: runs %q, want tpsrace watch", where, args)
			continue
		}
		fs := (&watchCmd{}).flags()
		fs.SetOutput(io.Discard)
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
			t.Errorf("%s: %v, arguments left %q, in %q", where, err, fs.Args(), args)
		}
	}
}
