package csharp_test

import (
	"os"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

func TestZZNodes(t *testing.T) {
	root := os.Getenv("CS_GRAPH")
	if root == "" {
		t.Skip()
	}
	b := extracttest.BuildDir(t, root)
	for i, n := range b.G.Nodes {
		t.Logf("%d %s %s %v", i, n.Kind, n.QName, n.Flags)
	}
}
