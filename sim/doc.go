// Package sim is a real OpenAI-compatible HTTP server that streams
// deterministic text on an exact schedule. It is the built-in race for demos
// (no API keys needed) and the ground truth for tests that measure streams:
// whatever the client measures can be compared with what the schedule says.
//
// # Model names
//
// The request's model name selects the schedule:
//
//	model   = "sim:" [ item { "," item } ]
//	item    = PROFILE | key "=" value      (a PROFILE only as the first item)
//
// A profile (wafer, lpu, gpu, laptop) sets several keys at once; keys after
// it override them. A key may be given only once. The profiles prefill at
// 40,000, 20,000, 8,000 and 3,000 tok/s, and cache prompts of 1,024 tokens
// or more (prefixcache=1024; the laptop reports it as llama-server's
// timings, cache_n). Keys and defaults:
//
//	ttft=200ms          receipt to the first text event (Go duration)
//	tps=100             tokens per second after the first event
//	tokens=256          natural answer length; the request's max_tokens caps
//	                    reasoning+answer, and then finish_reason is "length"
//	chunk=1             tokens per text event
//	jitter=0            0..1: each gap × (1 + jitter·u), u uniform in [-1,1), seeded
//	seed=0              jitter seed
//	reasoning=0         reasoning tokens sent before the answer (counted like answer tokens)
//	rfield=reasoning_content   reasoning_content | reasoning | think (inline <think>…</think>
//	                    in content; the tags are not tokens and are not counted in usage)
//	                    | hidden (thought silently: the reasoning tokens are on the clock
//	                    at tps, no event carries them, usage counts them as
//	                    completion_tokens_details.reasoning_tokens)
//	usage=final         final: a trailing "choices":[] chunk, only when the request
//	                    asks stream_options.include_usage (as OpenAI does);
//	                    finish: on the finish chunk; xgroq: x_groq.usage and usage on the
//	                    finish chunk; cumulative: on every chunk, growing; none
//	keepalive=0         ": keep-alive" comment after this much silence (0 = never)
//	timings=0           1: llama.cpp "timings" on the last chunk, from what was really sent
//	nospace=0           1: "data:{...}" without the space
//	gzip=0              1: Content-Encoding: gzip (as a proxy that compresses event
//	                    streams sends it, though asked for none), flushed with each event
//	buffered=0          1: held back whole and sent at once when the answer ends, as a
//	                    proxy that buffers responses sends it (its speed is not measurable)
//	framing=lf          how events are framed, parts joined by +: lf | crlf | cr line
//	                    ends; bom (a byte order mark first); split (each event's JSON
//	                    over several data: lines, cut after commas outside strings);
//	                    fields (id:, retry: and comments around the data lines); noend
//	                    (no blank line after the last event). The WHATWG rules allow
//	                    all of them; a client must read each the same
//	done=1              0: end at EOF without "data: [DONE]"
//	role=1              0: no role-only first chunk (by default sent at once, t=0)
//	excl_reasoning=0    1: usage.completion_tokens leaves reasoning out (total_tokens keeps it)
//	cached=0            prompt tokens reported as served from the provider's cache
//	                    (at most the prompt): usage.prompt_tokens_details.cached_tokens,
//	                    and with timings=1 timings.cache_n (prompt_n the rest)
//	served=             the model name the response gives (default: the one asked for)
//	fingerprint=tpsrace-sim  the response's system_fingerprint
//	route=              OpenRouter's "provider" field on every chunk (default: none)
//	pause=DUR@K         text event K (K >= 1; the first event is 0) comes DUR after
//	                    event K−1 instead of at its usual gap; later events keep
//	                    their rhythm, moved by the difference (a planned stall)
//	contention=0        per-stream slowdown: each gap × (1 + contention·(b−1)), b = streams
//	                    of this exact model name decoding together at that moment
//	batch=0             decode slots: up to batch streams decode together (b = min(n, batch));
//	                    past them the slots are shared, each gap × n/batch more
//	                    (Schedule.Slowdown); 0 = every running stream decodes together
//	fault=...           see Faults; after=N tokens first; retry_after=SECONDS (status faults)
//	prefill=0           prompt tokens per second: the first event comes prompt_tokens ÷
//	                    prefill later (0: the prompt costs nothing), for long-context
//	                    races; cached tokens are not prefilled again. The prefill is
//	                    exact: jitter and contention stretch ttft, not it. With
//	                    timings=1 it is llama-server's prompt phase: prompt_ms is the
//	                    prefill's time and prompt_per_second is prefill
//	prefixcache=0       N >= 1: a prefix cache for prompts of at least N tokens: such a
//	                    prompt this model name was sent before is cached whole (reported
//	                    as cached= is, its prefill skipped); 0: none
//	tool=split          the shape of the answer when the request offers a function
//	                    (tools, tool_choice not "none"): split (OpenAI: the opening with
//	                    id, name and arguments "", then the arguments in fragments of about
//	                    a token, chunk fragments an event), whole (Ollama: the whole call in
//	                    one chunk), noindex (Gemini: whole, without an index), index1
//	                    (Anthropic's layer: split, the index counting from 1), emptyargs
//	                    (the opening without arguments, then an arguments "" delta, then
//	                    the fragments), parallel (two calls one after the other, indexes
//	                    0 and 1), text (ignore the tools: a text answer). Reasoning, when
//	                    asked, streams first. The arguments are an instance of the first
//	                    function's schema, every string "Paris" (the second call's
//	                    "Tokyo"); each event is on the clock as text is, n being its
//	                    o200k tokens (the opening: the name's), and finish_reason is
//	                    "tool_calls". max_tokens does not cut a call. A request with
//	                    response_format json_schema (and no tools) is answered with an
//	                    instance of its schema, in the same fragments, as content;
//	                    json_object (JSON mode, no schema) with {"answer": "..."}, the
//	                    simulated text, as many tokens as the text answer would have
//	                    been (its punctuation included; max_tokens shortens the text,
//	                    the object stays whole), a word with its space per fragment.
//
// # Exact timing rule
//
// Offsets count from the request's receipt: the moment its body has been read
// and (with Options.Slots) a slot acquired; the response headers and the role
// chunk go out then. With T = reasoning+answer tokens to send and chunk c,
// text event k (0-based) carries tokens [k·c, min((k+1)·c, T)) and is written
// at
//
//	offset(0) = ttft
//	offset(k) = ttft + (tokens in events 1..k) / tps
//
// which is ttft + k·c/tps for full chunks; a shorter last event comes as
// soon as its own tokens are due. So the measured output speed, (tokens after
// the first event) / (last event − first event), is exactly tps. With jitter
// or contention each gap (ttft included) is stretched as described above.
// Deadlines are absolute, so lateness never accumulates, and events are
// flushed before every wait (events already due go out together). The finish
// chunk, usage and [DONE] follow the last text event at once; with no text to
// send they come at ttft. Schedule.EventOffsets returns these offsets.
//
// The text is a fixed passage of common lowercase words, each exactly one
// o200k token with its leading space, so usage.completion_tokens equals the
// o200k count of the streamed text (reasoning included). prompt_tokens is the
// o200k count of all message contents concatenated without separators.
//
// # Faults
//
// fault=401|403|404|429|500|503 answer that status with an OpenAI-style error
// JSON, before any stream (retry_after adds a Retry-After header). html: 502
// with an HTML page. echo: 401 whose message echoes every request header,
// Authorization included (a hostile server, for secret-leak tests).
// body-string|body-nomessage|body-toplevel|body-detail|body-detail-list|
// body-array|body-errors|body-text|body-empty answer an error status with a
// body in the shape a real provider or proxy sends it (errorbody.go);
// body-200 an error JSON with 200 (a gateway's), body-whole the whole answer
// in one JSON with 200 (a server that ignores "stream": true);
// body-hostile sends terminal escape sequences in its message,
// body-formula a spreadsheet formula and body-markup HTML and Markdown
// markup (a script, a javascript: link, an image, pipes, a newline).
//
// The others act inside a 200 stream, after=N tokens (default 0) first:
// error (llama-server style "data: {"error":...}", then the body ends), event-error
// (Groq style "event: error"), close (the connection is dropped; over HTTP/2 the stream is reset), stall (nothing
// more, held open; keep-alives continue if asked), endless (text at tps forever),
// badjson (one malformed event once N tokens are sent, then the stream goes on),
// bigchunk (one extra event of more than 1 MiB of text once N tokens are sent),
// nobody (200 and SSE headers, then nothing, held open). badjson and bigchunk
// add their event at the instant of the next text event (or of the end); it
// is not in EventOffsets. A tool-call or JSON answer meets them too (but
// endless, which is text); its events are not split, so a fault that cuts
// the stream does so before the event that would pass N. Stream faults
// need "stream": true. Every held
// request ends when the client leaves or the server closes.
//
// # llama-server emulation
//
// GET /health answers 503 "Loading model" for Options.LoadTime (chat requests
// too), then {"status":"ok"}; GET /props and GET /metrics (Prometheus text,
// llamacpp:* counters of what was really served) mirror llama-server.
package sim
