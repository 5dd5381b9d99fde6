// Package eval measures retrieval quality: it loads task fixtures with
// hand-written ground truth, runs a retriever on each, scores the ranked
// qualified names it returns, and writes reports and a quality gate.
//
// It depends only on the standard library and gopkg.in/yaml.v3; the query
// engine plugs in through [Retriever], and so does the grep baseline of
// package eval/baseline, the floor any ranking must beat.
//
// # Fixtures
//
// One task per YAML file:
//
//	id: flask-easy-001            # required, unique within a LoadDir
//	repo: flask
//	tier: easy                    # easy, medium, hard, swe, mined, mined-test (may be absent)
//	description: "Add a hook that runs before each request"   # required
//	ground_truth:                 # required, non-empty
//	  - Scaffold.before_request
//	  - Flask.preprocess_request
//	tags: [hooks, single-package]
//	notes: "why these symbols"
//
// Other keys are read when known and otherwise ignored. Bug reports and
// mined commits (tiers swe, mined and mined-test: [BugTiers]) carry the
// commit to answer from, base_commit (a mined commit's parent), and
// informative fields: commit, files, classes, source, gt_method.
// [LoadDir] walks a folder recursively in lexical order; errors name the
// file and, where the YAML parser gives one, the line ("path:line: msg").
//
// # Normalisation
//
// Both matchers first rewrite the ground-truth entry G and the result name
// Q with [Normalize]: Ruby "::" and "#" become "."; a generic parameter
// list following an identifier is removed ("HttpRegistry<'gctx>.start_fetch"
// → "HttpRegistry.start_fetch"); a Java constructor "X.<init>" becomes
// "X.X"; a Go major-version element ending an import path is dropped
// ("github.com/caddyserver/caddy/v2.Context" →
// "github.com/caddyserver/caddy.Context", so it matches caddy.Context).
// A name is split into parts at '.'; in a name with '/', the text up
// to the first '.' after the last '/' is one part (the Go import path with
// its package name: "net/http.Server.Serve" has the parts "net/http",
// "Server", "Serve").
//
// # Strict matching (the default)
//
// Q matches G when Q ends, at a part boundary, with G or with G minus some
// leading parts, provided at least two parts of G remain. "Ends at a part
// boundary with S" means Q == S, or Q ends with "." + S or "/" + S. So:
//
//   - net/http.Server.Serve matches http.Server.Serve and Server.Serve
//     (and net/http.Server.Serve);
//   - Jekyll.Filters.markdownify and lib.Jekyll.Filters.markdownify match
//     Jekyll::Filters.markdownify, and so does Filters.markdownify: leading
//     namespace parts that Q does not carry cost no hit. Dropping is not
//     checked against what Q carries instead, so Other.Filters.markdownify
//     matches too;
//   - spark.FilterImpl.FilterImpl matches FilterImpl.<init>;
//   - cargo.sources.registry.http_remote.HttpRegistry.start_fetch matches
//     HttpRegistry<'gctx>.start_fetch;
//   - a one-part G matches by the terminal name only: cargo.bin.main
//     matches main, cargo.bin.main_helper does not;
//   - a two-part G keeps both parts: Jekyll::Filters needs Q to end with
//     Jekyll.Filters, so a bare Q "Filters" does not match it;
//   - a class never matches its method and a method never matches its
//     class, because the match is on whole trailing parts: Q
//     Jekyll.Filters.markdownify does not match G Filters, Q Jekyll.Filters
//     does not match G Jekyll::Filters.markdownify, and Q
//     django.template.Library.filter does not match G QuerySet.filter.
//
// Results may carry a kind elsewhere; matching looks at names only.
//
// # Lenient matching
//
// [Lenient] is a looser relevance test, for comparison with figures
// counted that way (EVAL.md gives both). Q matches G when Q matches
// strictly, or when either holds:
//
//  1. A class counts for its methods (members): Q contains, at a part
//     boundary, G or one of the reduced forms strict matching tries,
//     followed by "." and a member name. G Filters is matched by Q
//     Jekyll.Filters.markdownify; G mcp.Server by
//     internal/mcp.Server.registerTools. The direction is that of a
//     substring test of G in Q: a returned member credits a ground-truth
//     container, a returned container does not credit a ground-truth
//     member, so Q X.Filters still does not match G Filters.markdownify.
//  2. A method counts for a same-named method on another type that shares
//     a qualifier: G has at least two parts, Q's last part equals G's last
//     part, and some identifier of Q before its last part (split at '.'
//     and '/') equals some identifier of G before its last part. G
//     store.NodesByName is matched by Q internal/store.SQLiteStore.NodesByName
//     (shares "store"); G Jekyll::Renderer.convert by Q
//     Jekyll.Converters.Markdown.convert (shares "Jekyll"). G
//     QuerySet.filter is still not matched by Q Library.filter (nothing
//     shared).
//
// Unlike a raw substring test, both rules compare whole parts:
// G main is not matched by Q cargo.bin.main_helper, even leniently.
//
// # Metrics
//
// Only the first [K] = 10 returned names are scored; see [Score] for the
// exact definitions of P@10, R@10, MRR, NDCG@10 and Acc@k. In short:
// P@10 counts relevant names (two names matching one entry both count),
// R@10 counts distinct ground-truth entries found, NDCG uses binary gains,
// Acc@k is 1 when every entry is found within the first k names. Summaries
// are means over fixtures per tier, per repository and overall, with
// fixture and zero-hit counts and nearest-rank latency percentiles. Tasks
// are read by P@10, R@10 and MRR; bug reports, which name few symbols, by
// Acc@1, Acc@5, Acc@10, R@10 and MRR, which the text report prints in a
// table of their own.
//
// # Reports
//
// [Report.WriteText] prints fixed-width tables, [Report.WriteMarkdown] a
// FINDINGS.md-style document, [Report.WriteJSON] JSON with the snake_case
// field names of the struct tags: report {matcher, k, fixtures, tiers,
// repos, overall, bug_repos, bug_overall}; fixture {id, repo, tier,
// description, ground_truth, returned, top [{rank, name, relevant}],
// found, missed, p_at_10, r_at_10, mrr, ndcg_at_10, full_rank, acc_at_1,
// acc_at_5, acc_at_10, zero_hit, latency_ms, error}; summary {name,
// count, zero_hits, errors, p_at_10, r_at_10, mrr, ndcg_at_10, acc_at_1,
// acc_at_5, acc_at_10, latency_p50_ms, latency_p99_ms}. bug_repos and
// bug_overall summarise the bug-report fixtures alone and are left out
// when there are none.
//
// # Verification and gate
//
// [VerifyNames] lists ground-truth entries that no qualified name of an
// index matches strictly. [Floor] holds minimum overall means, loaded from
// YAML, and [Floor.Check] fails a report below any of them.
package eval
