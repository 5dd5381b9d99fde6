package javascript

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestZZInh(t *testing.T) {
	root := os.Getenv("Q")
	if root == "" {
		t.Skip()
	}
	g, _, _ := extract.Build(t.Context(), extract.Options{Root: root})
	cnt := map[string]int{}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeInherits {
			cnt[g.Nodes[e.From].QName+" → "+g.Nodes[e.To].QName[:min(len(g.Nodes[e.To].QName), 40)]]++
		}
	}
	by := map[string]int{}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeInherits {
			by[g.Nodes[e.From].QName]++
		}
	}
	var ks []string
	for k := range by {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return by[ks[i]] > by[ks[j]] })
	for _, k := range ks[:min(10, len(ks))] {
		fmt.Println(by[k], k)
	}
}
