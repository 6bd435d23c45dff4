package config

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

func (p *parser) providers(n *yaml.Node, defaults Timeouts) (providers []Provider, skipped []Notice) {
	if !present(n) {
		return nil, nil
	}
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		hint := `start each provider with "- name:"`
		if n.Kind == yaml.MappingNode && len(n.Content) > 0 && strings.HasPrefix(n.Content[0].Value, "-") {
			hint = `put a space after the dash of a list item: "- name:"`
		}
		p.fail(n, "providers", "expected a list of providers, got "+describe(n), hint)
		return nil, nil
	}
	firstLine := map[string]int{} // provider name -> line of the entry that has it
	for i, entry := range n.Content {
		pr, notice := p.provider(resolve(entry), fmt.Sprintf("providers[%d]", i), defaults, firstLine)
		if notice != nil {
			skipped = append(skipped, *notice)
		} else {
			providers = append(providers, pr)
		}
	}
	return providers, skipped
}

// entry is one providers entry being read: its node, its path for messages
// ("providers[2]") and its fields by key.
type entry struct {
	node   *yaml.Node
	path   string
	fields map[string]field
}

func (e entry) key(name string) string { return join(e.path, name) }

// provider reads one providers entry: the keys every kind shares, then those
// of its kind. It returns a Notice instead when the entry uses an unset variable.
func (p *parser) provider(n *yaml.Node, path string, defaults Timeouts, firstLine map[string]int) (Provider, *Notice) {
	pr := Provider{Kind: KindOpenAI, Where: p.where(n)}
	if n.Kind != yaml.MappingNode {
		p.fail(n, path, "expected a provider (name:, base_url:, model:...), got "+describe(n), "")
		return pr, nil
	}
	p.unset = nil
	e := entry{node: n, path: path, fields: p.mapping(n, path, &providerLevel)}
	f := e.fields

	pr.Name = p.name(e, firstLine)
	kindKnown := p.kind(e, &pr)

	baseNode := f["base_url"].value
	if baseNode != nil {
		if x, ok := p.required(baseNode, path, "base_url", baseURLHint); ok {
			pr.BaseURL = p.baseURL(baseNode, e.key("base_url"), x.value)
		}
	}

	if v := f["api_key"].value; v != nil {
		x, ok := p.required(v, path, "api_key", "leave it out for a server that needs no key")
		if len(x.refs) > 0 {
			pr.KeyVar = x.refs[0]
		}
		if ok {
			pr.APIKey = Secret(x.value)
			if len(x.refs) == 0 {
				p.warnLiteralKey(v, e.key("api_key"), pr.Name)
			}
		}
	}

	model, modelOK := expansion{}, false
	if v := f["model"].value; v != nil {
		model, modelOK = p.required(v, path, "model", "give the model id, or for kind llamacpp a GGUF file")
	}

	if v := f["price"].value; present(v) {
		pf := p.mapping(v, e.key("price"), &priceLevel)
		pr.Price = &Price{
			InputPerMTok:  p.price(pf["input_per_mtok"].value, e.key("price.input_per_mtok")),
			OutputPerMTok: p.price(pf["output_per_mtok"].value, e.key("price.output_per_mtok")),
		}
	}
	pr.Headers = p.headers(f["headers"].value, e.key("headers"))
	pr.Params = p.params(f["params"].value, e.key("params"))
	pr.Timeout = p.timeouts(f["timeout"].value, e.key("timeout")).Or(defaults)
	pr.SLO = p.slo(f["slo"].value, e.key("slo"))

	switch {
	case !kindKnown:
		// Which keys it needs depends on the kind.
	case pr.Kind == KindOpenAI:
		p.openAI(e, &pr, model)
	case baseNode != nil:
		p.attachedLlamaCpp(e, &pr, model)
	default:
		p.spawnedLlamaCpp(e, &pr, model, modelOK)
	}

	if len(p.unset) > 0 {
		name := cmp.Or(pr.Name, path)
		return pr, &Notice{Provider: name, Where: pr.Where, Reason: notSet(p.unset)}
	}
	return pr, nil
}

