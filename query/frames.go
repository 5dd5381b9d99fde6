package query

import "strings"

// Stack traces and file:line positions in a task (step 1, task reading):
// Python, Java, Go, Ruby, C#, JavaScript and native (gdb, lldb,
// AddressSanitizer) frames name functions and their files; the engine
// resolves them to symbols in step 2 (refine.go).

// Location is a file, as the task writes it, and a 1-based line.
type Location struct {
	Path string
	Line int
}

// maxLocations bounds the file:line positions of one task the engine
// resolves.
const maxLocations = 8

// Frame is a function a stack trace names, with its file as the trace
// writes it (absolute or relative) and line (0: unknown).
type Frame struct {
	Name, Path string
	Line       int
}

// frames finds function names in stack traces and file paths in them:
//
//	File "app.py", line 12, in full_dispatch_request      (Python)
//	at spark.Service.init(Service.java:120)                (Java)
//	net/http.(*conn).serve(0xc000...)                       (Go)
//	from lib/jekyll/page.rb:12:in `render'                 (Ruby)
//	#3 0x55a4 in leveldb::DBImpl::Write(...) db/db_impl.cc:1201  (gdb, lldb, ASan)
func (b *kwBuilder) frames(s string) {
	// A frame's bare method name (read, get) is a name of many symbols:
	// it comes after every frame's qualified names.
	var bare []string
	defer func() {
		for _, n := range bare {
			b.addCode(&b.comp, n, "c")
		}
	}()
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if fn, p, line, ok := nativeFrame(t); ok {
			if p != "" {
				b.addPath(p)
				b.addLocation(p, line)
			}
			if strings.Contains(fn, ".") {
				b.addWholeFrame(fn, &bare)
			} else {
				bare = append(bare, fn)
			}
			b.addFrame(fn[strings.LastIndexByte(fn, '.')+1:], p, line)
			continue
		}
		switch {
		case strings.HasPrefix(t, "Traceback (most recent call"):
			continue
		case strings.HasPrefix(t, "File \"") && strings.Contains(t, ", in "):
			p, rest, _ := strings.Cut(strings.TrimPrefix(t, "File \""), "\"")
			b.addPath(p)
			fn := strings.TrimSpace(t[strings.LastIndex(t, ", in ")+5:])
			line := 0
			if _, after, ok := strings.Cut(rest, "line "); ok {
				line = leadingInt(after)
			}
			b.addFrame(fn, p, line)
			bare = append(bare, fn)
		case strings.HasPrefix(t, "at ") && strings.Contains(t, "(") && strings.Contains(t, ".java:"):
			q := strings.TrimPrefix(t, "at ")
			q = javaFrameName(q[:strings.IndexByte(q, '(')])
			if f := t[strings.IndexByte(t, '(')+1:]; strings.Contains(f, ".java:") {
				b.addPath(strings.TrimSuffix(f, ")")) // Service.java:120
			}
			b.addWholeFrame(q, &bare)
		case strings.Contains(t, ".rb:") && strings.Contains(t, ":in "):
			p := strings.TrimPrefix(t, "from ")
			f, rest, _ := strings.Cut(p, ":")
			b.addPath(f)
			fn := t[strings.LastIndex(t, ":in ")+4:]
			fn = strings.Trim(fn, "`'‘’ ")
			if i := strings.LastIndexAny(fn, "#."); i >= 0 {
				fn = fn[i+1:]
			}
			b.addFrame(fn, f, leadingInt(rest))
			bare = append(bare, fn)
		case strings.HasPrefix(t, "at ") && csFrame(t):
			// at Ns.Type.<Invoke>d__3.MoveNext() in /src/Type.cs:line 34
			q := csharpFrameName(t[3:strings.IndexByte(t, '(')])
			if _, loc, ok := strings.Cut(t, ") in "); ok {
				if f, line, ok := strings.Cut(loc, ":line "); ok {
					b.addPath(f)
					b.addLocation(f, leadingInt(line))
				}
			}
			if strings.Contains(q, ".") {
				b.addWholeFrame(q, &bare)
			}
		case strings.HasPrefix(t, "at ") && jsFrame(t):
			// at Router.handle (/app/lib/router/index.js:284:7)
			// at async Server.listen (file:///srv/app.mjs:10:3)
			fn, loc, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "at "), "async "), " (")
			fn, _, _ = strings.Cut(fn, " [as ")
			loc = strings.TrimPrefix(strings.TrimSuffix(loc, ")"), "file://")
			f, rest, _ := strings.Cut(loc, ":")
			b.addPath(f)
			if i := strings.LastIndexByte(fn, '.'); i >= 0 {
				fn = fn[i+1:]
			}
			if isIdent(strings.ReplaceAll(fn, "$", "_")) {
				b.addFrame(fn, f, leadingInt(rest))
				bare = append(bare, fn)
			}
		case strings.HasSuffix(t, ")") && strings.Contains(t, ".(") || goFrame(t):
			q := t[:strings.IndexByte(t, '(')]
			if strings.Contains(t, ".(") {
				q = t[:strings.Index(t, ".(")]
				rest := t[strings.Index(t, ".(")+2:]
				if typ, after, ok := strings.Cut(rest, ")."); ok {
					typ = strings.TrimPrefix(typ, "*")
					m := after
					if i := strings.IndexByte(m, '('); i >= 0 {
						m = m[:i]
					}
					b.addCode(&b.comp, typ+"."+m, "c")
					bare = append(bare, m)
					continue
				}
			}
			b.addQualified(q, &bare)
		}
	}
}

