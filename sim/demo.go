package sim

import "tpsrace/config"

// demoPrices are plausible list prices (USD per million tokens) for the
// class of hardware each profile models; the laptop's electricity is free.
var demoPrices = map[string]config.Price{
	"wafer":  {InputPerMTok: 0.85, OutputPerMTok: 1.20},
	"lpu":    {InputPerMTok: 0.59, OutputPerMTok: 0.79},
	"gpu":    {InputPerMTok: 0.88, OutputPerMTok: 0.88},
	"laptop": {InputPerMTok: 0, OutputPerMTok: 0},
}

// DemoProviders is the built-in simulated race, one provider per profile,
// fastest first, all served at baseURL (a Server's URL). Their names start
// with "sim-" and their models with "sim:", so they read as simulated
// wherever they are shown.
func DemoProviders(baseURL string) []config.Provider {
	var providers []config.Provider
	for _, profile := range []string{"wafer", "lpu", "gpu", "laptop"} {
		price := demoPrices[profile]
		providers = append(providers, config.Provider{
			Name:    "sim-" + profile,
			Kind:    config.KindOpenAI,
			BaseURL: baseURL,
			Model:   Prefix + profile,
			Price:   &price,
			Timeout: config.DefaultTimeouts,
			Where:   "built-in simulated race",
		})
	}
	return providers
}
