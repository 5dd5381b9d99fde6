package javascript

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A monorepo's packages import each other by package name; the names
// resolve to the workspace folders' sources (not their built output).
func TestWorkspaces(t *testing.T) {
	for _, decl := range []map[string]string{
		{"package.json": `{"private": true, "workspaces": ["packages/*"]}`},
		{"package.json": `{"private": true}`, "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n"},
	} {
		root := t.TempDir()
		files := map[string]string{
			"packages/core/package.json":   `{"name": "@acme/core", "main": "dist/index.js"}`,
			"packages/core/src/index.ts":   "export { greet } from './greet'\n",
			"packages/core/src/greet.ts":   "export function greet(n: string) { return n }\n",
			"packages/core/src/util/id.ts": "export function newId() { return 1 }\n",
			"packages/app/package.json":    `{"name": "@acme/app"}`,
			"packages/app/src/main.ts": `import { greet } from "@acme/core";
import { newId } from "@acme/core/util/id";
import { render } from "react-dom";
export function main() { greet("x"); newId(); render(); }
`,
		}
		for k, v := range decl {
			files[k] = v
		}
		writeFiles(t, root, files)
		b := extracttest.BuildDir(t, root)
		b.Edge("packages.app.src.main.main", "packages.core.src.greet.greet", snapshot.EdgeCalls)
		b.Edge("packages.app.src.main.main", "packages.core.src.util.id.newId", snapshot.EdgeCalls)
		b.Edge("packages/app/src/main.ts", "packages.core.src", snapshot.EdgeImports)
	}
}
