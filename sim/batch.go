package sim

// Slowdown is the factor each gap of a stream is stretched by (ttft
// included) while n streams of its model name run at once: a batching
// server's decode step. Up to Batch streams (all of them when Batch is 0)
// decode together, each step slower by Contention per extra stream in the
// batch (a GPU's step reads the weights once and every stream's KV cache);
// past Batch the slots are shared fairly, so each of n streams decodes
// Batch/n of the time:
//
//	b        = min(n, Batch)                (n when Batch is 0)
//	slowdown = (1 + Contention·(b−1)) · max(1, n/Batch)
//
// "tps=100,batch=8" is 8 full-speed decode slots: each user gets 100 tok/s
// up to 8 users and 100 × 8/n past them, the aggregate 100·n then 800.
func (s Schedule) Slowdown(n int) float64 {
	n = max(n, 1)
	b := n
	if s.Batch > 0 {
		b = min(n, s.Batch)
	}
	f := 1 + s.Contention*float64(b-1)
	if s.Batch > 0 && n > s.Batch {
		f *= float64(n) / float64(s.Batch)
	}
	return f
}

// PerUserTPS is each stream's output speed when n streams of this model
// name run from start to end together: TPS ÷ Slowdown(n) (without jitter).
func (s Schedule) PerUserTPS(n int) float64 { return s.TPS / s.Slowdown(n) }

// AggregateTPS is the n streams' output speed together: n × PerUserTPS(n).
func (s Schedule) AggregateTPS(n int) float64 { return float64(max(n, 1)) * s.PerUserTPS(n) }
