package javascript

import (
	"encoding/json"
	"path"
	"strings"
)

// workspace is a package of a monorepo: its name and folder.
type workspace struct {
	name, dir string
	entries   []string // package.json source/types/module/main, in that order
}

// workspaces reads (once) the packages a monorepo declares: package.json
// "workspaces", pnpm-workspace.yaml, lerna.json.
func (c *repoCache) workspaces() []workspace {
	c.wsOnce.Do(func() {
		if c.repo == nil {
			return
		}
		var globs []string
		if b, err := c.repo.ReadMeta("package.json"); err == nil {
			var pj struct {
				Workspaces json.RawMessage `json:"workspaces"`
			}
			if json.Unmarshal(b, &pj) == nil && len(pj.Workspaces) > 0 {
				var list []string
				var obj struct {
					Packages []string `json:"packages"`
				}
				if json.Unmarshal(pj.Workspaces, &list) == nil {
					globs = append(globs, list...)
				} else if json.Unmarshal(pj.Workspaces, &obj) == nil {
					globs = append(globs, obj.Packages...)
				}
			}
		}
		if b, err := c.repo.ReadMeta("lerna.json"); err == nil {
			var lj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(cleanJSON(b), &lj) == nil {
				globs = append(globs, lj.Packages...)
			}
		}
		if b, err := c.repo.ReadMeta("pnpm-workspace.yaml"); err == nil {
			in := false
			for _, line := range strings.Split(string(b), "\n") {
				t := strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(line, "packages:"):
					in = true
				case in && strings.HasPrefix(t, "- "):
					globs = append(globs, strings.Trim(strings.TrimSpace(t[2:]), `"'`))
				case in && t != "" && !strings.HasPrefix(t, "#"):
					in = false
				}
			}
		}
		seen := map[string]bool{}
		for _, g := range globs {
			if strings.HasPrefix(g, "!") {
				continue
			}
			for _, d := range c.expand(strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")) {
				if seen[d] {
					continue
				}
				seen[d] = true
				if ws, ok := c.readPackage(d); ok {
					c.ws = append(c.ws, ws)
				}
			}
		}
		// Longest name first, so "@a/b-c" wins over "@a/b".
		for i := 1; i < len(c.ws); i++ {
			for j := i; j > 0 && len(c.ws[j].name) > len(c.ws[j-1].name); j-- {
				c.ws[j], c.ws[j-1] = c.ws[j-1], c.ws[j]
			}
		}
	})
	return c.ws
}

// expand lists the folders a workspace glob names ("packages/*",
// "apps/**", "tools/cli").
func (c *repoCache) expand(g string) []string {
	star := strings.IndexByte(g, '*')
	if star < 0 {
		return []string{g}
	}
	base := strings.TrimSuffix(g[:star], "/")
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		for name, isDir := range c.list(dir) {
			if !isDir || name == "node_modules" || strings.HasPrefix(name, ".") {
				continue
			}
			sub := path.Join(dir, name)
			out = append(out, sub)
			if strings.Contains(g, "**") && depth < 3 {
				walk(sub, depth+1)
			}
		}
	}
	walk(base, 0)
	return out
}

func (c *repoCache) readPackage(dir string) (workspace, bool) {
	b, err := c.repo.ReadMeta(path.Join(dir, "package.json"))
	if err != nil {
		return workspace{}, false
	}
	var pj struct {
		Name    string `json:"name"`
		Source  string `json:"source"`
		Types   string `json:"types"`
		Typings string `json:"typings"`
		Module  string `json:"module"`
		Main    string `json:"main"`
	}
	if json.Unmarshal(b, &pj) != nil || pj.Name == "" {
		return workspace{}, false
	}
	ws := workspace{name: pj.Name, dir: dir}
	for _, e := range []string{pj.Source, pj.Types, pj.Typings, pj.Module, pj.Main} {
		if e != "" {
			ws.entries = append(ws.entries, e)
		}
	}
	return ws, true
}

// workspaceFile resolves a bare specifier naming a package of the
// repository's own monorepo ("@acme/core", "@acme/core/utils") to a file.
func (c *repoCache) workspaceFile(spec string) (string, bool) {
	for _, ws := range c.workspaces() {
		if spec != ws.name && !strings.HasPrefix(spec, ws.name+"/") {
			continue
		}
		rest := strings.TrimPrefix(spec[len(ws.name):], "/")
		if rest != "" {
			for _, d := range []string{ws.dir, ws.dir + "/src"} {
				if f, ok := c.findFile(path.Join(d, rest)); ok {
					return f, true
				}
			}
			return "", false
		}
		for _, e := range ws.entries {
			if f, ok := c.findFile(path.Join(ws.dir, e)); ok {
				return f, true
			}
			// Built output is not in the repository: its sources are.
			e = strings.TrimPrefix(e, "./")
			for _, out := range []string{"dist/", "lib/", "build/", "esm/", "cjs/", "out/"} {
				if rest, ok := strings.CutPrefix(e, out); ok {
					rest = strings.TrimSuffix(strings.TrimSuffix(rest, ".d.ts"), path.Ext(rest))
					if f, ok := c.findFile(path.Join(ws.dir, "src", rest)); ok {
						return f, true
					}
				}
			}
		}
		for _, d := range []string{ws.dir + "/src/index", ws.dir + "/index", ws.dir + "/src"} {
			if f, ok := c.findFile(d); ok {
				return f, true
			}
		}
		return "", false
	}
	return "", false
}