// name reads the entry's name, which must be unique in the file.
func (p *parser) name(e entry, firstLine map[string]int) string {
	v := e.fields["name"].value
	if v == nil {
		p.fail(e.node, e.path, "missing name", "add name: a short label for the dashboard")
		return ""
	}
	x, ok := p.required(v, e.path, "name", "give it a short label for the dashboard")
	if !ok {
		return x.value
	}
	if line, taken := firstLine[x.value]; taken {
		p.fail(v, e.key("name"), fmt.Sprintf("duplicate provider name %s (first at line %d)", quote(resolve(v).Value), line), "give each provider its own name")
	} else {
		firstLine[x.value] = e.node.Line
	}
	return x.value
}

// kind reads the entry's kind into pr; false when it is not one tpsrace knows.
func (p *parser) kind(e entry, pr *Provider) bool {
	v := e.fields["kind"].value
	if v == nil {
		return true
	}
	x, ok := p.required(v, e.path, "kind", "leave it out for openai")
	switch {
	case !ok:
		return false
	case slices.Contains(kinds, x.value):
		pr.Kind = x.value
		return true
	}
	hint := "use openai (any OpenAI-compatible API, Ollama and vLLM included) or llamacpp"
	if s := Closest(x.value, kinds); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	p.fail(v, e.key("kind"), "unknown kind "+quote(resolve(v).Value), hint)
	return false
}

// openAI: an OpenAI-compatible API needs base_url and model.
func (p *parser) openAI(e entry, pr *Provider, model expansion) {
	if e.fields["base_url"].value == nil {
		p.fail(e.node, e.path, "missing base_url", "add base_url: "+baseURLHint)
	}
	if e.fields["model"].value == nil {
		p.fail(e.node, e.path, "missing model", "add model: the model id the API expects")
	}
	pr.Model = model.value
	p.spawnOnly(e.fields, e.path, "applies only to kind: llamacpp", "remove it")
}

// attachedLlamaCpp: a llama-server already running at base_url; model is optional.
func (p *parser) attachedLlamaCpp(e entry, pr *Provider, model expansion) {
	pr.Model = "default"
	if e.fields["model"].value != nil {
		pr.Model = model.value
	}
	p.spawnOnly(e.fields, e.path, "applies only when tpsrace starts llama-server (no base_url)", "remove it, or remove base_url to have tpsrace start llama-server")
}

// spawnedLlamaCpp: tpsrace starts llama-server on the GGUF file model names.
func (p *parser) spawnedLlamaCpp(e entry, pr *Provider, model expansion, modelOK bool) {
	modelNode := e.fields["model"].value
	if modelNode == nil {
		p.fail(e.node, e.path, "missing model", "give a GGUF file (model: ~/models/name.gguf) to start llama-server, or the base_url of a running one")
	} else if modelOK {
		pr.ModelPath = p.localPath(modelNode, e.key("model"), model.value)
		pr.Model = strings.TrimSuffix(filepath.Base(pr.ModelPath), ".gguf")
	}
	pr.Server = "llama-server"
	if v := e.fields["server"].value; v != nil {
		if x, ok := p.required(v, e.path, "server", "leave it out for llama-server from PATH"); ok {
			pr.Server = x.value
			if strings.ContainsAny(x.value, "/~"+string(filepath.Separator)) {
				pr.Server = p.localPath(v, e.key("server"), x.value)
			}
		}
	}
	pr.Args = p.stringList(e.fields["args"].value, e.key("args"))
}

// spawnOnly reports server and args in an entry where tpsrace does not start llama-server.
func (p *parser) spawnOnly(f map[string]field, path, msg, hint string) {
	for _, name := range []string{"server", "args"} {
		if k := f[name].key; k != nil {
			p.fail(k, join(path, name), name+" "+msg, hint)
		}
	}
}

func (p *parser) warnLiteralKey(n *yaml.Node, key, provider string) {
	w := p.where(n) + ": " + key + ": API key written in the file"
	if p.readable != 0 {
		w += fmt.Sprintf(" and the file is readable by other users (mode %04o): chmod 600 %s, or", uint32(p.readable), p.file)
	} else {
		w += ";"
	}
	w += fmt.Sprintf(" keep it in the environment and write api_key: ${%s}", envName(provider))
	p.warnings = append(p.warnings, w)
}
