package query

import (
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// A concept maps the phrases developers use for something every codebase
// of a language or domain has to the names code gives it. Phrases match
// whole words of the task, case-insensitively; targets are symbol names,
// matched exactly (case-insensitive) through the name index.
type concept struct {
	id      string
	lang    snapshot.Lang // 0: any language; JavaScript's also hold for TypeScript
	phrases []string
	targets []string
}

// genericTargets resolve to hundreds of unrelated symbols in any large
// codebase; they are never used as targets.
var genericTargets = set(`get set do new run put post call add pop init main handle handler apply value
update load save read write open close start stop next test build make create`)

// Universal concepts: web servers, CLIs, configuration, persistence,
// packaging. Language concepts follow. Targets are the names any codebase
// of the kind uses for the concept, never the names of one project.
var concepts = []concept{
	{id: "HTTP_MIDDLEWARE", phrases: []string{"middleware", "request hook", "before request", "after request", "interceptor", "filter chain", "request filter", "before each request", "after each request"},
		targets: []string{"Middleware", "MiddlewareHandler", "ServeHTTP", "before_request", "after_request", "BeforeFilter", "AfterFilter", "Filter", "Interceptor", "Chain", "use_middleware", "UseMiddleware"}},
	{id: "ROUTING", phrases: []string{"route", "routes", "routing", "url rule", "url pattern", "path pattern", "endpoint", "dispatch request", "match request"},
		targets: []string{"Route", "Router", "route", "add_route", "Routes", "RouteMatcher", "Match", "match", "Dispatch", "url_for", "Mux", "ServeMux", "Handle"}},
	{id: "ERROR_HANDLING", phrases: []string{"error handler", "error handling", "handle errors", "exception handler", "handle exception", "error page", "custom error", "http error", "error response"},
		targets: []string{"ErrorHandler", "HandleError", "HTTPError", "HTTPException", "handleError", "on_error", "rescue", "exception"}},
	{id: "AUTHENTICATION", phrases: []string{"authentication", "authenticate", "login", "log in", "credentials", "api key", "api keys", "basic auth", "bearer token", "access token", "auth token", "password", "oauth"},
		targets: []string{"Authenticate", "authenticate", "Authenticator", "Authentication", "BasicAuth", "login", "Login", "credentials", "Credentials", "auth_token", "Token", "verify_password", "check_password", "Authorization"}},
	{id: "CONFIGURATION", phrases: []string{"configuration", "config file", "settings", "config values", "load config", "configure", "options from"},
		targets: []string{"Config", "Configuration", "Settings", "load_config", "LoadConfig", "from_file", "from_env", "ParseConfig", "Options"}},
	{id: "CLI", phrases: []string{"command line", "cli", "subcommand", "command-line", "flags", "cli command", "argument parsing", "parse arguments", "command alias", "command aliases"},
		targets: []string{"Command", "Cli", "CLI", "main", "Execute", "execute", "Run", "parse_args", "App", "FlagSet", "Parse", "cli", "exec", "cmd", "aliases"}},
	{id: "LOGGING", phrases: []string{"logging", "logger", "log messages", "log level", "structured log"},
		targets: []string{"Logger", "logger", "Log", "log", "Logf", "create_logger", "Warn", "Debug", "Info"}},
	{id: "TEMPLATES", phrases: []string{"template", "templates", "templating", "render template", "render html", "template filter"},
		targets: []string{"render_template", "Template", "render", "Render", "Environment", "Renderer", "TemplateEngine"}},
	{id: "SERIALIZATION", phrases: []string{"json", "serialize", "serialization", "deserialize", "marshal", "unmarshal", "encode", "decode", "yaml", "toml"},
		targets: []string{"Marshal", "Unmarshal", "Encoder", "Decoder", "Encode", "Decode", "dumps", "loads", "to_json", "from_json", "Serializer", "Deserialize", "Serialize", "parse"}},
	{id: "SESSIONS_COOKIES", phrases: []string{"session", "sessions", "cookie", "cookies", "session cookie"},
		targets: []string{"Session", "Cookie", "SetCookie", "set_cookie", "cookies"}},
	{id: "STATIC_FILES", phrases: []string{"static files", "static file", "serve files", "file server", "static assets"},
		targets: []string{"FileServer", "send_file", "StaticFiles", "ServeFile", "staticFiles"}},
	{id: "HTTP_REQUEST_RESPONSE", phrases: []string{"request object", "response object", "query parameters", "query params", "request body", "response headers", "status code", "request headers", "form data"},
		targets: []string{"Request", "Response", "queryParams", "query_params", "args", "form", "headers", "header", "status", "body", "ResponseWriter", "WriteHeader"}},
	{id: "REDIRECTS", phrases: []string{"redirect", "redirects", "redirection"},
		targets: []string{"redirect", "Redirect", "RedirectHandler", "redirect_to"}},
	{id: "APP_CONTEXT", phrases: []string{"application context", "app context", "request context", "context local", "teardown"},
		targets: []string{"Context"}},
	{id: "DATABASE", phrases: []string{"database", "sql", "query builder", "connection pool", "transaction", "orm"},
		targets: []string{"DB", "Database", "Conn", "Connection", "Tx", "Transaction", "Begin", "Commit", "Rollback", "Query", "Exec", "Pool", "connect"}},
	{id: "CACHING", phrases: []string{"cache", "caching", "memoize", "cached"},
		targets: []string{"Cache", "cache", "LRU", "memoize", "Cached", "invalidate"}},
	{id: "CONCURRENCY", phrases: []string{"concurrency", "concurrent", "thread safe", "thread-safe", "lock", "mutex", "goroutine", "parallel", "worker pool", "race condition"},
		targets: []string{"Mutex", "RWMutex", "Lock", "Unlock", "WaitGroup", "Pool", "spawn", "Worker", "Semaphore"}},
	{id: "RETRY_TIMEOUT", phrases: []string{"retry", "retries", "backoff", "timeout", "timeouts", "deadline"},
		targets: []string{"Retry", "retry", "Backoff", "with_retry", "Timeout", "timeout", "Deadline", "SetDeadline", "WithTimeout"}},
	{id: "TLS_CERTS", phrases: []string{"tls", "ssl", "https", "certificate", "certificates", "acme"},
		targets: []string{"TLS", "TLSConfig", "Certificate", "tls", "GetCertificate", "secure"}},
	{id: "REVERSE_PROXY", phrases: []string{"reverse proxy", "proxy", "load balancing", "load balancer", "upstream", "upstreams", "health check"},
		targets: []string{"ReverseProxy", "Upstream", "LoadBalancer", "Selector", "HealthCheck", "Transport", "RoundTrip", "Proxy"}},
	{id: "COMPRESSION", phrases: []string{"gzip", "compression", "compress", "encode responses", "zstd"},
		targets: []string{"Gzip", "gzip", "Compressor", "Encoder", "Encoding"}},
	{id: "PLUGINS", phrases: []string{"plugin", "plugins", "extension", "extensions", "module registration", "register module", "hooks"},
		targets: []string{"Plugin", "Plugins", "RegisterModule", "Module", "Extension", "register", "Hooks", "Hook", "trigger"}},
	{id: "EVENTS_SIGNALS", phrases: []string{"signal", "signals", "event", "events", "emit", "subscribe", "listener", "observer"},
		targets: []string{"Signal", "signal", "Event", "emit", "Emit", "subscribe", "Subscribe", "listen", "Listener", "Hooks", "trigger"}},
	{id: "FILE_WATCHING", phrases: []string{"watch files", "file watcher", "watch mode", "auto reload", "live reload", "reloader", "regenerate on change"},
		targets: []string{"Watcher", "watch", "Watch", "reload", "Reload", "listen"}},
	{id: "STATIC_SITE", phrases: []string{"site generation", "build the site", "generate site", "front matter", "permalink", "permalinks", "collections", "drafts", "excerpt", "markdown", "converter"},
		targets: []string{"Site", "Page", "Document", "Collection", "Post", "permalink", "FrontMatter", "Converter", "Markdown", "convert", "Excerpt", "Generator"}},
	{id: "DEPENDENCY_RESOLUTION", phrases: []string{"dependency resolution", "resolve dependencies", "resolver", "version requirement", "semver", "lockfile", "lock file", "dependency graph"},
		targets: []string{"resolve", "Resolve", "Resolver", "Dependency", "VersionReq", "Lockfile", "lockfile", "DependencyGraph"}},
	{id: "PACKAGE_REGISTRY", phrases: []string{"registry", "registries", "publish", "download packages", "package index"},
		targets: []string{"Registry", "publish", "Download", "download", "RegistryIndex", "Source", "auth_token"}},
	{id: "BUILD_COMPILE", phrases: []string{"compile", "compilation", "build script", "build scripts", "compiler", "build jobs", "build plan"},
		targets: []string{"compile", "Job", "Compiler", "build_script"}},
	{id: "MANIFEST", phrases: []string{"manifest", "package.json", "workspace", "workspace members", "features", "feature flags"},
		targets: []string{"Manifest", "Workspace", "read_manifest", "Package", "Features", "parse_manifest"}},
	{id: "TESTING", phrases: []string{"unit test", "unit tests", "test client", "test runner", "test harness", "fixtures", "mocking", "test suite"},
		targets: []string{"TestClient", "Test", "Tests", "fixture", "Fixture", "run_tests", "TestCase"}},
	{id: "SHUTDOWN", phrases: []string{"graceful shutdown", "shut down", "shutdown", "stop the server", "drain connections"},
		targets: []string{"Shutdown", "shutdown", "Stop", "stop", "Close", "GracefulShutdown", "Drain"}},
	{id: "WEBSOCKETS", phrases: []string{"websocket", "websockets", "web socket"},
		targets: []string{"WebSocket", "WebSocketHandler", "websocket", "Upgrade", "upgrade"}},
	{id: "RATE_LIMIT", phrases: []string{"rate limit", "rate limiting", "throttle", "throttling", "too many requests"},
		targets: []string{"RateLimiter", "Limiter", "rate_limit", "Throttle", "TokenBucket"}},
	{id: "ENCODING_URL", phrases: []string{"url building", "build urls", "url generation", "reverse url", "url encode", "query string"},
		targets: []string{"url_for", "UrlFor", "build", "url_quote", "QueryEscape", "Values", "urlencode", "ParseQuery"}},
	// Programming tasks every language's code has, under the names its
	// standard libraries give them.
	{id: "PRIORITY_QUEUE", phrases: []string{"priority queue", "min heap", "max heap", "binary heap", "heap"},
		targets: []string{"Heap", "PriorityQueue", "BinaryHeap", "heapq", "heappush", "heappop", "heapify"}},
	{id: "DIRECTORY_WALK", phrases: []string{"walk a directory", "walk the directory", "directory tree", "traverse directory", "traverse a directory", "walk directories", "recursively walk", "file tree", "glob"},
		targets: []string{"Walk", "WalkDir", "walk_dir", "WalkFunc", "SkipDir", "Glob"}},
	{id: "STRING_BUILDING", phrases: []string{"build a string", "string builder", "concatenation", "concatenate strings", "string concatenation", "join strings"},
		targets: []string{"Builder", "StringBuilder", "StringBuffer", "WriteString", "Buffer", "Join"}},
	{id: "REGEX", phrases: []string{"regular expression", "regular expressions", "regex", "regexp", "capture group", "capture groups"},
		targets: []string{"Regexp", "Regex", "Pattern", "Matcher", "MustCompile"}},
	{id: "ESCAPING", phrases: []string{"escape", "escaping", "unescape", "special characters", "html escape"},
		targets: []string{"Escape", "Unescape", "EscapeString", "Replacer", "NewReplacer", "QuoteMeta", "html_escape"}},

	// The same ideas under the names one language's ecosystem uses.
	{id: "PY_APP_ENTRY", lang: snapshot.LangPython, phrases: []string{"application factory", "create app", "wsgi", "entry point", "run the app", "development server"},
		targets: []string{"create_app", "__call__", "run", "make_server", "Application"}},
	{id: "PY_MODULAR_APP", lang: snapshot.LangPython, phrases: []string{"blueprint", "blueprints", "modular app", "sub application"},
		targets: []string{"Blueprint", "register"}},
	{id: "PY_CLI", lang: snapshot.LangPython, phrases: []string{"command line", "cli", "click command", "cli command", "custom command"},
		targets: []string{"command", "group", "main", "cli"}},
	{id: "GO_HTTP_HANDLER", lang: snapshot.LangGo, phrases: []string{"http handler", "middleware", "handler chain", "serve http", "request handler"},
		targets: []string{"ServeHTTP", "Handler", "HandlerFunc", "MiddlewareHandler", "Middleware", "ServeMux", "Handle", "HandleFunc"}},
	{id: "JAVA_SERVLET", lang: snapshot.LangJava, phrases: []string{"servlet", "filter", "before filter", "after filter", "embedded server", "jetty"},
		targets: []string{"Filter", "doFilter", "Servlet", "HttpServlet", "service", "before", "after"}},
	{id: "JAVA_ROUTES", lang: snapshot.LangJava, phrases: []string{"route", "routes", "get request", "post request", "path parameter"},
		targets: []string{"Route", "Routes", "addRoute", "get", "post", "params"}},
	{id: "RUBY_PLUGINS", lang: snapshot.LangRuby, phrases: []string{"plugin", "plugins", "generator", "converter", "liquid tag", "liquid filter", "hook", "hooks"},
		targets: []string{"Plugin", "Generator", "Converter", "Tag", "Block", "Filters", "Hooks", "register", "trigger", "Command"}},
	{id: "RUST_ERRORS", lang: snapshot.LangRust, phrases: []string{"error handling", "error message", "error context", "anyhow", "errors"},
		targets: []string{"Error", "with_context", "context", "bail", "ErrorKind"}},
	{id: "RUST_CONFIG", lang: snapshot.LangRust, phrases: []string{"configuration", "config file", "config value", "environment variable", "env var"},
		targets: []string{"Config", "get"}},
	{id: "JS_COMPONENTS", lang: snapshot.LangJavaScript, phrases: []string{"component", "components", "react", "props", "state", "hook"},
		targets: []string{"Component", "render", "useState", "useEffect", "props", "setState"}},
	{id: "CS_MIDDLEWARE", lang: snapshot.LangCSharp, phrases: []string{"middleware", "pipeline", "request delegate", "request pipeline"},
		targets: []string{"Invoke", "InvokeAsync", "RequestDelegate", "UseMiddleware", "Middleware", "IMiddleware", "Configure"}},
}

type conceptMatch struct {
	c      *concept
	strong bool // two or more phrases, or a multi-word phrase
	count  int
}

// matchConcepts finds the concepts whose phrases occur in the task.
func matchConcepts(lower string) []conceptMatch {
	// Only phrases whose first word is a word of the task can occur in it:
	// look those up by word instead of searching for every phrase.
	var counts [64]int
	var multi [64]bool
	var checked [maxPhrases]bool // each phrase is checked once
	hit := func(ref phraseRef) {
		if checked[ref.i] {
			return
		}
		checked[ref.i] = true
		if containsWords(lower, ref.p) {
			counts[ref.c]++
			if strings.Contains(ref.p, " ") {
				multi[ref.c] = true
			}
		}
	}
	for i := 0; i < len(lower); {
		if !isWordByte(lower[i]) {
			i++
			continue
		}
		j := i
		for j < len(lower) && isWordByte(lower[j]) {
			j++
		}
		w := lower[i:j]
		i = j
		for _, ref := range phraseIndex.byWord[w] {
			hit(ref)
		}
		if strings.HasSuffix(w, "s") {
			for _, ref := range phraseIndex.byWord[w[:len(w)-1]] {
				hit(ref)
			}
		}
	}
	for _, ref := range phraseIndex.always {
		hit(ref)
	}
	var out []conceptMatch
	for i := range concepts {
		if n := counts[i]; n > 0 {
			out = append(out, conceptMatch{c: &concepts[i], strong: n >= 2 || multi[i], count: n})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].strong != out[b].strong {
			return out[a].strong
		}
		return out[a].count > out[b].count
	})
	return out
}