// maxFrames bounds the frames of one task the engine resolves.
const maxFrames = 16

// addFrame records a function of a trace and its file.
func (b *kwBuilder) addFrame(fn, path string, line int) {
	if fn == "" || path == "" || len(b.traceFrames) == maxFrames || strings.HasPrefix(fn, "<") {
		return // <module>, <lambda>, <anonymous>
	}
	b.traceFrames = append(b.traceFrames, Frame{Name: fn, Path: path, Line: line})
}

// csFrame matches a .NET stack-trace line: "at Ns.Type.Method(args)",
// with " in File.cs:line N" after it when symbols were loaded.
func csFrame(t string) bool {
	i := strings.IndexByte(t, '(')
	if i < 4 || strings.ContainsAny(t[3:i], " \t") || !strings.Contains(t[3:i], ".") {
		return false
	}
	return strings.Contains(t, ") in ") && strings.Contains(t, ":line ") || strings.HasSuffix(t, ")")
}

// csharpFrameName turns a .NET frame's method name into the source one:
// an async method's or iterator's state machine (<Invoke>d__3.MoveNext)
// and a lambda (<UseOcelotPipeline>b__0) stand for the method that wrote
// them, a closure class (<>c__DisplayClass0_0) is left out, and generic
// arity (List`1) is dropped.
func csharpFrameName(q string) string {
	var out []string
	machine := false
	for _, seg := range strings.Split(q, ".") {
		if strings.HasPrefix(seg, "<") {
			if name, _, ok := strings.Cut(seg[1:], ">"); ok && name != "" {
				out = append(out, name)
				machine = true
			}
			continue
		}
		if machine && seg == "MoveNext" {
			continue
		}
		if i := strings.IndexByte(seg, '`'); i >= 0 {
			seg = seg[:i]
		}
		if seg != "" {
			out = append(out, seg)
		}
	}
	return strings.Join(out, ".")
}

// jsFrame matches a JavaScript or TypeScript stack-trace line with a
// function name: "at name (file.js:1:2)".
func jsFrame(t string) bool {
	i := strings.Index(t, " (")
	if i < 0 || !strings.HasSuffix(t, ")") {
		return false
	}
	loc := t[i+2 : len(t)-1]
	f, _, ok := strings.Cut(strings.TrimPrefix(loc, "file://"), ":")
	return ok && isFileName(f[strings.LastIndexByte(f, '/')+1:]) && !strings.HasSuffix(f, ".java")
}

