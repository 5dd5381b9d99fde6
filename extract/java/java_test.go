package java_test

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	_ "github.com/knowing-dev/knowing/extract/java"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestJavaRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/java")
	const w, rt = "demo.web", "demo.web.route"

	// Symbols, kinds, qualified names, doc comments, signatures, flags.
	if n := b.Node(w + ".Server"); n.Kind != snapshot.KindClass || !strings.HasPrefix(n.Doc, "Server dispatches requests") ||
		n.Signature != "public class Server extends BaseRouter implements Handler" || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("Server: kind %v doc %q sig %q flags %v", n.Kind, n.Doc, n.Signature, n.Flags)
	}
	if n := b.Node(w + ".Handler"); n.Kind != snapshot.KindInterface || n.Doc != "Handler answers one request." {
		t.Errorf("Handler: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node(w + ".Handler.handle"); n.Kind != snapshot.KindMethod || n.Flags&snapshot.FlagExported == 0 ||
		!strings.HasPrefix(n.Doc, "Handles the request") {
		t.Errorf("Handler.handle: kind %v flags %v doc %q", n.Kind, n.Flags, n.Doc)
	}
	if n := b.Node(w + ".Server.handle"); n.Signature != "public void handle(Request req, Response res) throws Exception" ||
		n.Doc != "Dispatches a request to the matching route's handler." {
		t.Errorf("Server.handle: sig %q doc %q", n.Signature, n.Doc)
	}
	if n := b.Node(rt + ".Route.Route"); n.Kind != snapshot.KindConstructor {
		t.Errorf("Route constructor kind %v", n.Kind)
	}
	if n := b.Node(rt + ".Routes.entries"); n.Kind != snapshot.KindField || n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("Routes.entries: kind %v flags %v", n.Kind, n.Flags)
	}
	if n := b.Node(w + ".Server.DEFAULT_PORT"); n.Kind != snapshot.KindConstant {
		t.Errorf("DEFAULT_PORT kind %v", n.Kind)
	}
	if n := b.Node(w + ".Response.Status"); n.Kind != snapshot.KindEnum {
		t.Errorf("Response.Status kind %v", n.Kind)
	}
	if n := b.Node(w + ".Response.Status.OK"); n.Kind != snapshot.KindConstant || n.Doc != "The request succeeded." {
		t.Errorf("Status.OK: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node(rt + ".Routes.Stats"); n.Kind != snapshot.KindClass {
		t.Errorf("nested Routes.Stats kind %v", n.Kind)
	}
	if n := b.Node(w + ".Server.routeNames"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("package-private method exported: %v", n.Flags)
	}

	// Containment both ways.
	b.Edge(rt+".Routes", rt+".Routes.add", snapshot.EdgeContains)
	b.Edge(rt+".Routes.Stats.hit", rt+".Routes.Stats", snapshot.EdgeMemberOf)

	// Inheritance and implementation.
	// A builder chain: each call is on the type the call before returned;
	// names Job shares go to Query's methods only, and length() on a
	// String to no method of the repository.
	for _, m := range []string{"of", "limit", "verbose", "run"} {
		b.Edge(w+".Query.lookup", w+".Query."+m, snapshot.EdgeCalls)
	}
	for _, m := range []string{"limit", "run", "length"} {
		b.NoEdge(w+".Query.lookup", w+".Job."+m, snapshot.EdgeCalls)
	}
	b.Edge(w+".Server", w+".BaseRouter", snapshot.EdgeExtends)
	b.Edge(w+".Server", w+".Handler", snapshot.EdgeImplements)
	b.Edge(w+".Server", w+".BaseRouter.clear", snapshot.EdgeInherits)
	b.Edge(w+".Server.handle", w+".Handler.handle", snapshot.EdgeOverrides)

	// Calls through this and implicit this, resolving to the parent's methods.
	b.Edge(w+".Server.get", w+".BaseRouter.register", snapshot.EdgeCalls)
	b.Edge(w+".Server.start", w+".BaseRouter.clear", snapshot.EdgeCalls)
	// Across files through an import, on a field inherited from the base.
	b.Edge(w+".Server.handle", rt+".Routes.find", snapshot.EdgeCalls)
	// Through typed parameters and locals.
	b.Edge(w+".Server.handle", w+".Request.path", snapshot.EdgeCalls)
	b.Edge(w+".Server.handle", rt+".Route.handler", snapshot.EdgeCalls)
	b.Edge(rt+".Routes.find", rt+".Route.matches", snapshot.EdgeCalls) // for (Route r : entries)
	// Through the result type of a call: r.handler().handle(...).
	b.Edge(w+".Server.handle", w+".Handler.handle", snapshot.EdgeCalls)
	// Through a field of a nested type, and a static call on a nested type.
	b.Edge(w+".Server.handle", rt+".Routes.Stats.hit", snapshot.EdgeCalls)
	b.Edge(w+".Server.start", rt+".Routes.Stats.empty", snapshot.EdgeCalls)
	// new T(...) calls T's constructor and uses T.
	b.Edge(w+".BaseRouter.register", rt+".Route.Route", snapshot.EdgeCalls)
	b.Edge(w+".BaseRouter.register", rt+".Route", snapshot.EdgeReferences)
	b.Edge(w+".BaseRouter.register", rt+".Routes.add", snapshot.EdgeCalls)
	// An enum constant is made by the enum's constructor.
	b.Edge(w+".Response.Status.NOT_FOUND", w+".Response.Status.Status", snapshot.EdgeCalls)

	// A call on a JDK collection is not guessed onto the repository's only
	// add method; nor is a static call into the JDK or JUnit.
	b.NoEdge(w+".Server.routeNames", rt+".Routes.add", snapshot.EdgeCalls)
	b.Edge(w+".Server.routeNames", rt+".Routes.size", snapshot.EdgeCalls)
	b.NoEdge(w+".Request.header", rt+".Routes.find", snapshot.EdgeCalls)

	// Types: fields reference, parameters and results are hints.
	b.Edge(w+".BaseRouter.routes", rt+".Routes", snapshot.EdgeReferences)
	b.Edge(w+".Request", w+".Server.handle", snapshot.EdgeTypeHintOf)
	b.Edge(w+".Handler", rt+".Route.handler", snapshot.EdgeTypeHintOf)

	// Tests: @Test methods (by annotation or by name) and what they call.
	const st = w + ".ServerTest"
	b.Edge(st+".dispatchesToTheRegisteredHandler", w+".Server.handle", snapshot.EdgeTests)
	b.Edge(w+".Server.handle", st+".dispatchesToTheRegisteredHandler", snapshot.EdgeTestedBy)
	b.Edge(st+".testUnknownPathIsNotFound", w+".Server.handle", snapshot.EdgeTests)
	b.Edge(st+".dispatchesToTheRegisteredHandler", w+".Request.Request", snapshot.EdgeTests)
	if n := b.Node(st + ".dispatchesToTheRegisteredHandler"); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("@Test method not flagged: %v", n.Flags)
	}
	// A helper of the test class is not a test.
	b.NoEdge(st+".newServer", w+".Server.start", snapshot.EdgeTests)
	if n := b.Node(w + ".Server"); n.Flags&snapshot.FlagTest != 0 {
		t.Errorf("Server flagged test: %v", n.Flags)
	}
	// The package demo.web is the project's own, no demo of it.
	if n := b.Node(w + ".Server"); n.Flags&snapshot.FlagExample != 0 {
		t.Errorf("Server flagged example: %v", n.Flags)
	}

	// Imports link files to packages and statically imported members.
	b.Edge("src/main/java/demo/web/Server.java", rt, snapshot.EdgeImports)
	b.Edge("src/main/java/demo/web/route/Route.java", w, snapshot.EdgeImports)
	b.Edge("src/main/java/demo/web/Server.java", w+".Response.Status.NOT_FOUND", snapshot.EdgeImports)
	b.Edge(w, "src/main/java/demo/web/Server.java", snapshot.EdgeContains)
}