// phraseRef is one phrase of concepts[c], the i-th of all phrases.
type phraseRef struct {
	c, i int
	p    string
}

// maxPhrases bounds the number of phrases over all concepts.
const maxPhrases = 1024

// phraseIndex lists the concepts' phrases by their first word; phrases that
// do not start with a word byte are always checked.
var phraseIndex = func() (ix struct {
	byWord map[string][]phraseRef
	always []phraseRef
}) {
	if len(concepts) > 64 {
		panic("query: more than 64 concepts")
	}
	ix.byWord = map[string][]phraseRef{}
	n := 0
	for ci := range concepts {
		for _, p := range concepts[ci].phrases {
			if n == maxPhrases {
				panic("query: more than maxPhrases concept phrases")
			}
			ref := phraseRef{ci, n, p}
			n++
			k := 0
			for k < len(p) && isWordByte(p[k]) {
				k++
			}
			if k == 0 {
				ix.always = append(ix.always, ref)
				continue
			}
			ix.byWord[p[:k]] = append(ix.byWord[p[:k]], ref)
		}
	}
	return ix
}()

// containsWords reports whether phrase occurs in s on word boundaries.
func containsWords(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(phrase)
		if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b]) || s[b] == 's' && (b+1 == len(s) || !isWordByte(s[b+1]))) {
			return true
		}
		i = a + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// equivChannel resolves the targets of matched concepts to symbols. Its
