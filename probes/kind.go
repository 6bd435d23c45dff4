package probes

import "errors"

// KindUnknown is the kind of an error that is not a Failure.
const KindUnknown = "unknown"

// KindOf is err's failure kind (one of the Kind constants), KindUnknown for
// an error that is not a Failure. Exports group failures by it: a bounded
// set, unlike the messages.
func KindOf(err error) string {
	if f, ok := errors.AsType[*Failure](err); ok {
		return f.Kind
	}
	return KindUnknown
}

// Kinds lists every failure kind a probe gives, in the order a stream can
// fail, for exports with one column per kind (KindTruncated is a replay's).
var Kinds = []string{KindNetwork, KindHTTP, KindProtocol, KindStream, KindTimeout, KindCancelled, KindUnknown}
