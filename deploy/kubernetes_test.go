package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// kinds are the Kubernetes types deploy/kubernetes may hold, by apiVersion and kind.
var kinds = map[string]func() any{
	"apps/v1 Deployment": func() any { return &appsv1.Deployment{} },
	"v1 Service":         func() any { return &corev1.Service{} },
	"batch/v1 Job":       func() any { return &batchv1.Job{} },
}

// documents splits a YAML stream at its "---" lines.
func documents(raw []byte) [][]byte {
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(raw), -1) {
		if len(bytes.TrimSpace([]byte(d))) > 0 {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

// Every manifest decodes strictly into the Kubernetes API types: an unknown
// field (a typo), a duplicate key or a value of the wrong type fails, as the
// API server would refuse it, so a typo cannot ship.
func TestKubernetesManifestsDecodeStrictly(t *testing.T) {
	files, _ := filepath.Glob("kubernetes/*.yaml")
	if len(files) < 2 {
		t.Fatalf("manifests: %v", files)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range documents(raw) {
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal(doc, &head); err != nil {
				t.Errorf("%s document %d: %v", f, i+1, err)
				continue
			}
			newObject, ok := kinds[head.APIVersion+" "+head.Kind]
			if !ok {
				t.Errorf("%s document %d: %s %s is not a kind this test knows: add its type", f, i+1, head.APIVersion, head.Kind)
				continue
			}
			if err := yaml.UnmarshalStrict(doc, newObject()); err != nil {
				t.Errorf("%s document %d (%s): %v", f, i+1, head.Kind, err)
			}
		}
	}
}

// The strict decoding catches a typo (the check of the test itself).
func TestStrictDecodingCatchesATypo(t *testing.T) {
	raw, err := os.ReadFile("kubernetes/race-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typo := bytes.Replace(raw, []byte("topologyKey:"), []byte("topologyKye:"), 1)
	if err := yaml.UnmarshalStrict(typo, &batchv1.Job{}); err == nil {
		t.Error("a misspelt field decoded without error")
	}
}

// The race Job is what docs/FLEET.md says: Indexed, never retried, its pods
// spread one per region.
func TestRaceJobSpreadsOnePodPerRegion(t *testing.T) {
	raw, err := os.ReadFile("kubernetes/race-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(raw, &job); err != nil {
		t.Fatal(err)
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.BackoffLimit == nil || *s.BackoffLimit != 0 ||
		*s.Completions != *s.Parallelism {
		t.Errorf("job spec: %+v; want Indexed, no retry, every pod at once", s)
	}
	spread := s.Template.Spec.TopologySpreadConstraints
	if len(spread) != 1 || spread[0].TopologyKey != "topology.kubernetes.io/region" || spread[0].MaxSkew != 1 ||
		spread[0].WhenUnsatisfiable != corev1.DoNotSchedule || spread[0].MinDomains == nil || *spread[0].MinDomains != *s.Completions ||
		spread[0].LabelSelector.MatchLabels["app.kubernetes.io/name"] != s.Template.Labels["app.kubernetes.io/name"] {
		t.Errorf("topology spread %+v: want one pod per region", spread)
	}
}
