package sim

import (
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// statusErrors are the status faults' bodies, worded like OpenAI's.
var statusErrors = map[string]apiError{
	"401": {Message: "Incorrect API key provided (simulated).", Type: "invalid_request_error", Code: "invalid_api_key"},
	"403": {Message: "You are not allowed to use this model (simulated).", Type: "invalid_request_error", Code: "permission_denied"},
	"404": {Message: "The model does not exist or you do not have access to it (simulated).", Type: "invalid_request_error", Code: "model_not_found"},
	"429": {Message: "Rate limit reached for requests (simulated).", Type: "requests", Code: "rate_limit_exceeded"},
	"500": {Message: "The server had an error while processing your request (simulated).", Type: "server_error"},
	"503": {Message: "The server is overloaded or not ready yet (simulated).", Type: "server_error", Code: "service_unavailable"},
}

// badGatewayPage is what a proxy in front of a dead upstream answers.
const badGatewayPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx (simulated)</center>\r\n</body>\r\n</html>\r\n"

func writeStatusFault(w http.ResponseWriter, r *http.Request, s Schedule) {
	if e, ok := errorBodies[s.Fault]; ok {
		e.write(w)
		return
	}
	switch s.Fault {
	case FaultHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, badGatewayPage)
	case FaultEcho:
		// A hostile server: whatever the client sent comes back in the error,
		// for tests that the client never shows it.
		var sent []string
		for _, name := range slices.Sorted(maps.Keys(r.Header)) {
			sent = append(sent, name+": "+strings.Join(r.Header[name], ", "))
		}
		writeError(w, http.StatusUnauthorized, apiError{
			Message: "Simulated hostile server. You sent: " + strings.Join(sent, "; "),
			Type:    "invalid_request_error", Code: "invalid_api_key",
		})
	default:
		if s.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(s.RetryAfter))
		}
		status, _ := strconv.Atoi(s.Fault)
		writeError(w, status, statusErrors[s.Fault])
	}
}
