package extract_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/extracttest"
	_ "github.com/knowing-dev/knowing/extract/langs"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestNetHTTP builds net/http from the Go standard library on this machine
// and asserts edges anyone can confirm by reading server.go and
// request.go.
func TestNetHTTP(t *testing.T) {
	dir := filepath.Join(extract.GoRootSrc(t), "net", "http")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no Go standard library source:", err)
	}
	g, st, err := extract.Build(context.Background(), extract.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Files < 50 || len(g.Nodes) < 3000 {
		t.Fatalf("only %d files, %d nodes", st.Files, len(g.Nodes))
	}
	b := &extracttest.Built{G: g}
	b.SetT(t)
	const h = "net/http"

	// server.go: ListenAndServe ends in s.Serve(ln); Serve makes a conn
	// with s.newConn(rw) and runs go c.serve(connCtx); conn.serve reads
	// with c.readRequest(ctx).
	b.Edge(h+".Server.ListenAndServe", h+".Server.Serve", snapshot.EdgeCalls)
	b.Edge(h+".Server.Serve", h+".Server.newConn", snapshot.EdgeCalls)
	b.Edge(h+".Server.Serve", h+".conn.serve", snapshot.EdgeCalls)
	b.Edge(h+".conn.serve", h+".conn.readRequest", snapshot.EdgeCalls)
	// ServeMux.ServeHTTP finds the handler with mux.findHandler(r).
	b.Edge(h+".ServeMux.ServeHTTP", h+".ServeMux.findHandler", snapshot.EdgeCalls)
	// Handler is implemented by HandlerFunc and ServeMux (method sets).
	b.Edge(h+".HandlerFunc", h+".Handler", snapshot.EdgeImplements)
	b.Edge(h+".ServeMux", h+".Handler", snapshot.EdgeImplements)
	// The Server type holds its methods.
	b.Edge(h+".Server", h+".Server.Shutdown", snapshot.EdgeContains)
	// request_test.go (package http_test) exercises MaxBytesReader.
	b.Edge(h+"_test.TestMaxBytesReaderStickyError", h+".MaxBytesReader", snapshot.EdgeTests)
	// Doc comments and signatures are kept.
	if n := b.Node(h + ".MaxBytesReader"); !strings.HasPrefix(n.Doc, "MaxBytesReader is similar to [io.LimitReader]") ||
		!strings.HasPrefix(n.Signature, "func MaxBytesReader(w ResponseWriter, r io.ReadCloser, n int64) io.ReadCloser") {
		t.Errorf("MaxBytesReader doc %q signature %q", n.Doc, n.Signature)
	}
}
