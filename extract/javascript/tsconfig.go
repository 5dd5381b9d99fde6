package javascript

import (
	"encoding/json"
	"path"
	"strings"
)

// tsconfig is the module resolution part of a tsconfig.json.
type tsconfig struct {
	dir     string // folder of the config file
	base    string // baseUrl (or the config folder), relative to the root
	hasBase bool
	paths   []pathAlias
}

type pathAlias struct {
	prefix, suffix string
	wildcard       bool
	targets        []string
}

func (p pathAlias) match(spec string) (string, bool) {
	if !p.wildcard {
		return "", spec == p.prefix
	}
	if len(spec) < len(p.prefix)+len(p.suffix) || !strings.HasPrefix(spec, p.prefix) || !strings.HasSuffix(spec, p.suffix) {
		return "", false
	}
	return spec[len(p.prefix) : len(spec)-len(p.suffix)], true
}

type rawTSConfig struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// config finds the tsconfig.json or jsconfig.json governing dir.
func (c *repoCache) config(dir string) *tsconfig {
	if c.repo == nil {
		return nil
	}
	return c.cfgOf.Get(dir, func() *tsconfig { return c.loadFor(dir) })
}

// loadFor reads the config governing dir: the nearest tsconfig.json at or
// above it, else the nearest jsconfig.json.
func (c *repoCache) loadFor(dir string) *tsconfig {
	cfgDir, data, ok := c.repo.FindUp(dir, "tsconfig.json")
	if !ok {
		cfgDir, data, ok = c.repo.FindUp(dir, "jsconfig.json")
	}
	if !ok {
		return nil
	}
	return c.cfgs.Get(cfgDir, func() *tsconfig {
		cfg := &tsconfig{dir: cfgDir, base: cfgDir}
		c.loadConfig(cfg, cfgDir, data, 0, true, true)
		return cfg
	})
}

// loadConfig fills cfg from one config file and the files it extends;
// settings nearer the starting file win.
func (c *repoCache) loadConfig(cfg *tsconfig, dir string, data []byte, depth int, wantBase, wantPaths bool) {
	var raw rawTSConfig
	if json.Unmarshal(cleanJSON(data), &raw) != nil {
		return
	}
	if wantBase && raw.CompilerOptions.BaseURL != nil {
		cfg.base, cfg.hasBase = path.Clean(path.Join(dir, *raw.CompilerOptions.BaseURL)), true
		wantBase = false
	}
	if wantPaths && len(raw.CompilerOptions.Paths) > 0 {
		base := dir
		if raw.CompilerOptions.BaseURL != nil {
			base = path.Join(dir, *raw.CompilerOptions.BaseURL)
		} else if cfg.hasBase {
			base = cfg.base
		}
		for k, ts := range raw.CompilerOptions.Paths {
			p := pathAlias{targets: make([]string, 0, len(ts))}
			if i := strings.IndexByte(k, '*'); i >= 0 {
				p.prefix, p.suffix, p.wildcard = k[:i], k[i+1:], true
			} else {
				p.prefix = k
			}
			for _, t := range ts {
				p.targets = append(p.targets, path.Join(base, t))
			}
			cfg.paths = append(cfg.paths, p)
		}
		// Longest prefix first, as TypeScript matches.
		for i := 1; i < len(cfg.paths); i++ {
			for j := i; j > 0 && len(cfg.paths[j].prefix) > len(cfg.paths[j-1].prefix); j-- {
				cfg.paths[j], cfg.paths[j-1] = cfg.paths[j-1], cfg.paths[j]
			}
		}
		wantPaths = false
	}
	if (wantBase || wantPaths) && depth < 3 && len(raw.Extends) > 0 {
		var ext string
		if json.Unmarshal(raw.Extends, &ext) == nil && isRelative(ext) {
			p := path.Join(dir, ext)
			if !strings.HasSuffix(p, ".json") {
				p += ".json"
			}
			if b, err := c.repo.ReadMeta(p); err == nil {
				c.loadConfig(cfg, path.Dir(p), b, depth+1, wantBase, wantPaths)
			}
		}
	}
}

// cleanJSON removes comments and trailing commas (tsconfig files are JSONC).
func cleanJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		ch := b[i]
		if inStr {
			out = append(out, ch)
			if ch == '\\' && i+1 < len(b) {
				out = append(out, b[i+1])
				i++
			} else if ch == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case ch == '"':
			inStr = true
			out = append(out, ch)
		case ch == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case ch == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case ch == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, ch)
		default:
			out = append(out, ch)
		}
	}
	return out
}
