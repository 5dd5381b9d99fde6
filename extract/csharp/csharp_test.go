package csharp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/knowing-dev/knowing/extract/csharp"
	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

const (
	auth  = "Gateway.Authentication"
	mw    = "Gateway.Middleware"
	errs  = "Gateway.Errors"
	logg  = "Gateway.Logging"
	conf  = "Gateway.Configuration"
	tests = "Gateway.UnitTests.Authentication.AuthenticationMiddlewareTests"
)

func TestCSharpRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/csharp")
	am := auth + ".AuthenticationMiddleware"

	// Symbols, kinds, qualified names, doc comments, signatures, flags.
	n := b.Node(am)
	if n.Kind != snapshot.KindClass || n.Flags&snapshot.FlagExported == 0 ||
		n.Doc != "Authenticates downstream requests whose route asks for it, with the\nIAuthenticationHandler of the route's scheme." {
		t.Errorf("AuthenticationMiddleware: kind %v flags %v doc %q", n.Kind, n.Flags, n.Doc)
	}
	if n.Signature != "public sealed class AuthenticationMiddleware : GatewayMiddleware" {
		t.Errorf("signature %q", n.Signature)
	}
	if n := b.Node(am + ".Invoke"); n.Kind != snapshot.KindMethod || n.Signature != "public async Task Invoke(DownstreamContext context)" {
		t.Errorf("Invoke: %v %q", n.Kind, n.Signature)
	}
	if n := b.Node(am + ".AuthenticationMiddleware"); n.Kind != snapshot.KindConstructor {
		t.Errorf("constructor kind %v", n.Kind)
	}
	if n := b.Node(am + "._next"); n.Kind != snapshot.KindField || n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("_next: %v %v", n.Kind, n.Flags)
	}
	if n := b.Node(am + ".IsAuthenticatedRoute"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("private method exported: %v", n.Flags)
	}
	if n := b.Node(auth + ".IAuthenticationHandler"); n.Kind != snapshot.KindInterface {
		t.Errorf("IAuthenticationHandler kind %v", n.Kind)
	}
	if n := b.Node(mw + ".GatewayMiddleware.SetPipelineError"); !strings.HasPrefix(n.Doc, "Records an error on the context") ||
		!strings.Contains(n.Doc, "error: Why the pipeline stops.") {
		t.Errorf("SetPipelineError doc %q", n.Doc)
	}
	if n := b.Node(mw + ".GatewayMiddleware.Logger"); n.Kind != snapshot.KindField || n.Signature != "public IGatewayLogger Logger { get; }" {
		t.Errorf("Logger property: %v %q", n.Kind, n.Signature)
	}
	if n := b.Node(mw + ".GatewayRequestDelegate"); n.Kind != snapshot.KindTypeAlias {
		t.Errorf("delegate kind %v", n.Kind)
	}
	if n := b.Node(errs + ".ErrorCode.Unauthenticated"); n.Kind != snapshot.KindConstant {
		t.Errorf("enum member kind %v", n.Kind)
	}
	if n := b.Node(conf + ".AuthenticationOptions"); n.Kind != snapshot.KindStruct {
		t.Errorf("record kind %v", n.Kind)
	}
	b.Node(conf + ".AuthenticationOptions.Scheme")
	b.Node(conf + ".AuthenticationOptions.AuthenticationOptions")
	// Errors.cs declares two namespaces: the same qualified names.
	b.Node(errs + ".Error.Error")
	if n := b.Node(errs + ".Auth.UnauthenticatedError"); n.Kind != snapshot.KindClass || n.Doc != "The client did not prove who it is." {
		t.Errorf("UnauthenticatedError: %v %q", n.Kind, n.Doc)
	}

	// Containment.
	b.Edge(am, am+".Invoke", snapshot.EdgeContains)
	b.Edge(am+".Invoke", am, snapshot.EdgeMemberOf)
	b.Edge(mw, "src/Gateway/Middleware/GatewayMiddleware.cs", snapshot.EdgeContains)

	// Calls across files through imports: a constructor through a using of
	// the multi-namespace file, a method through a parameter typed with an
	// interface of a global using (Usings.cs), the base constructor.
	b.Edge(am+".Invoke", errs+".Auth.UnauthenticatedError.UnauthenticatedError", snapshot.EdgeCalls)
	// A builder chain, followed through every call, while a rival
	// builder has methods of the same names.
	rb, secure := conf+".DownstreamRouteBuilder", conf+".DefaultRoutes.SecureName"
	for _, m := range []string{".WithUpstreamPath", ".WithScheme", ".Build"} {
		b.Edge(secure, rb+m, snapshot.EdgeCalls)
	}
	b.Edge(secure, conf+".DownstreamRoute.Name", snapshot.EdgeCalls)
	b.NoEdge(secure, conf+".RouteTableBuilder.WithScheme", snapshot.EdgeCalls)
	b.NoEdge(secure, conf+".RouteTableBuilder.Build", snapshot.EdgeCalls)
	b.Edge(am+".AuthenticationMiddleware", logg+".IGatewayLoggerFactory.CreateLogger", snapshot.EdgeCalls)
	b.Edge(am+".AuthenticationMiddleware", mw+".GatewayMiddleware.GatewayMiddleware", snapshot.EdgeCalls)
	b.Edge(errs+".Auth.UnauthenticatedError.UnauthenticatedError", errs+".Error.Error", snapshot.EdgeCalls)
	// Calls through receivers: a typed field, a local set from a property
	// of a typed parameter, a property inherited from the base class.
	b.Edge(am+".Invoke", auth+".IAuthenticationHandler.AuthenticateAsync", snapshot.EdgeCalls)
	b.Edge(am+".Invoke", conf+".DownstreamRoute.Name", snapshot.EdgeCalls)
	b.Edge(am+".Invoke", logg+".IGatewayLogger.LogDebug", snapshot.EdgeCalls)
	b.Edge(am+".Invoke", am+".IsAuthenticatedRoute", snapshot.EdgeCalls)
	b.Edge(mw+".GatewayMiddleware.SetPipelineError", logg+".IGatewayLogger.LogWarning", snapshot.EdgeCalls)
	// An extension method called on a library type.
	b.Edge(auth+".AuthenticationMiddlewareExtensions.UseGateway", auth+".AuthenticationMiddlewareExtensions.UseGatewayAuthentication", snapshot.EdgeCalls)

	// Inheritance: the inherited method, and a bare call resolving to it.
	b.Edge(am, mw+".GatewayMiddleware", snapshot.EdgeExtends)
	b.Edge(am, mw+".GatewayMiddleware.SetPipelineError", snapshot.EdgeInherits)
	b.Edge(am+".Invoke", mw+".GatewayMiddleware.SetPipelineError", snapshot.EdgeCalls)
	b.Edge(errs+".Auth.UnauthenticatedError", errs+".Error", snapshot.EdgeExtends)

	// Interfaces and their implementations.
	b.Edge(auth+".SchemeAuthenticationHandler", auth+".IAuthenticationHandler", snapshot.EdgeImplements)
	b.Edge(auth+".SchemeAuthenticationHandler.AuthenticateAsync", auth+".IAuthenticationHandler.AuthenticateAsync", snapshot.EdgeOverrides)
	b.Edge(logg+".AspDotNetLogger", logg+".IGatewayLogger", snapshot.EdgeImplements)

	// Type uses and signatures.
	b.Edge(mw+".DownstreamContext", am+".Invoke", snapshot.EdgeTypeHintOf)
	b.Edge(am+".Invoke", errs+".Auth.UnauthenticatedError", snapshot.EdgeReferences)
	b.Edge(mw+".DownstreamContext.Errors", errs+".Error", snapshot.EdgeReferences)

	// Tests: attributes flag them; they and the helpers of their class
	// test what they call.
	test := tests + ".Should_set_pipeline_error_when_handler_rejects"
	if n := b.Node(test); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("test not flagged: %v", n.Flags)
	}
	b.Edge(test, am+".Invoke", snapshot.EdgeTests)
	b.Edge(am+".Invoke", test, snapshot.EdgeTestedBy)
	b.Edge(tests+".WhenICallTheMiddleware", am+".Invoke", snapshot.EdgeTests)
	b.Edge(tests+".AuthenticationMiddlewareTests", am+".AuthenticationMiddleware", snapshot.EdgeTests)
	b.Edge(tests+"._context", mw+".DownstreamContext.DownstreamContext", snapshot.EdgeCalls) // new() of the field's type
	if n := b.Node(am + ".Invoke"); n.Flags&snapshot.FlagTest != 0 {
		t.Errorf("Invoke flagged test: %v", n.Flags)
	}

	// Imports link files to namespaces, global usings included.
	const amFile = "src/Gateway/Authentication/AuthenticationMiddleware.cs"
	b.Edge(amFile, mw, snapshot.EdgeImports)
	b.Edge(amFile, logg, snapshot.EdgeImports)
	b.NoEdge("test/Gateway.UnitTests/Authentication/AuthenticationMiddlewareTests.cs", errs, snapshot.EdgeImports)

	// Library calls are not guessed onto repository methods of the same
	// name: JsonSerializer.Serialize is not ErrorSerializer.Serialize, the
	// ILogger's LogDebug is not IGatewayLogger's, HttpContext's
	// AuthenticateAsync is not the handler's, and invoking the next
	// delegate is not a call of any middleware's Invoke.
	b.NoEdge(auth+".SchemeAuthenticationHandler.AuthenticateAsync", errs+".ErrorSerializer.Serialize", snapshot.EdgeCalls)
	b.NoEdge(auth+".SchemeAuthenticationHandler.AuthenticateAsync", auth+".IAuthenticationHandler.AuthenticateAsync", snapshot.EdgeCalls)
	b.NoEdge(auth+".SchemeAuthenticationHandler.AuthenticateAsync", auth+".SchemeAuthenticationHandler.AuthenticateAsync", snapshot.EdgeCalls)
	b.NoEdge(logg+".AspDotNetLogger.LogDebug", logg+".IGatewayLogger.LogDebug", snapshot.EdgeCalls)
	b.NoEdge(logg+".AspDotNetLogger.LogDebug", logg+".AspDotNetLogger.LogDebug", snapshot.EdgeCalls)
	b.NoEdge(am+".Invoke", am+".Invoke", snapshot.EdgeCalls)
}

