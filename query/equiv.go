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
	lang    snapshot.Lang // 0: any language
	phrases []string
	targets []string
}

// genericTargets resolve to hundreds of unrelated symbols in any large
// codebase; they are never used as targets.
var genericTargets = set(`get set do new run put post call add pop init main handle handler apply value
update load save read write open close start stop next test build make create`)

// Universal concepts: web servers, CLIs, configuration, persistence,
// packaging. Language concepts follow.
var concepts = []concept{
	{id: "HTTP_MIDDLEWARE", phrases: []string{"middleware", "request hook", "before request", "after request", "interceptor", "filter chain", "request filter", "before each request", "after each request"},
		targets: []string{"Middleware", "MiddlewareHandler", "ServeHTTP", "before_request", "after_request", "teardown_request", "before_app_request", "BeforeFilter", "AfterFilter", "Filter", "Interceptor", "wrap", "Chain"}},
	{id: "ROUTING", phrases: []string{"route", "routes", "routing", "url rule", "url pattern", "path pattern", "endpoint", "dispatch request", "match request"},
		targets: []string{"Route", "Router", "route", "add_url_rule", "Routes", "RouteMatcher", "Match", "MatchPath", "match", "dispatch_request", "Dispatch", "find_route", "handle_route", "url_for", "Mux", "ServeMux"}},
	{id: "ERROR_HANDLING", phrases: []string{"error handler", "error handling", "handle errors", "exception handler", "handle exception", "error page", "custom error", "http error", "error response"},
		targets: []string{"errorhandler", "register_error_handler", "handle_exception", "handle_http_exception", "handle_user_exception", "ErrorHandler", "HandleError", "HTTPError", "HTTPException", "Error", "handleError", "on_error", "rescue"}},
	{id: "AUTHENTICATION", phrases: []string{"authentication", "authenticate", "login", "log in", "credentials", "api key", "api keys", "basic auth", "bearer token", "access token", "auth token", "password"},
		targets: []string{"Authenticate", "authenticate", "Authenticator", "Authentication", "BasicAuth", "login", "Login", "credentials", "Credentials", "auth_token", "Token", "verify_password", "check_password", "Authorization"}},
	{id: "CONFIGURATION", phrases: []string{"configuration", "config file", "settings", "config values", "load config", "configure", "options from"},
		targets: []string{"Config", "Configuration", "Settings", "load_config", "LoadConfig", "from_file", "from_object", "from_envvar", "from_mapping", "ParseConfig", "GlobalContext", "Options"}},
	{id: "CLI", phrases: []string{"command line", "cli", "subcommand", "command-line", "flags", "cli command", "argument parsing", "parse arguments"},
		targets: []string{"Command", "Cli", "CLI", "main", "Execute", "execute", "Run", "parse_args", "ArgMatches", "App", "FlagSet", "Parse", "cli", "exec", "cmd"}},
	{id: "LOGGING", phrases: []string{"logging", "logger", "log messages", "log level", "structured log"},
		targets: []string{"Logger", "logger", "Log", "log", "Logf", "create_logger", "Warn", "Debug", "Info", "Handler"}},
	{id: "TEMPLATES", phrases: []string{"template", "templates", "templating", "render template", "render html", "template filter", "liquid"},
		targets: []string{"render_template", "Template", "render", "Render", "Environment", "template_filter", "add_template_filter", "Renderer", "TemplateEngine", "Liquid", "render_liquid"}},
	{id: "SERIALIZATION", phrases: []string{"json", "serialize", "serialization", "deserialize", "marshal", "unmarshal", "encode", "decode", "yaml", "toml"},
		targets: []string{"Marshal", "Unmarshal", "Encoder", "Decoder", "Encode", "Decode", "dumps", "loads", "to_json", "from_json", "jsonify", "JSONProvider", "Serializer", "Deserialize", "Serialize", "parse"}},
	{id: "SESSIONS_COOKIES", phrases: []string{"session", "sessions", "cookie", "cookies", "session cookie"},
		targets: []string{"Session", "SessionInterface", "open_session", "save_session", "Cookie", "SetCookie", "set_cookie", "cookies", "SecureCookieSessionInterface"}},
	{id: "STATIC_FILES", phrases: []string{"static files", "static file", "serve files", "file server", "static assets"},
		targets: []string{"FileServer", "send_static_file", "send_file", "send_from_directory", "StaticFiles", "ServeFile", "staticFiles", "StaticFilesConfiguration"}},
	{id: "HTTP_REQUEST_RESPONSE", phrases: []string{"request object", "response object", "query parameters", "query params", "request body", "response headers", "status code", "request headers", "form data"},
		targets: []string{"Request", "Response", "queryParams", "query_params", "args", "form", "headers", "header", "status", "body", "make_response", "ResponseWriter", "WriteHeader"}},
	{id: "REDIRECTS", phrases: []string{"redirect", "redirects", "redirection"},
		targets: []string{"redirect", "Redirect", "RedirectHandler", "StaticResponse", "redirect_to"}},
	{id: "APP_CONTEXT", phrases: []string{"application context", "app context", "request context", "context local", "teardown"},
		targets: []string{"AppContext", "RequestContext", "app_context", "request_context", "teardown_appcontext", "push", "pop", "has_app_context", "Context"}},
	{id: "DATABASE", phrases: []string{"database", "sql", "query builder", "connection pool", "transaction", "orm"},
		targets: []string{"DB", "Database", "Conn", "Connection", "Tx", "Transaction", "Begin", "Commit", "Rollback", "Query", "Exec", "Pool", "connect"}},
	{id: "CACHING", phrases: []string{"cache", "caching", "memoize", "cached"},
		targets: []string{"Cache", "cache", "LRU", "get_or_insert", "memoize", "Cached", "invalidate"}},
	{id: "CONCURRENCY", phrases: []string{"concurrency", "concurrent", "thread safe", "thread-safe", "lock", "mutex", "goroutine", "parallel", "worker pool", "race condition"},
		targets: []string{"Mutex", "RWMutex", "Lock", "Unlock", "WaitGroup", "sync", "Pool", "spawn", "JobQueue", "Worker", "Semaphore"}},
	{id: "RETRY_TIMEOUT", phrases: []string{"retry", "retries", "backoff", "timeout", "timeouts", "deadline"},
		targets: []string{"Retry", "retry", "Backoff", "with_retry", "Timeout", "timeout", "Deadline", "SetDeadline", "WithTimeout"}},
	{id: "TLS_CERTS", phrases: []string{"tls", "ssl", "https", "certificate", "certificates", "acme"},
		targets: []string{"TLS", "TLSConfig", "Certificate", "tls", "ConnectionPolicy", "AutomationPolicy", "GetCertificate", "secure"}},
	{id: "REVERSE_PROXY", phrases: []string{"reverse proxy", "proxy", "load balancing", "load balancer", "upstream", "upstreams", "health check"},
		targets: []string{"ReverseProxy", "Handler", "Upstream", "UpstreamPool", "LoadBalancing", "Selector", "HealthChecks", "Transport", "RoundTrip", "Proxy"}},
	{id: "COMPRESSION", phrases: []string{"gzip", "compression", "compress", "encode responses", "zstd"},
		targets: []string{"Gzip", "Encode", "gzip", "Compressor", "Encoder", "Encoding"}},
	{id: "PLUGINS", phrases: []string{"plugin", "plugins", "extension", "extensions", "module registration", "register module", "hooks"},
		targets: []string{"Plugin", "Plugins", "RegisterModule", "Module", "ModuleInfo", "Extension", "register", "Hooks", "Hook", "trigger", "GetModule"}},
	{id: "EVENTS_SIGNALS", phrases: []string{"signal", "signals", "event", "events", "emit", "subscribe", "listener", "observer"},
		targets: []string{"Signal", "signal", "Event", "emit", "Emit", "subscribe", "Subscribe", "on", "listen", "Listener", "Hooks", "trigger"}},
	{id: "FILE_WATCHING", phrases: []string{"watch files", "file watcher", "watch mode", "auto reload", "live reload", "reloader", "regenerate on change"},
		targets: []string{"Watcher", "watch", "Watch", "run_with_reloader", "reload", "Reload", "listen"}},
	{id: "STATIC_SITE", phrases: []string{"site generation", "build the site", "generate site", "front matter", "permalink", "permalinks", "collections", "posts", "pages", "drafts", "excerpt", "markdown", "converter"},
		targets: []string{"Site", "process", "render", "Page", "Document", "Collection", "Post", "permalink", "url", "FrontMatter", "Converter", "Markdown", "convert", "Excerpt", "Reader", "Renderer", "Generator"}},
	{id: "DEPENDENCY_RESOLUTION", phrases: []string{"dependency resolution", "resolve dependencies", "resolver", "version requirement", "semver", "lockfile", "lock file", "dependency graph"},
		targets: []string{"resolve", "Resolve", "Resolver", "resolve_with_config", "ResolveOpts", "Dependency", "VersionReq", "Lockfile", "load_pkg_lockfile", "write_pkg_lockfile", "EncodableResolve", "PackageId"}},
	{id: "PACKAGE_REGISTRY", phrases: []string{"registry", "registries", "publish", "crates.io", "index", "download packages", "package index", "sparse"},
		targets: []string{"Registry", "RegistrySource", "RegistryData", "HttpRegistry", "RemoteRegistry", "publish", "Download", "download", "Index", "RegistryIndex", "Source", "SourceId", "auth_token"}},
	{id: "BUILD_COMPILE", phrases: []string{"compile", "compilation", "build script", "build scripts", "compiler", "rustc", "build jobs", "build plan"},
		targets: []string{"compile", "Compilation", "BuildRunner", "BuildContext", "BuildConfig", "BuildOutput", "Unit", "JobQueue", "Job", "Compiler", "compile_ws", "prepare", "build_script"}},
	{id: "MANIFEST", phrases: []string{"manifest", "cargo.toml", "package.json", "workspace", "workspace members", "features", "feature flags"},
		targets: []string{"Manifest", "TomlManifest", "Workspace", "read_manifest", "Package", "Features", "FeatureValue", "Summary", "parse_manifest", "WorkspaceConfig"}},
	{id: "TESTING", phrases: []string{"unit test", "unit tests", "test client", "test runner", "test harness", "fixtures", "mocking", "test suite"},
		targets: []string{"test_client", "TestClient", "FlaskClient", "CliRunner", "Test", "Tests", "fixture", "Fixture", "run_tests", "TestCase"}},
	{id: "SHUTDOWN", phrases: []string{"graceful shutdown", "shut down", "shutdown", "stop the server", "drain connections"},
		targets: []string{"Shutdown", "shutdown", "Stop", "stop", "Close", "GracefulShutdown", "Drain"}},
	{id: "WEBSOCKETS", phrases: []string{"websocket", "websockets", "web socket"},
		targets: []string{"WebSocket", "WebSocketHandler", "websocket", "Upgrade", "upgrade", "WebSocketServletContextHandler"}},
	{id: "RATE_LIMIT", phrases: []string{"rate limit", "rate limiting", "throttle", "throttling", "too many requests"},
		targets: []string{"RateLimiter", "Limiter", "rate_limit", "Throttle", "TokenBucket"}},
	{id: "ENCODING_URL", phrases: []string{"url building", "build urls", "url generation", "reverse url", "url encode", "query string"},
		targets: []string{"url_for", "UrlFor", "build", "url_quote", "QueryEscape", "Values", "urlencode", "ParseQuery"}},

	// Language and ecosystem specific names for the same ideas.
	{id: "PY_APP_ENTRY", lang: snapshot.LangPython, phrases: []string{"application factory", "create app", "wsgi", "entry point", "run the app", "development server"},
		targets: []string{"create_app", "wsgi_app", "__call__", "run", "make_server", "run_simple", "Flask", "Application"}},
	{id: "PY_BLUEPRINTS", lang: snapshot.LangPython, phrases: []string{"blueprint", "blueprints", "modular app", "sub application"},
		targets: []string{"Blueprint", "register_blueprint", "BlueprintSetupState", "record", "record_once", "register"}},
	{id: "PY_CLI", lang: snapshot.LangPython, phrases: []string{"command line", "cli", "click command", "cli command", "custom command"},
		targets: []string{"FlaskGroup", "AppGroup", "with_appcontext", "ScriptInfo", "command", "group", "main", "cli"}},
	{id: "GO_HTTP_HANDLER", lang: snapshot.LangGo, phrases: []string{"http handler", "middleware", "handler chain", "serve http", "request handler"},
		targets: []string{"ServeHTTP", "Handler", "HandlerFunc", "MiddlewareHandler", "Middleware", "ServeMux", "Handle", "HandleFunc"}},
	{id: "GO_MODULES", lang: snapshot.LangGo, phrases: []string{"module", "modules", "plugin", "provision", "validate config", "caddyfile", "directive"},
		targets: []string{"CaddyModule", "Provision", "Validate", "UnmarshalCaddyfile", "RegisterModule", "ModuleInfo", "Cleanup", "RegisterHandlerDirective", "RegisterDirective"}},
	{id: "JAVA_SERVLET", lang: snapshot.LangJava, phrases: []string{"servlet", "filter", "before filter", "after filter", "embedded server", "jetty"},
		targets: []string{"Filter", "doFilter", "Servlet", "HttpServlet", "service", "before", "after", "EmbeddedServer", "JettyServer", "MatcherFilter", "FilterImpl"}},
	{id: "JAVA_ROUTES", lang: snapshot.LangJava, phrases: []string{"route", "routes", "get request", "post request", "path parameter", "halt"},
		targets: []string{"Route", "Routes", "RouteImpl", "addRoute", "get", "post", "halt", "params", "splat", "Routable", "RouteMatch"}},
	{id: "RUBY_PLUGINS", lang: snapshot.LangRuby, phrases: []string{"plugin", "plugins", "generator", "converter", "liquid tag", "liquid filter", "hook", "hooks"},
		targets: []string{"Plugin", "Generator", "Converter", "Tag", "Block", "Filters", "Hooks", "register", "trigger", "PluginManager", "Command"}},
	{id: "RUST_ERRORS", lang: snapshot.LangRust, phrases: []string{"error handling", "error message", "error context", "anyhow", "errors"},
		targets: []string{"CargoResult", "CliError", "CargoError", "internal", "with_context", "context", "AlreadyPrintedError", "HttpNotSuccessful"}},
	{id: "RUST_CONFIG", lang: snapshot.LangRust, phrases: []string{"configuration", "config file", "config value", "environment variable", "env var"},
		targets: []string{"GlobalContext", "get", "get_string", "get_list", "ConfigValue", "Definition", "CV", "env_config", "ConfigKey"}},
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
	var out []conceptMatch
	for i := range concepts {
		c := &concepts[i]
		n, multi := 0, false
		for _, p := range c.phrases {
			if containsWords(lower, p) {
				n++
				if strings.Contains(p, " ") {
					multi = true
				}
			}
		}
		if n > 0 {
			out = append(out, conceptMatch{c: c, strong: n >= 2 || multi, count: n})
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
func (e *Engine) equivChannel(ws *workspace, lower string, primary int) []uint32 {
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
	tests := strings.Contains(lower, "test")
	var m matchSet
	for _, cm := range matches {
		perTarget := 3
		if !cm.strong {
			// One single-word phrase ("build", "route") is weak evidence:
			// the seed document gates concepts on two phrases or a
			// multi-word one.
			perTarget = int(tune.WeakEquiv)
			if perTarget == 0 {
				continue
			}
		}
		for _, t := range cm.c.targets {
			if len(t) <= 3 || genericTargets[strings.ToLower(t)] {
				continue
			}
			ws.ids = e.s.LookupName(strings.ToLower(t), ws.ids[:0])
			e.prefer(ws.ids, tests)
			taken := 0
			for _, id := range ws.ids {
				if len(m.ids) >= limit || taken >= perTarget {
					break
				}
				if cm.c.lang != 0 && e.s.Lang(id) != cm.c.lang {
					continue
				}
				if !e.keep(id, tests) {
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