// leadingInt returns the number s starts with, 0 if none.
func leadingInt(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1<<24; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// addWholeFrame adds a frame's whole qualified name first, when it has
// a package or namespace (it tells a nested class apart from its
// namesakes: MapTypeAdapterFactory.Adapter.read), then as addQualified.
func (b *kwBuilder) addWholeFrame(q string, bare *[]string) {
	if strings.Count(q, ".") >= 2 {
		b.addCode(&b.comp, q, "c")
	}
	b.addQualified(q, bare)
}

// addQualified adds a frame's Container.name now and its bare name to
// bare, to be added after every frame's qualified names.
func (b *kwBuilder) addQualified(q string, bare *[]string) {
	parts := splitQualified(q)
	for _, p := range parts[:len(parts)-1] {
		b.addCode(&b.comp, p, "c")
	}
	*bare = append(*bare, parts[len(parts)-1])
}

// javaFrameName turns the binary name of a Java frame's method into the
// source one: a nested class's '$' becomes '.', an anonymous class ($1)
// is left out, and a lambda (lambda$register$0) stands for the method
// that wrote it: com.x.Outer$Inner.read → com.x.Outer.Inner.read.
func javaFrameName(q string) string {
	if !strings.Contains(q, "$") {
		return q
	}
	var out []string
	for _, seg := range strings.Split(q, ".") {
		if strings.HasPrefix(seg, "lambda$") {
			if name, _, ok := strings.Cut(seg[len("lambda$"):], "$"); ok && name != "" {
				out = append(out, name)
			}
			continue
		}
		for _, part := range strings.Split(seg, "$") {
			if part != "" && !allDigits(part) {
				out = append(out, part)
			}
		}
	}
	return strings.Join(out, ".")
}

// goFrame matches "pkg/path.Func(...)" lines of a Go panic trace.
func goFrame(t string) bool {
	i := strings.IndexByte(t, '(')
	if i <= 0 || !strings.HasSuffix(t, ")") || strings.ContainsAny(t[:i], " \t") {
		return false
	}
	return strings.Contains(t[:i], ".") && strings.Contains(t[:i], "/")
}

// addLocation records a file:line position (Keywords.Locations); a line
// of 0 is none.
func (b *kwBuilder) addLocation(path string, line int) {
	if line > 0 && len(b.locations) < maxLocations {
		b.locations = append(b.locations, Location{Path: path, Line: line})
	}
}

// stripLine removes a trailing ":line" or ":line:column" from a token.
func stripLine(s string) string {
	for k := 0; k < 2; k++ {
		i := strings.LastIndexByte(s, ':')
		if i <= 0 || !allDigits(s[i+1:]) {
			break
		}
		s = s[:i]
	}
	return s
}

// nativeFrame reads a frame of a native backtrace: gdb's
//
//	#3  0x000055555555a1b2 in leveldb::DBImpl::Write (this=0x5555, updates=0x0) at db/db_impl.cc:1201
//	#0  redisCommand (c=0x7ffff) at server.c:412
//
// lldb's
//
//	frame #3: 0x0000000100003f2c db_test`leveldb::DBImpl::Write(leveldb::WriteOptions const&, leveldb::WriteBatch*) + 44 at db_impl.cc:1201:5
//
// and AddressSanitizer's (or a symbolizer's)
//
//	#0 0x4f2c3a in redisCommand /src/redis/src/server.c:412:5
//	#1 0x7f3a in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x21b96)
//
// The function's C++ scopes become dots (leveldb.DBImpl.Write), its
// template arguments, anonymous namespaces, ABI tags and lambdas are left
// out; path is "" when the frame names no source file (line 0). A frame
// of the C or C++ runtime (std::, __libc_start_main) or an unknown one
// (??) is no frame.
func nativeFrame(t string) (fn, path string, line int, ok bool) {
	fn, path, line, _, ok = parseNative(t)
	return fn, path, line, ok
}

// parseNative is nativeFrame, and the span of t that holds the
// function's parameter list ([0, 0] when it has none).
func parseNative(t string) (fn, path string, line int, args [2]int, ok bool) {
	s := strings.TrimPrefix(t, "* ")
	s = strings.TrimPrefix(s, "frame ")
	if len(s) < 3 || s[0] != '#' || s[1] < '0' || s[1] > '9' {
		return "", "", 0, args, false
	}
	i := 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	s = strings.TrimLeft(strings.TrimPrefix(s[i:], ":"), " \t")
	addr := strings.HasPrefix(s, "0x")
	if addr {
		j := strings.IndexAny(s, " \t")
		if j < 0 {
			return "", "", 0, args, false
		}
		s = strings.TrimLeft(s[j:], " \t")
	}
	if rest, found := strings.CutPrefix(s, "in "); found {
		s = rest
	} else if !addr && !strings.Contains(s, " at ") {
		return "", "", 0, args, false // "#1 is broken": not a frame
	}
	if i := strings.IndexByte(s, '`'); i > 0 && !strings.ContainsAny(s[:i], " (") {
		s = s[i+1:] // lldb's module`function
	}
	end := nameEnd(s)
	name, rest := s[:end], s[end:]
	if p := len(t) - len(strings.TrimLeft(rest, " \t")); p < len(t) && t[p] == '(' {
		if q := matchParen(t, p); q > 0 {
			args = [2]int{p, q}
		}
	}
	if i := strings.Index(rest, " at "); i >= 0 {
		rest = rest[i+4:]
	} else if f := strings.Fields(rest); len(f) > 0 {
		rest = f[len(f)-1]
	}
	if loc := strings.TrimSpace(rest); !strings.Contains(loc, "+0x") {
		loc = strings.Trim(loc, "()")
		p := stripLine(loc)
		if p != loc && isFileName(p[strings.LastIndexAny(p, "/\\")+1:]) {
			path, line = p, leadingInt(loc[len(p)+1:])
		}
	}
	fn = nativeName(name)
	if fn == "" || strings.HasPrefix(fn, "__") || strings.HasPrefix(fn, "std.") || !isIdent(nativeNameDots.Replace(fn)) {
		return "", "", 0, args, false
	}
	return fn, path, line, args, true
}

// nameEnd is where a native frame's function name ends: at its
// parameters, a space or a "+ offset", outside template arguments;
// (anonymous namespace) and operator() belong to the name.
func nameEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth > 0:
		case strings.HasPrefix(s[i:], "(anonymous namespace)"):
			i += len("(anonymous namespace)") - 1
		case strings.HasPrefix(s[i:], "operator()"):
			i += len("operator()") - 1
		case c == '(' || c == ' ' || c == '\t' || c == '+':
			return i
		}
	}
	return len(s)
}

