package java

import (
	"fmt"
	"slices"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// extractSource runs the extractor on one source text.
func extractSource(t *testing.T, path, src string) *extract.FileResult {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tsjava.Language())); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse([]byte(src), nil)
	defer tree.Close()
	r := &extract.FileResult{Path: path}
	extractJava(&extract.File{Path: path, Src: []byte(src), Root: tree.RootNode(), Repo: extract.NewRepo(t.TempDir())}, r)
	return r
}

// calls renders the call references as "qual|qualType|name".
func calls(r *extract.FileResult) []string {
	var out []string
	for _, ref := range r.Refs {
		if ref.Kind == extract.RefCall {
			out = append(out, fmt.Sprintf("%s|%s|%s", ref.Qual, ref.QualType, ref.Name))
		}
	}
	return out
}

func TestImportsAndPackage(t *testing.T) {
	r := extractSource(t, "src/main/java/a/b/C.java", `package a.b;
import spark.route.Routes;
import spark.route.*;
import static spark.Spark.get;
import static spark.Spark.*;
class C {}
`)
	if r.Package != "a.b" || r.Scope != "a.b" {
		t.Errorf("package %q scope %q", r.Package, r.Scope)
	}
	want := []extract.Import{
		{Path: "spark.route", Name: "Routes"},
		{Path: "spark.route", Name: "*"},
		{Path: "spark.Spark", Name: "get"},
		{Path: "spark.Spark", Name: "*"},
	}
	if !slices.Equal(r.Imports, want) {
		t.Errorf("imports %+v, want %+v", r.Imports, want)
	}
	// Without a package declaration: the folder.
	if r := extractSource(t, "scripts/tools/D.java", "class D {}"); r.Package != "scripts.tools" {
		t.Errorf("folder package %q", r.Package)
	}
}

func TestCallQualifiers(t *testing.T) {
	r := extractSource(t, "p/A.java", `package p;
import java.util.List;
import java.util.ArrayList;
import org.eclipse.jetty.server.Server;
import static org.junit.Assert.*;
class A extends Base {
    private Routes routes;
    private List<Route> list = new ArrayList<>();
    void m(Request req, Server jetty) {
        var r = new Route("/");
        r.match();                 // typed by var = new
        req.body();                // typed parameter
        routes.add(r);             // typed field
        this.routes.find();        // field through this
        inherited.go();            // a field declared in a base elsewhere
        list.get(0).match();       // element of a JDK container
        list.add(r);               // JDK: dropped
        jetty.start();             // library type: dropped
        assertEquals(1, 2);        // library static: dropped
        Routes.create().add(r);    // result of a static call
        p.q.Util.help();           // fully qualified type
        Outer.Inner.make();        // nested type
        super.m(req, jetty);
        Runnable x = this::helper;
        java.util.Objects.equals(r, r);
        x.toString();              // Object's method on an unknown receiver: dropped
    }
    void helper() {}
}
`)
	want := []string{
		"Route|Route|Route",
		"r|Route|match",
		"req|Request|body",
		"routes|Routes|add",
		"this.routes||find",
		"this.inherited||go",
		"get()|Route|match",
		"create()|call:Routes.create|add",
		"Routes||create",
		"Util|p.q.Util|help",
		"Inner|Outer.Inner|make",
		"super||m",
		"this||helper",
	}
	if got := calls(r); !slices.Equal(got, want) {
		t.Errorf("calls\n got %q\nwant %q", got, want)
	}
}

func TestConstructorsAndAnonymous(t *testing.T) {
	r := extractSource(t, "p/B.java", `package p;
class B extends Base {
    B() { this(1); }
    B(int x) { super(x); }
    Filter f() {
        return new Filter() {
            public void handle(Request q) { super.handle(q); q.done(); }
        };
    }
}
`)
	want := []string{
		"this||B",
		"Base|Base|Base",
		"Filter|Filter|Filter",
		"(super)|Filter|handle",
		"q|Request|done",
	}
	if got := calls(r); !slices.Equal(got, want) {
		t.Errorf("calls\n got %q\nwant %q", got, want)
	}
	var names []string
	for _, s := range r.Symbols {
		names = append(names, s.Kind.String()+" "+s.Name)
	}
	if want := []string{"class B", "constructor B", "constructor B", "method f"}; !slices.Equal(names, want) {
		t.Errorf("symbols %q, want %q", names, want)
	}
}

func TestProjectRoot(t *testing.T) {
	for in, want := range map[string]string{
		"spark.route":               "spark",
		"org.eclipse.jetty.server":  "org.eclipse.jetty",
		"com.acme.billing":          "com.acme",
		"org.apache.kafka.clients":  "org.apache.kafka",
		"org.apache.commons.lang3":  "org.apache.commons",
		"com.google.common.collect": "com.google.common",
	} {
		if got := projectRoot(in); got != want {
			t.Errorf("projectRoot(%q) = %q, want %q", in, got, want)
		}
	}
}

// A single-type import shadows a type of the same name in the file's own
// package, so imported names are given in full.
func TestImportedNamesInFull(t *testing.T) {
	r := extractSource(t, "spark/http/matching/RouteContext.java", `package spark.http.matching;
import spark.route.Routes;
class RouteContext {
    private Routes routeMatcher;
    Routes.Entry entry() { return routeMatcher.first(); }
}
`)
	var types []string
	for _, s := range r.Symbols {
		types = append(types, s.Name+":"+s.Type)
	}
	if want := []string{"RouteContext:", "routeMatcher:spark.route.Routes", "entry:spark.route.Routes.Entry"}; !slices.Equal(types, want) {
		t.Errorf("types %q, want %q", types, want)
	}
	if got, want := calls(r), []string{"routeMatcher|spark.route.Routes|first"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	var refs []string
	for _, ref := range r.Refs {
		if ref.Kind != extract.RefCall {
			refs = append(refs, ref.Qual+"."+ref.Name)
		}
	}
	if want := []string{"spark.route.Routes", "spark.route.Routes.Entry"}; !slices.Equal(refs, want) {
		t.Errorf("type refs %q, want %q", refs, want)
	}
}
