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