// size is capped at twice what the name and BM25 channels found, so on a
// small graph it cannot flood the fusion.
func (e *Engine) equivChannel(ws *workspace, lower string, allow snapshot.Flags, primary int) []uint32 {
	matches := matchConcepts(lower)
	if len(matches) == 0 {
		return nil
	}
	limit := 2 * primary
	if limit < 10 {
		limit = 10
	}
	if limit > 40 {
		limit = 40
	}
	m := newMatchSet(ws)
	for _, cm := range matches {
		perTarget := 3
		if !cm.strong {
			// One single-word phrase ("build", "route") is weak evidence
			// (strong: two phrases or a multi-word one): one symbol per
			// target instead of three raised dev P@10 and MRR (EVAL.md).
			perTarget = int(e.tune.WeakEquiv)
			if perTarget == 0 {
				continue
			}
		}
		for _, t := range cm.c.targets {
			if len(t) <= 3 || genericTargets[strings.ToLower(t)] {
				continue
			}
			ws.ids = e.s.LookupName(strings.ToLower(t), ws.ids[:0])
			e.prefer(ws, ws.ids, allow)
			taken := 0
			for _, id := range ws.ids {
				if len(m.ids) >= limit || taken >= perTarget {
					break
				}
				if cm.c.lang != 0 && langFamily(e.s.Lang(id)) != cm.c.lang {
					continue
				}
				if !e.keep(id, allow) {
					continue
				}
				if m.add(id) {
					taken++
				}
			}
		}
	}
	return m.ids
}

// langFamily maps a language to the one whose concepts it shares:
// TypeScript code uses JavaScript's names (React's useState, Express's
// Router) as written.
func langFamily(l snapshot.Lang) snapshot.Lang {
	if l == snapshot.LangTypeScript {
		return snapshot.LangJavaScript
	}
	return l
}
