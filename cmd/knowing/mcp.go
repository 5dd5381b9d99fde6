package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowing-dev/knowing/internal/cachetrim"
	"github.com/knowing-dev/knowing/query"
)

const mcpHelp = `Usage: knowing mcp [--repo DIR] [--snap FILE] [--session]

Serves one repository to an AI agent over MCP (the Model Context Protocol)
on stdin and stdout. Tools:

  context   a task in plain words → the code it needs, ranked, in a budget
            (with source, the code of the best results too)
  symbol    a symbol's definition: kind, file:line span, signature, doc,
            and with source its code
  callers   who calls a symbol (depth 1 or more); callees: what it calls
  impact    what a change to some symbols may break, tests included
  outline   a file's symbols, nested
  changes   a unified diff or a list of files → the symbols it touches and
            what they may break

The snapshot is --snap, or by default .git/knowing.snap inside the
repository (the user's cache folder when the repository has no .git
folder: a server's start removes the snapshots there that no server used
for 30 days); the first call builds it, or brings an existing one up to date
incrementally. The server then watches the repository (as knowing watch
does): a call that comes after a change rebuilds the snapshot, parsing
only what changed, before it answers, so answers follow the agent's
edits. Calls in flight finish on the snapshot they started with.

With --session, context answers follow what the agent looked at: the
symbols it named to symbol, callers, callees and impact rise in later
context answers, by a boost that halves every --session-half-life (it
follows rebuilds by qualified name). It is off by default: in a replay of
related tasks (EVAL.md) it helped mined bug fixes a little and moved
nothing else, while raising what context itself had returned lowered MRR
on every set.

Register it with a client as a command, e.g. {"command": "knowing", "args":
["mcp", "--repo", "/path/to/repo"]}.

Flags:
`

// mcpBudget is the default token budget of the tools' answers.
const mcpBudget = 8000

func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	repo := fs.String("repo", ".", "repository `folder` to serve")
	snap := fs.String("snap", "", "snapshot `file` (default: .git/knowing.snap in the repository)")
	session := fs.Bool("session", false, "session-aware ranking: symbols the agent looked up rise in later context answers")
	half := fs.Duration("session-half-life", query.DefaultSessionHalfLife, "with --session: a looked-up symbol's boost halves over this `duration`")
	weight := fs.Float64("session-weight", query.DefaultSessionWeight, "with --session: a fully boosted symbol's score is multiplied by 1 + this `weight`")
	rankerFlag(fs)
	pos, err := parse(fs, args, mcpHelp, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("unexpected arguments %q", pos)
	}
	if err := checkRepo(*repo); err != nil {
		return err
	}
	if *half <= 0 || *weight < 0 {
		return usagef("--session-half-life must be above 0 and --session-weight 0 or more")
	}
	if err := checkCacheLimit(); err != nil {
		return err
	}
	k := &mcpServer{repo: *repo, snap: *snap, log: stderr}
	if *session {
		k.sess = query.NewSession(*half, *weight)
	}
	if k.snap == "" {
		k.snap = defaultSnapPath(*repo)
		keepCachedSnapshot(k.snap)
	}
	defer k.close()
	// An interrupt or SIGTERM ends the server as the client closing its
	// stdin does: the rebuild under way and the extraction kept for the
	// next build are written first (k.close), and the exit status is 0.
	ctx, stop := interruptContext()
	defer stop()
	if err := newMCPServer(k).Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// defaultSnapPath is where the MCP server keeps a repository's snapshot:
// inside its .git folder, which git ignores and clones do not copy, or,
// without one, under the user's cache folder, named by the repository's
// absolute path.
func defaultSnapPath(repo string) string {
	abs, err := filepath.Abs(repo)
	if err != nil {
		abs = repo
	}
	if st, err := os.Stat(filepath.Join(abs, ".git")); err == nil && st.IsDir() {
		return filepath.Join(abs, ".git", "knowing.snap")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, "knowing", "snapshots", hex.EncodeToString(sum[:12])+".snap")
}

// cachedSnapAge is how long a snapshot the MCP server keeps under the
// user's cache folder (for a repository without .git) stays unused
// before a server started for another repository removes it; the next
// server for its repository builds it again.
const cachedSnapAge = 30 * 24 * time.Hour

