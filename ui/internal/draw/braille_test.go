package draw

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
)

// The plot maps points and walks segments as ntcharts' braille grid does,
// dot for dot, so the chart looks as it did when it drew through it.
func TestBrailleDotsAreNtcharts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		w, h := 1+r.IntN(120), 1+r.IntN(20)
		g, ref := NewBraille(w, h), graph.NewBrailleGrid(w, h, 0, 1, 0, 1)
		p, q := Point{r.Float64(), r.Float64()}, Point{r.Float64(), r.Float64()}
		a, b := g.dot(p), g.dot(q)
		ra, rb := ref.GridPoint(canvas.Float64Point{X: p.X, Y: p.Y}), ref.GridPoint(canvas.Float64Point{X: q.X, Y: q.Y})
		if a != (dot{ra.X, ra.Y}) || b != (dot{rb.X, rb.Y}) {
			t.Fatalf("%d×%d: dots %v %v, ntcharts %v %v", w, h, a, b, ra, rb)
		}
		var want []dot
		for _, d := range graph.GetLinePoints(ra, rb) {
			want = append(want, dot{d.X, d.Y})
		}
		if got := segment(nil, a, b); !slices.Equal(got, want) {
			t.Fatalf("segment %v→%v: %v, ntcharts %v", a, b, got, want)
		}
	}
}

// A plot reset for another frame draws as a new one does, and a frame
// makes no garbage once the plot has its memory.
func TestBrailleReset(t *testing.T) {
	line := Line{Provider: 1, Points: []Point{{0, 0}, {0.3, 0.7}, {1, 0.9}}}
	paint := func(int) Paint { return Paint{} }
	fresh := NewBraille(40, 6)
	fresh.Line(line)
	reused := NewBraille(50, 8)
	reused.Line(Line{Provider: 2, Points: []Point{{0, 1}, {1, 0}}})
	reused.Mark(Point{0.5, 0.5}, 3)
	reused.Reset(40, 6)
	reused.Line(line)
	if got, want := reused.Rows(paint), fresh.Rows(paint); !slices.Equal(got, want) {
		t.Errorf("reset plot:\n%q\nnew plot:\n%q", got, want)
	}
	if allocs := testing.AllocsPerRun(10, func() { reused.Reset(40, 6); reused.Line(line) }); allocs != 0 {
		t.Errorf("a reused plot's frame allocates %v times, want 0", allocs)
	}
}
