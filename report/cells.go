package report

import (
	"time"

	"tpsrace/ui/format"
)

// duration and speed are written as on the dashboard (ui/format): "850ms",
// "1.24s"; "1,820", "25.3"; "-" when undefined.
func duration(ms *float64) string {
	if ms == nil {
		return "-"
	}
	return format.Duration(time.Duration(*ms * float64(time.Millisecond)))
}

func speed(v *float64) string {
	if v == nil {
		return "-"
	}
	return format.TPS(*v)
}
