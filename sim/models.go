package sim

import "net/http"

// modelObject is OpenAI's model object.
type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

func (h *handler) modelObject(id string) modelObject {
	return modelObject{ID: id, Object: "model", Created: h.started.Unix(), OwnedBy: "tpsrace-simulator"}
}

// models lists the profiles (GET /v1/models); any other valid "sim:..."
// schedule is served too, and GET /v1/models/{model} says so.
func (h *handler) models(w http.ResponseWriter, r *http.Request) {
	list := struct {
		Object string        `json:"object"`
		Data   []modelObject `json:"data"`
	}{Object: "list"}
	for _, p := range Profiles() {
		list.Data = append(list.Data, h.modelObject(Prefix+p))
	}
	writeJSON(w, http.StatusOK, list)
}

// model retrieves one model (GET /v1/models/{model}): any schedule the
// chat endpoint would accept, else OpenAI's 404 model_not_found.
func (h *handler) model(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("model")
	if _, err := ParseSchedule(id); err != nil {
		writeError(w, http.StatusNotFound, apiError{Message: err.Error(), Type: "invalid_request_error", Code: "model_not_found"})
		return
	}
	writeJSON(w, http.StatusOK, h.modelObject(id))
}
