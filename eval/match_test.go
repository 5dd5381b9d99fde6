package eval

import "testing"

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"net/http.Server.Serve", "net/http.Server.Serve"},
		{"Jekyll::Filters.markdownify", "Jekyll.Filters.markdownify"},
		{"Jekyll::Filters#markdownify", "Jekyll.Filters.markdownify"},
		{"HttpRegistry<'gctx>.start_fetch", "HttpRegistry.start_fetch"},
		{"FeatureResolver<'a, 'gctx>.activate_fv", "FeatureResolver.activate_fv"},
		{"Map<K, Vec<V>>.get", "Map.get"},
		{"Wrap<Box<dyn Fn() -> T>>.call", "Wrap.call"},
		{"FilterImpl.<init>", "FilterImpl.FilterImpl"},
		{"spark.ExceptionHandlerImpl.<init>", "spark.ExceptionHandlerImpl.ExceptionHandlerImpl"},
		{"Comparable#<=>", "Comparable.<=>"},
		{"Array#<<", "Array.<<"},
		{"Jekyll::Drops::Drop.[]", "Jekyll.Drops.Drop.[]"},
		{"Broken<T.method", "Broken<T.method"},
		{"  padded  ", "padded"},
		{"github.com/caddyserver/caddy/v2.Context", "github.com/caddyserver/caddy.Context"},
		{"github.com/caddyserver/caddy/v2/modules/caddyhttp.Handler", "github.com/caddyserver/caddy/v2/modules/caddyhttp.Handler"},
		{"github.com/x/y/v12.T.M", "github.com/x/y.T.M"},
		{"github.com/x/y/v1.T", "github.com/x/y/v1.T"},
		{"github.com/x/y/v02.T", "github.com/x/y/v02.T"},
		{"github.com/x/vault.T", "github.com/x/vault.T"},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

type matchCase struct {
	q, g string
	want bool
}

func checkMatches(t *testing.T, m Matcher, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		if got := m.Match(c.q, c.g); got != c.want {
			t.Errorf("%s.Match(result %q, gt %q) = %v, want %v", m.Name(), c.q, c.g, got, c.want)
		}
	}
}

// strictCases hold for both matchers where want is true (lenient is a
// superset of strict).
var strictCases = []matchCase{
	// Exact and suffix.
	{"flask.sansio.scaffold.Scaffold.before_request", "Scaffold.before_request", true},
	{"Scaffold.before_request", "Scaffold.before_request", true},
	{"flask.sansio.scaffold.Scaffold.before_request", "scaffold.Scaffold.before_request", true},
	// Go import paths.
	{"net/http.Server.Serve", "http.Server.Serve", true},
	{"net/http.Server.Serve", "Server.Serve", true},
	{"net/http.Server.Serve", "net/http.Server.Serve", true},
	{"net/url.Values.Encode", "url.Values.Encode", true},
	{"encoding/csv.Reader.Comma", "csv.Reader.Comma", true},
	{"net/url.Values", "url.Values", true},
	// A Go major-version suffix is not the package name.
	{"github.com/caddyserver/caddy/v2.Context", "caddy.Context", true},
	{"github.com/caddyserver/caddy/v2.Context", "Context", true},
	{"github.com/caddyserver/caddy/v2/modules/caddyhttp.Server.ServeHTTP", "caddyhttp.Server.ServeHTTP", true},
	// Dropped leading parts are not compared with what the result carries
	// instead (documented): https.Server.Serve reduces to Server.Serve.
	{"net/http.Server.Serve", "https.Server.Serve", true},
	{"flask.sansio.scaffold.Scaffold.before_request", "flask.Scaffold.before_request", true},
	// Ruby, with leading namespaces the result does or does not carry.
	{"Jekyll.Filters.markdownify", "Jekyll::Filters.markdownify", true},
	{"Filters.markdownify", "Jekyll::Filters.markdownify", true},
	{"lib.Jekyll.Filters.markdownify", "Jekyll::Filters.markdownify", true},
	{"Jekyll.Filters.markdownify", "Jekyll::Filters#markdownify", true},
	{"Jekyll::Filters.markdownify", "Jekyll.Filters.markdownify", true},
	{"Jekyll.Commands.Serve.BodyProcessor", "Jekyll::Commands::Jekyll::Commands::Serve::BodyProcessor", true},
	{"Jekyll.LiquidRenderer.File.render", "Jekyll::Jekyll::LiquidRenderer::File.render", true},
	{"Jekyll.EntryFilter.special?", "Jekyll::EntryFilter.special?", true},
	{"Jekyll.Drops.Drop.[]", "Jekyll::Drops::Drop.[]", true},
	// At least two parts must remain: markdownify alone is not enough.
	{"Jekyll.Utils.markdownify", "Jekyll::Filters.markdownify", false},
	{"markdownify", "Jekyll::Filters.markdownify", false},
	{"Filters", "Jekyll::Filters", false},
	// Java constructors.
	{"spark.FilterImpl.FilterImpl", "FilterImpl.<init>", true},
	{"spark.FilterImpl.<init>", "FilterImpl.<init>", true},
	{"spark.FilterImpl", "FilterImpl.<init>", false},
	// Rust generics.
	{"cargo.sources.registry.http_remote.HttpRegistry.start_fetch", "HttpRegistry<'gctx>.start_fetch", true},
	{"cargo.core.resolver.features.FeatureResolver.activate_fv", "FeatureResolver<'a, 'gctx>.activate_fv", true},
	{"cargo.sources.registry.http_remote.HttpRegistry.fetch", "HttpRegistry<'gctx>.start_fetch", false},
	// One-part ground truth: the terminal name, whole.
	{"cargo.bin.main", "main", true},
	{"main", "main", true},
	{"cargo.bin.main_helper", "main", false},
	{"cargo.bin.domain", "main", false},
	// Different types with a same-named method.
	{"django.template.Library.filter", "QuerySet.filter", false},
	{"Library.filter", "QuerySet.filter", false},
	// A class never matches its method, a method never its class.
	{"Jekyll.Filters.markdownify", "Filters", false},
	{"Jekyll.Filters.markdownify", "Jekyll::Filters", false},
	{"Jekyll.Filters", "Jekyll::Filters.markdownify", false},
	{"Jekyll.Filters", "Filters.markdownify", false},
	{"Filters", "Jekyll::Filters.markdownify", false},
	{"net/http.Server", "http.Server.Serve", false},
	{"net/http.Server.Serve", "http.Server", false},
	{"caddy.modules.caddyhttp.encode.Encode.ServeHTTP", "Encode", false},
	// Identifier boundaries.
	{"pkg.MyFilters.markdownify", "Filters.markdownify", false},
	{"", "main", false},
	{"main", "", false},
}

