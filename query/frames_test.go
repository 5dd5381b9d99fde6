package query

import (
	"slices"
	"strings"
	"testing"
)

func TestKeywordsStackTraces(t *testing.T) {
	py := "Traceback (most recent call last):\n  File \"src/flask/app.py\", line 1511, in wsgi_app\n    response = self.full_dispatch_request()\nKeyError: 'user'"
	k := ExtractKeywords(py)
	if !slices.Contains(k.Compounds, "wsgi_app") || !slices.Contains(k.Compounds, "full_dispatch_request") {
		t.Errorf("python frames: %v", k.Compounds)
	}
	if !slices.Contains(k.Paths, "src/flask/app.py") {
		t.Errorf("paths %v", k.Paths)
	}
	for _, c := range k.Compounds {
		if strings.HasPrefix(c, "self.") {
			t.Errorf("self-qualified compound kept: %v", k.Compounds)
		}
	}
	goTrace := "panic: sync: negative WaitGroup counter\n\ngoroutine 1 [running]:\nsync.(*WaitGroup).Add(0xc000012345, 0xffffffffffffffff)\n\t/usr/local/go/src/sync/waitgroup.go:64 +0x125"
	k = ExtractKeywords(goTrace)
	if !slices.Contains(k.Compounds, "WaitGroup.Add") {
		t.Errorf("go frame: %v", k.Compounds)
	}
	if !slices.Contains(k.Paths, "usr/local/go/src/sync/waitgroup.go") {
		t.Errorf("go path: %v", k.Paths)
	}
	for _, c := range k.Components {
		if strings.HasPrefix(c, "0x") {
			t.Errorf("hex address kept: %v", k.Components)
		}
	}
	k = ExtractKeywords("Exception in thread main\n\tat spark.Service.init(Service.java:120)\n\tat spark.Spark.get(Spark.java:33)")
	if !slices.Contains(k.Compounds, "Service.init") {
		t.Errorf("java frame: %v", k.Compounds)
	}
	k = ExtractKeywords("from lib/jekyll/page.rb:12:in `render'")
	if !slices.Contains(k.Compounds, "render") || !slices.Contains(k.Paths, "lib/jekyll/page.rb") {
		t.Errorf("ruby frame: %v %v", k.Compounds, k.Paths)
	}
}

// TestJavaFrames checks a Java trace: nested classes written with '$'
// become source names, the whole frame name comes first, bare method
// names come after every frame's qualified ones, and File.java:397 is a
// path, not a Class.member.
func TestJavaFrames(t *testing.T) {
	k := ExtractKeywords("com.google.gson.JsonSyntaxException: bad\n" +
		"\tat com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:397)\n" +
		"\tat com.google.gson.Gson.lambda$fromJson$0(Gson.java:1227)\n" +
		"\tat com.google.gson.Gson$1.run(Gson.java:90)")
	want := []string{
		"com.google.gson.internal.bind.ReflectiveTypeAdapterFactory.Adapter.read", "Adapter.read",
		"com.google.gson.Gson.fromJson", "Gson.fromJson", "com.google.gson.Gson.run", "Gson.run",
		"read", "fromJson", "run",
	}
	if len(k.Compounds) < len(want) || !slices.Equal(k.Compounds[:len(want)], want) {
		t.Errorf("compounds %q, want them to start %q", k.Compounds, want)
	}
	for _, c := range k.Compounds {
		if strings.ContainsAny(c, "$:") {
			t.Errorf("binary or file:line name kept: %q", c)
		}
	}
	for _, p := range []string{"ReflectiveTypeAdapterFactory.java", "Gson.java"} {
		if !slices.Contains(k.Paths, p) {
			t.Errorf("paths %q lack %s", k.Paths, p)
		}
	}
}

// TestTraceFrames checks that Python, Ruby and JavaScript traces yield
// each frame's function, file and line, and skip <module>-like frames.
func TestTraceFrames(t *testing.T) {
	k := ExtractKeywords("Traceback (most recent call last):\n" +
		"  File \"/srv/app.py\", line 12, in <module>\n" +
		"  File \"/venv/lib/site-packages/flask/app.py\", line 880, in full_dispatch_request\n" +
		"from lib/jekyll/page.rb:42:in `render'\n" +
		"    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)\n" +
		"    at async Server.listen (file:///srv/app.mjs:10:3)\n" +
		"\tat spark.Service.init(Service.java:120)")
	want := []Frame{
		{"full_dispatch_request", "/venv/lib/site-packages/flask/app.py", 880},
		{"render", "lib/jekyll/page.rb", 42},
		{"handle", "/app/node_modules/express/lib/router/layer.js", 95},
		{"listen", "/srv/app.mjs", 10},
	}
	if !slices.Equal(k.Frames, want) {
		t.Errorf("frames %+v,\nwant %+v", k.Frames, want)
	}
}