// keepCachedSnapshot marks snap, the server's snapshot, as used, and
// removes from its folder the snapshots unused for cachedSnapAge, when
// snap is one the server keeps under the cache folder.
func keepCachedSnapshot(snap string) {
	dir := filepath.Dir(snap)
	if filepath.Base(dir) != "snapshots" || filepath.Base(filepath.Dir(dir)) != "knowing" {
		return // in the repository's .git
	}
	cachetrim.Touch(snap)
	_, _ = cachetrim.Trim(dir, cachetrim.Policy{MaxAge: cachedSnapAge, Keep: cachetrim.Entry(filepath.Base(snap))})
}

// mcpServer holds the one repository a server answers for and its
// snapshot, opened (built, or brought up to date) on the first call; each
// call takes the current snapshot (acquire, in mcp_live.go, or nocgo.go
// without a parser) and releases it when done.
type mcpServer struct {
	repo, snap string
	log        io.Writer // rebuilds and their failures; nil: none
	// sess remembers the symbols the agent looked up, for the context
	// tool's ranking (nil: off, the default); it follows rebuilt
	// snapshots by qualified name.
	sess *query.Session
	mu   sync.Mutex
	st   mcpState
}

func (k *mcpServer) logf(format string, args ...any) {
	if k.log != nil {
		fmt.Fprintf(k.log, format, args...)
	}
}

// The tools' arguments and answers. Answers carry what a budget or limit
// cut, so an agent knows more is there.
type (
	contextIn struct {
		Task   string `json:"task" jsonschema:"the task in plain words, a bug report, a stack trace or an error message"`
		Budget int    `json:"budget,omitempty" jsonschema:"token budget of the answer (default 8000)"`
		Limit  int    `json:"limit,omitempty" jsonschema:"at most this many symbols (default 20)"`
		Source bool   `json:"source,omitempty" jsonschema:"also return the code of the best results while the budget has room"`
	}
	contextOut struct {
		Results []query.Item   `json:"results"`
		Sources []RankedSource `json:"sources,omitempty"`
		Message string         `json:"message,omitempty"`
	}
	symbolIn struct {
		Symbol string `json:"symbol" jsonschema:"a qualified name (pkg.Type.method), a unique suffix (Type.method) or file:line"`
		Source bool   `json:"source,omitempty" jsonschema:"also return the symbol's code from the repository"`
	}
	callsIn struct {
		Symbol string `json:"symbol" jsonschema:"a qualified name, a unique suffix or file:line"`
		Depth  int    `json:"depth,omitempty" jsonschema:"follow calls this many steps (default 1)"`
		Limit  int    `json:"limit,omitempty" jsonschema:"at most this many symbols (default 100)"`
	}
	impactIn struct {
		Symbols []string `json:"symbols" jsonschema:"the symbols a change touches: qualified names, unique suffixes or file:line"`
		Depth   int      `json:"depth,omitempty" jsonschema:"follow dependents this many edges (default 3)"`
		Budget  int      `json:"budget,omitempty" jsonschema:"token budget of the answer (default 8000)"`
	}
	outlineIn struct {
		File string `json:"file" jsonschema:"a file's path in the repository, or a unique end of it"`
	}
	changesIn struct {
		Diff   string   `json:"diff,omitempty" jsonschema:"a unified diff (git diff); hunks are read on the old side"`
		Files  []string `json:"files,omitempty" jsonschema:"changed files, when there is no diff: every symbol in them counts as changed"`
		Budget int      `json:"budget,omitempty" jsonschema:"token budget of the answer (default 8000)"`
	}
)

// lookedUp feeds the session the symbols of e a call named. Only these
// feed it, not what context returned: in the replay of related tasks
// (EVAL.md), raising returned symbols lowered MRR on every set, raising
// the symbols worked on did not.
func (k *mcpServer) lookedUp(e *query.Engine, ids ...uint32) {
	if k.sess == nil {
		return
	}
	now := time.Now()
	for _, id := range ids {
		k.sess.Record(e.Snapshot(), id, now)
	}
}

