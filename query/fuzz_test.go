package query

import (
	"context"
	"testing"
)

// FuzzKeywords feeds task text (prose, traces, dotted names, backticks)
// to the keyword reader and to a query of a small graph: neither may
// panic, and the lists stay within their caps.
//
//	go test ./query -run xxx -fuzz FuzzKeywords -fuzztime 60s
func FuzzKeywords(f *testing.F) {
	for _, s := range []string{
		"add a before_request hook that checks `api_key`",
		"app.use mounts middleware at a path, e.g. crates.io",
		"Traceback (most recent call last):\n  File \"/venv/site-packages/shop/app.py\", line 35, in dispatch\nKeyError: 'x'",
		"\tat com.x.Outer$Inner.lambda$run$0(Outer.java:12)\n\tat com.x.Outer$1.run(Outer.java:)",
		"    at async Layer.handle [as handle_request] (file:///srv/app.mjs:10:3)",
		"from lib/jekyll/page.rb:42:in `render'",
		"panic: boom\ngoroutine 1 [running]:\nsync.(*WaitGroup).Add(0x0)\n\t/usr/local/go/src/sync/waitgroup.go:64 +0x125",
		"at (:1:2)", "File \"\", line , in ", "a.b.c.d.e.f.g.h.i.j.k", "$.$$.$", "x:1:2:3:4",
		"thread 'main' panicked at crates/ignore/src/walk.rs:1200:9:",
		"   at Ns.T.<Invoke>d__3.MoveNext() in /b/T.cs:line 34\n   at <>.<>(x)\n   at a.`1()", "store/store.go:3 server/auth.go:99999999999999999999",
	} {
		f.Add(s)
	}
	e := newShop().engine(f)
	f.Fuzz(func(t *testing.T, task string) {
		k := ExtractKeywords(task)
		if len(k.Exact) > maxExact || len(k.Compounds) > maxCompounds || len(k.Components) > maxComponents ||
			len(k.Paths) > maxPaths || len(k.References) > maxReferences || len(k.Frames) > maxFrames || len(k.Locations) > maxLocations {
			t.Fatalf("over a cap: %d exact, %d compounds, %d components, %d paths, %d references, %d frames, %d locations",
				len(k.Exact), len(k.Compounds), len(k.Components), len(k.Paths), len(k.References), len(k.Frames), len(k.Locations))
		}
		r, err := e.Query(context.Background(), task, Options{Limit: 5})
		if err == nil && len(r.Results) > 5 {
			t.Fatalf("%d results for limit 5", len(r.Results))
		}
	})
}