// TestLocations checks that quoted file:line positions are kept with
// their line: a Rust panic, a Go trace's file line, a compiler error.
func TestLocations(t *testing.T) {
	k := ExtractKeywords("thread 'main' panicked at crates/ignore/src/walk.rs:1200:9: called unwrap\n" +
		"goroutine 1 [running]:\nsync.(*WaitGroup).Add(0x0)\n\t/usr/local/go/src/sync/waitgroup.go:64 +0x125\n" +
		"src/app.ts:12: error TS2345, see notes.txt and version 1.2:3")
	want := []Location{{"crates/ignore/src/walk.rs", 1200}, {"usr/local/go/src/sync/waitgroup.go", 64}, {"src/app.ts", 12}}
	if !slices.Equal(k.Locations, want) {
		t.Errorf("locations %+v, want %+v", k.Locations, want)
	}
}

// TestCSharpFrames checks a .NET trace: an async method's state machine
// and a lambda stand for the methods that wrote them, a closure class is
// left out, and the frame's file and line are a location.
func TestCSharpFrames(t *testing.T) {
	k := ExtractKeywords("System.NullReferenceException: Object reference not set\n" +
		"   at Ocelot.Auth.AuthMiddleware.<Invoke>d__3.MoveNext() in /build/src/Auth/AuthMiddleware.cs:line 34\n" +
		"   at Ocelot.Pipeline.Extensions.<>c__DisplayClass0_0.<UsePipeline>b__0(HttpContext ctx)\n" +
		"   at Ocelot.Collections.Bag`1.Add(T item)")
	for _, c := range []string{"Ocelot.Auth.AuthMiddleware.Invoke", "AuthMiddleware.Invoke", "Ocelot.Pipeline.Extensions.UsePipeline", "Ocelot.Collections.Bag.Add"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("compounds %q lack %s", k.Compounds, c)
		}
	}
	if want := (Location{"/build/src/Auth/AuthMiddleware.cs", 34}); !slices.Contains(k.Locations, want) {
		t.Errorf("locations %+v lack %+v", k.Locations, want)
	}
}

// TestNativeFrames checks gdb, lldb and AddressSanitizer frames: the
// function with its C++ scopes as dots and its file and line, runtime
// frames and unknown ones left out, a heading that starts with #1 not
// read as a frame.
func TestNativeFrames(t *testing.T) {
	k := ExtractKeywords("==1234==ERROR: AddressSanitizer: heap-use-after-free on address 0x602\n" +
		"    #0 0x4f2c3a in redisCommand /src/redis/src/server.c:412:5\n" +
		"    #1 0x4f2d00 in leveldb::(anonymous namespace)::PosixEnv::NewWritableFile(std::string const&, leveldb::WritableFile**) util/env_posix.cc:561\n" +
		"    #2 0x7f3a in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x21b96)\n" +
		"#3  0x000055555555a1b2 in leveldb::DBImpl::Write (this=0x5555, options=..., updates=0x0) at db/db_impl.cc:1201\n" +
		"#4  0x0000555555556000 in ?? ()\n" +
		"#5  leveldb::Cache<int, std::string>::Lookup (this=0x1) at util/cache.cc:90\n" +
		"  frame #6: 0x0000000100003f2c db_test`leveldb::Version::Get(leveldb::ReadOptions const&) + 44 at version_set.cc:340:5\n" +
		"#1 is the issue number, see #2 for more")
	want := []Frame{
		{"redisCommand", "/src/redis/src/server.c", 412},
		{"NewWritableFile", "util/env_posix.cc", 561},
		{"Write", "db/db_impl.cc", 1201},
		{"Lookup", "util/cache.cc", 90},
		{"Get", "version_set.cc", 340},
	}
	if !slices.Equal(k.Frames, want) {
		t.Errorf("frames %+v,\nwant %+v", k.Frames, want)
	}
	for _, c := range []string{"leveldb.DBImpl.Write", "DBImpl.Write", "leveldb.PosixEnv.NewWritableFile", "Cache.Lookup", "Version.Get", "redisCommand"} {
		if !slices.Contains(k.Compounds, c) {
			t.Errorf("compounds %q lack %s", k.Compounds, c)
		}
	}
	for _, c := range k.Compounds {
		if strings.Contains(c, "::") || strings.Contains(c, "anonymous") || strings.Contains(c, "libc") {
			t.Errorf("compound %q kept", c)
		}
	}
	if want := (Location{"db/db_impl.cc", 1201}); !slices.Contains(k.Locations, want) {
		t.Errorf("locations %+v lack %+v", k.Locations, want)
	}
}

// TestNativeFrameArgs: the parameter types of a native frame are not
// keywords of their own; the function and its file are.
func TestNativeFrameArgs(t *testing.T) {
	k := ExtractKeywords("#3 0x00005555 in leveldb::DBImpl::Write(leveldb::WriteOptions const&, leveldb::WriteBatch*) db/db_impl.cc:1201")
	for _, c := range k.Compounds {
		if strings.Contains(c, "WriteOptions") || strings.Contains(c, "WriteBatch") {
			t.Errorf("parameter type kept: %q", k.Compounds)
		}
	}
	if !slices.Contains(k.Compounds, "DBImpl.Write") || !slices.Contains(k.Paths, "db/db_impl.cc") {
		t.Errorf("compounds %q, paths %q", k.Compounds, k.Paths)
	}
	if got := withoutNativeArgs("#0  f (x=1) at a.c:3\nplain (text) here\n"); got != "#0  f       at a.c:3\nplain (text) here\n" {
		t.Errorf("got %q", got)
	}
}