func or(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// onEngine is a tool handler answering with f from the engine of the
// live snapshot, acquired for the call and released after it.
func onEngine[In, Out any](k *mcpServer, f func(ctx context.Context, e *query.Engine, in In) (Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		ls, err := k.acquire(ctx)
		if err != nil {
			var zero Out
			return nil, zero, err
		}
		defer ls.release()
		out, err := f(ctx, ls.e, in)
		return nil, out, err
	}
}

// newMCPServer makes the MCP server of k's repository with its tools.
func newMCPServer(k *mcpServer) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "knowing", Version: version}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "context", Description: "Find the code a task needs: give the task in plain words (or a bug report, stack trace, error message); get the symbols to read, best first, with signatures and doc summaries, within a token budget."},
		onEngine(k, func(ctx context.Context, e *query.Engine, in contextIn) (contextOut, error) {
			budget := or(in.Budget, mcpBudget)
			res, err := e.Query(ctx, in.Task, query.Options{Limit: or(in.Limit, 20), Budget: budget, Docs: true, Session: k.sess})
			if err != nil {
				return contextOut{}, err
			}
			out := contextOut{Results: res.Results, Message: res.Stats.Message}
			if in.Source {
				m, err := e.Snapshot().Meta()
				if err != nil {
					return contextOut{}, err
				}
				out.Sources = sourcesFor(e.Snapshot(), m.RepoRoot, res.Results, budget-res.Stats.Tokens)
			}
			return out, nil
		}))
	mcp.AddTool(srv, &mcp.Tool{Name: "symbol", Description: "A symbol's definition: kind, file and line span, signature, doc summary."},
		onEngine(k, func(_ context.Context, e *query.Engine, in symbolIn) (defReport, error) {
			id, err := e.Resolve(in.Symbol)
			if err != nil {
				return defReport{}, err
			}
			k.lookedUp(e, id)
			return definitionOf(e, id, in.Source)
		}))
	calls := func(name, desc string) {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: desc},
			onEngine(k, func(_ context.Context, e *query.Engine, in callsIn) (callsReport, error) {
				id, err := e.Resolve(in.Symbol)
				if err != nil {
					return callsReport{}, err
				}
				k.lookedUp(e, id)
				return callsOf(e, id, name, min(or(in.Depth, 1), 10), or(in.Limit, 100)), nil
			}))
	}
	calls("callers", "Who calls a symbol: direct callers (depth 1) and, with depth, their callers.")
	calls("callees", "What a symbol calls, directly (depth 1) or further.")
	mcp.AddTool(srv, &mcp.Tool{Name: "impact", Description: "What a change to some symbols may break: callers, overriders, implementers, users and the tests that exercise them, ranked by how close they are in the code graph."},
		onEngine(k, func(_ context.Context, e *query.Engine, in impactIn) (impactReport, error) {
			rep, err := impactOf(e, in.Symbols, min(or(in.Depth, 3), 10), 100, or(in.Budget, mcpBudget))
			if err == nil && k.sess != nil {
				for _, ref := range in.Symbols {
					if id, err := e.Resolve(ref); err == nil {
						k.lookedUp(e, id)
					}
				}
			}
			return rep, err
		}))
	mcp.AddTool(srv, &mcp.Tool{Name: "outline", Description: "A file's symbols, nested as the code nests them, in line order."},
		onEngine(k, func(_ context.Context, e *query.Engine, in outlineIn) (outlineReport, error) {
			return outlineOf(e, in.File)
		}))
	mcp.AddTool(srv, &mcp.Tool{Name: "changes", Description: "Context for a change: from a unified diff or a list of changed files, the symbols it touches, then their direct callers and what else they may break, within a token budget."},
		onEngine(k, func(_ context.Context, e *query.Engine, in changesIn) (changesReport, error) {
			var hunks []query.Hunk
			switch {
			case in.Diff != "":
				var err error
				if hunks, err = query.ParseDiff(strings.NewReader(in.Diff)); err != nil {
					return changesReport{}, err
				}
			case len(in.Files) > 0:
				for _, f := range in.Files {
					hunks = append(hunks, query.Hunk{Path: f})
				}
			default:
				return changesReport{}, errors.New("give a diff or a list of files")
			}
			return changesContext(e, hunks, 2, 300, or(in.Budget, mcpBudget)), nil
		}))
	return srv
}