// TestMocksByRole: a library whose own packages are named after mocks
// (demo.mockery, demo.mockery.mock, classes Mockery and MockSettings) is
// code like any other; a double in its test sources is a mock.
func TestMocksByRole(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/java")
	const m = "demo.mockery"
	for _, q := range []string{m + ".Mockery", m + ".Mockery.mock", m + ".MockSettings", m + ".MockSettings.name",
		m + ".mock.MockMaker", m + ".mock.MockMaker.create", m + ".MockeryTest", m + ".MockeryTest.mocksAnInterface"} {
		if n := b.Node(q); n.Flags&snapshot.FlagMock != 0 {
			t.Errorf("%s flagged mock: %v", q, n.Flags)
		}
	}
	for _, q := range []string{m + ".FakeClock", m + ".FakeClock.advance", "src/test/java/demo/mockery/FakeClock.java",
		m + ".MockeryTest.StubStore", m + ".MockeryTest.StubStore.get"} {
		if n := b.Node(q); n.Flags&snapshot.FlagMock == 0 {
			t.Errorf("%s not flagged mock: %v", q, n.Flags)
		}
	}
	if n := b.Node("src/test/java/demo/mockery/MockeryTest.java"); n.Flags&snapshot.FlagMock != 0 {
		t.Errorf("MockeryTest.java flagged mock: %v", n.Flags)
	}
	b.Edge(m+".Mockery.mock", m+".mock.MockMaker.create", snapshot.EdgeCalls)
	b.Edge(m+".MockeryTest.mocksAnInterface", m+".Mockery.mock", snapshot.EdgeTests)
}
