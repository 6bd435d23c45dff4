package ui

import (
	"slices"
	"sync"
	"time"
)

// ReplayClock is a replay's race time: it runs at speed from pos (the race
// time at anchor) unless paused. The source reads it from its goroutine,
// the keys set it from the program's. It reads the time of day from wall,
// which tests replace with a clock they step.
type ReplayClock struct {
	mu     sync.Mutex
	wall   func() time.Time
	pos    time.Duration
	anchor time.Time
	speed  float64
	paused bool
}

// NewReplayClock is a clock at race time 0, running at 1× on wall
// (time.Now when nil).
func NewReplayClock(wall func() time.Time) *ReplayClock {
	if wall == nil {
		wall = time.Now
	}
	return &ReplayClock{wall: wall, anchor: wall(), speed: 1}
}

// replaySpeeds are what `+` and `-` step through.
var replaySpeeds = []float64{0.1, 0.25, 0.5, 1, 2, 4, 10}

// Now is the race time.
func (c *ReplayClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at(c.wall())
}

func (c *ReplayClock) at(t time.Time) time.Duration {
	if c.paused {
		return c.pos
	}
	return c.pos + time.Duration(float64(t.Sub(c.anchor))*c.speed)
}

// change rebases the clock at the present instant, then applies f.
func (c *ReplayClock) change(f func(c *ReplayClock)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.wall()
	c.pos, c.anchor = c.at(now), now
	f(c)
}

func (c *ReplayClock) jump(to time.Duration) { c.change(func(c *ReplayClock) { c.pos = max(to, 0) }) }
func (c *ReplayClock) togglePause()          { c.change(func(c *ReplayClock) { c.paused = !c.paused }) }

// faster steps the speed up (by > 0) or down through replaySpeeds.
func (c *ReplayClock) faster(by int) {
	c.change(func(c *ReplayClock) {
		i := slices.Index(replaySpeeds, c.speed)
		c.speed = replaySpeeds[min(max(i+by, 0), len(replaySpeeds)-1)]
	})
}

func (c *ReplayClock) state() (speed float64, paused bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speed, c.paused
}