// write creates files under a temporary root.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, src := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func build(t *testing.T, files map[string]string) *extracttest.Built {
	t.Helper()
	return extracttest.BuildDir(t, write(t, files))
}

// TestCSharpFeatures covers language features outside the test repository.
func TestCSharpFeatures(t *testing.T) {
	b := build(t, map[string]string{
		"Lib/Usings.cs": "global using Acme.Util;\n",
		"Lib/Util/Text.cs": `namespace Acme.Util
{
    public static class Text
    {
        public static string Slug(string s) => s.ToLowerInvariant();
        public static class Rules { public static bool Check(string s) => s.Length > 0; }
    }
}`,
		"Lib/Shop/Cart.cs": `using static Acme.Util.Text;
using Fmt = Acme.Util.Text;

namespace Acme.Shop.Cart;

public partial class Cart
{
    public string Name(string s)
    {
        var a = Slug(s);
        var b = Fmt.Slug(s);
        Acme.Util.Text.Rules.Check(s);
        Text.Rules.Check(s);
        Total();
        return Helper(a + b);

        string Helper(string x) => Audit.Record(x);
    }
}`,
		"Lib/Shop/Cart.Totals.cs": `namespace Acme.Shop.Cart
{
    public partial class Cart
    {
        public decimal Total() => 0m;
    }
}`,
		// Audit lives in an enclosing namespace of Acme.Shop.Cart: visible
		// without a using.
		"Lib/Shop/Audit.cs": `namespace Acme.Shop
{
    public static class Audit
    {
        public static string Record(string x) => x;
    }
}`,
		// #if inside a parameter list breaks the grammar; the file is
		// parsed again without the directives.
		"Lib/Shop/Store.cs": `namespace Acme.Shop;

public class Store : IStore
{
    public void Open(
#if NET8_0
        int port)
#else
        long port)
#endif
    {
    }

    public void Close() { }
}

public interface IStore
{
    void Close();
}`,
		"Tests/StoreTests.cs": `using Acme.Shop;
using Moq;
using TestStack.BDDfy;

namespace Acme.Tests;

public class StoreTests
{
    private readonly Mock<IStore> _store = new();

    [Fact]
    public void Closes()
    {
        _store.Setup(s => s.Close());
        this.Given(x => x.GivenAStore()).BDDfy();
    }

    private void GivenAStore() { }
}`,
		"App/Program.cs": `using Acme.Shop.Cart;

var cart = new Cart();
Console.WriteLine(cart.Total());
Run();

static void Run() { }
`,
	})
	const cart = "Acme.Shop.Cart.Cart"
	if n := b.Node(cart + ".Name.Helper"); n.Kind != snapshot.KindFunction {
		t.Errorf("local function kind %v", n.Kind)
	}
	b.Edge(cart+".Name", "Acme.Util.Text.Slug", snapshot.EdgeCalls)           // using static, using alias
	b.Edge(cart+".Name", "Acme.Util.Text.Rules.Check", snapshot.EdgeCalls)    // qualified, nested type
	b.Edge(cart+".Name", cart+".Total", snapshot.EdgeCalls)                   // another part of the partial class
	b.Edge(cart+".Name", cart+".Name.Helper", snapshot.EdgeCalls)             // local function
	b.Edge(cart+".Name.Helper", "Acme.Shop.Audit.Record", snapshot.EdgeCalls) // enclosing namespace
	b.Edge("Lib/Shop/Cart.cs", "Acme.Util", snapshot.EdgeImports)             // global using of the project
	b.NoEdge("App/Program.cs", "Acme.Util", snapshot.EdgeImports)             // another project

	b.Node("Acme.Shop.Store.Open")
	b.Edge("Acme.Shop.Store", "Acme.Shop.IStore", snapshot.EdgeImplements)

	b.Edge("Acme.Tests.StoreTests.Closes", "Acme.Shop.IStore.Close", snapshot.EdgeCalls)            // the mocked interface
	b.Edge("Acme.Tests.StoreTests.Closes", "Acme.Tests.StoreTests.GivenAStore", snapshot.EdgeCalls) // a BDD step
	b.Edge("Acme.Tests.StoreTests.Closes", "Acme.Shop.IStore.Close", snapshot.EdgeTests)

	// Top-level statements: calls from the file.
	b.Edge("App/Program.cs", cart+".Total", snapshot.EdgeCalls)
	b.Edge("App/Program.cs", "Run", snapshot.EdgeCalls)
}