// nativeName turns a native frame's function into a dotted source name:
// leveldb::(anonymous namespace)::PosixEnv::NewWritableFile is
// leveldb.PosixEnv.NewWritableFile, Cache<K, V>::Lookup is Cache.Lookup,
// and a lambda's frame (Write(...)::$_0::operator()) is the function
// that wrote it.
func nativeName(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	var out []string
	for _, seg := range strings.Split(b.String(), "::") {
		seg, _, _ = strings.Cut(seg, "[abi:")
		seg, _, _ = strings.Cut(seg, "(")
		if seg == "" || seg == "(anonymous namespace)" {
			continue
		}
		if strings.HasPrefix(seg, "$") || strings.HasPrefix(seg, "{") || strings.HasPrefix(seg, "'") ||
			strings.HasPrefix(seg, "operator") && len(out) > 0 && strings.Contains(s, "lambda") {
			break
		}
		out = append(out, seg)
	}
	return strings.Join(out, ".")
}

// withoutNativeArgs blanks the parameter lists of the task's native
// frames (leveldb::DBImpl::Write(leveldb::WriteOptions const&, ...)), for
// the passes after frames: the frame names its function, and the types
// of its parameters are not what the trace is about. A task without
// such frames is returned as it is.
func withoutNativeArgs(task string) string {
	if !strings.Contains(task, "#") {
		return task
	}
	lines := strings.SplitAfter(task, "\n")
	changed := false
	for i, line := range lines {
		lead := len(line) - len(strings.TrimLeft(line, " \t"))
		_, _, _, args, ok := parseNative(strings.TrimSpace(line))
		if !ok || args[1] == 0 {
			continue
		}
		from, to := lead+args[0], lead+args[1]
		lines[i] = line[:from] + strings.Repeat(" ", to-from) + line[to:]
		changed = true
	}
	if !changed {
		return task
	}
	return strings.Join(lines, "")
}

// matchParen is the position after the parenthesis closing the one at
// open, -1 when it is not closed.
func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// nativeNameDots maps the separators a native frame's name may hold
// (leveldb.DBImpl.~DBImpl) to an identifier byte, for isIdent.
var nativeNameDots = strings.NewReplacer(".", "_", "~", "_")
