package metrics

import (
	"encoding/json"

	"tpsrace/config"
)

// rooflineJSON is a Roofline as the bench JSON writes it (a provider's
// memory_roofline): limit_tps and share null where they mean nothing (the
// model fits in the cache, or the decode beat the limit, so the bandwidth
// it rests on was measured low), and the box it rests on inline, so that a
// document read back (watch's history) holds what the limit is made of.
type rooflineJSON struct {
	FitsInCache  bool     `json:"fits_in_cache"`
	BandwidthLow bool     `json:"bandwidth_measured_low"`
	LimitTPS     *float64 `json:"limit_tps"`
	Share        *float64 `json:"share"`
	config.Box
}

// MarshalJSON writes r in the JSON's units: limit_tps to 0.01 tok/s, share
// to 0.0001.
func (r Roofline) MarshalJSON() ([]byte, error) {
	j := rooflineJSON{FitsInCache: r.InCache, BandwidthLow: r.BandwidthLow, Box: r.Box}
	if !r.InCache && !r.BandwidthLow {
		limit, share := JSONSpeed(r.LimitTPS), JSONRound(r.Share, 1e4)
		j.LimitTPS, j.Share = &limit, &share
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote: the limit and share to the
// JSON's precision, 0 where it wrote null.
func (r *Roofline) UnmarshalJSON(b []byte) error {
	var j rooflineJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Roofline{InCache: j.FitsInCache, BandwidthLow: j.BandwidthLow, Box: j.Box}
	if j.LimitTPS != nil && j.Share != nil {
		r.LimitTPS, r.Share = *j.LimitTPS, *j.Share
	}
	return nil
}