// TestCSharpNamespaces covers files with several namespaces.
func TestCSharpNamespaces(t *testing.T) {
	b := build(t, map[string]string{
		"A.cs": `namespace Acme.Core
{
    public class Base { public void Run() { } }
}

namespace Acme.Core.Http
{
    public class Client : Base { public void Get() { Run(); } }
}

namespace Other
{
    class Thing { }
}`,
		"B.cs": `namespace Acme.Core.Http;

public class Server
{
    public void Serve(Client c) { c.Get(); }
}`,
	})
	b.Node("Acme.Core.Base.Run")
	b.Node("Other.Thing")
	b.Edge("Acme.Core.Http.Client", "Acme.Core.Base", snapshot.EdgeExtends)
	b.Edge("Acme.Core.Http.Client.Get", "Acme.Core.Base.Run", snapshot.EdgeCalls)
	b.Edge("Acme.Core.Http.Server.Serve", "Acme.Core.Http.Client.Get", snapshot.EdgeCalls)
}

// TestCSharpProjectKindFromNamespace: .NET test, benchmark and sample
// projects sit in folders of any name (Ocelot's unit/, acceptance/,
// testing/); their namespaces mark their code as tests or examples.
func TestCSharpProjectKindFromNamespace(t *testing.T) {
	b := build(t, map[string]string{
		"src/Gateway.cs":      "namespace Acme.Gateway;\npublic class Router { public void Route() { } }",
		"src/Latest.cs":       "namespace Acme.Latest;\npublic class Feed { }",
		"unit/RouterTests.cs": "namespace Acme.UnitTests;\npublic class Routing { public void Routes() { } }",
		"testing/Steps.cs":    "namespace Acme.Testing.Steps;\npublic class GivenSteps { }",
		"acceptance/Steps.cs": "namespace Acme.AcceptanceTests\n{\n    public class Host { }\n}",
		"perf/RouterBench.cs": "namespace Acme.Benchmarks;\npublic class RouterBench { }",
		"docs/Walkthrough.cs": "namespace Acme.Samples.Basic;\npublic class Startup { }",
	})
	for _, c := range []struct {
		qname string
		want  snapshot.Flags
	}{
		{"Acme.Gateway.Router.Route", 0},
		{"Acme.Latest.Feed", 0},
		{"Acme.UnitTests.Routing.Routes", snapshot.FlagTest},
		{"Acme.Testing.Steps.GivenSteps", snapshot.FlagTest},
		{"Acme.AcceptanceTests.Host", snapshot.FlagTest},
		{"Acme.Benchmarks.RouterBench", snapshot.FlagExample},
		{"Acme.Samples.Basic.Startup", snapshot.FlagExample},
	} {
		if got := b.Node(c.qname).Flags & (snapshot.FlagTest | snapshot.FlagExample); got != c.want {
			t.Errorf("%s: flags %v, want %v", c.qname, got, c.want)
		}
	}
}
