package timesync

import (
	"encoding/json"
	"testing"
	"time"
)

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		s    State
		want string
	}{
		{State{Synchronised: true, EstError: 400 * time.Microsecond}, `{"synchronised":true,"est_error_ms":0.4}`},
		{State{Why: "STA_UNSYNC"}, `{"synchronised":false,"est_error_ms":null,"unsynchronised":"STA_UNSYNC"}`},
	} {
		b, _ := json.Marshal(tc.s)
		if string(b) != tc.want {
			t.Errorf("%s, want %s", b, tc.want)
		}
		var back State
		if err := json.Unmarshal(b, &back); err != nil || back != tc.s {
			t.Errorf("%s read back as %+v (%v)", b, back, err)
		}
	}
}