func TestStrict(t *testing.T) {
	checkMatches(t, Strict, strictCases)
}

func TestLenient(t *testing.T) {
	for _, c := range strictCases {
		if c.want {
			checkMatches(t, Lenient, []matchCase{c})
		}
	}
	checkMatches(t, Lenient, []matchCase{
		// Rule 1: a class (or any container) counts for its members.
		{"Jekyll.Filters.markdownify", "Filters", true},
		{"Jekyll.Filters.markdownify", "Jekyll::Filters", true},
		{"lib.Jekyll.Filters.markdownify", "Jekyll::Filters", true},
		{"github.com/x/knowing/internal/mcp.Server.registerTools", "mcp.Server", true},
		{"caddy.modules.caddyhttp.encode.Encode.ServeHTTP", "Encode", true},
		{"net/http.Server.Serve", "http.Server", true},
		// ...but not the other way round: a container for a member.
		{"X.Filters", "Filters.markdownify", false},
		{"Jekyll.Filters", "Jekyll::Filters.markdownify", false},
		// Whole parts only.
		{"pkg.MyFilters.markdownify", "Filters", false},
		{"Jekyll.Filters", "Filters", true}, // strict already
		// Rule 2: same-named method, another type, a shared qualifier.
		{"internal/store.SQLiteStore.NodesByName", "store.NodesByName", true},
		{"internal/context.ContextEngine.ForTask", "context.ForTask", true},
		{"Jekyll.Converters.Markdown.convert", "Jekyll::Renderer.convert", true},
		{"Jekyll.Utils.markdownify", "Jekyll::Filters.markdownify", true},
		{"flask.app.Flask.preprocess_request", "flask.sansio.app.App.preprocess_request", true},
		// Nothing shared, or a different method name.
		{"django.template.Library.filter", "QuerySet.filter", false},
		{"Library.filter", "QuerySet.filter", false},
		{"flask.ctx.AppContext.push", "RequestContext.push", false},
		{"Jekyll.Utils.slugify", "Jekyll::Filters.markdownify", false},
		// One-part ground truth has no qualifier to share.
		{"cargo.bin.main", "main", true},
		{"cargo.bin.main_helper", "main", false},
		{"markdownify", "Jekyll::Filters.markdownify", false},
	})
}

func TestMatcherByName(t *testing.T) {
	if MatcherByName("") != Strict || MatcherByName("strict") != Strict || MatcherByName("lenient") != Lenient {
		t.Error("built-in matchers not found by name")
	}
	if MatcherByName("fuzzy") != nil {
		t.Error("unknown matcher name resolved")
	}
}
