package rust

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

// fieldIDs maps the grammar's field names to ids: ChildByFieldName copies
// the name into C memory on every call, a measurable cost per node.
var fieldIDs = func() map[string]uint16 {
	lang := sitter.NewLanguage(tsrust.Language())
	m := map[string]uint16{}
	for _, name := range []string{"alias", "alternative", "argument", "arguments", "body", "bounds",
		"field", "function", "left", "macro", "name", "parameters", "path", "pattern", "return_type",
		"trait", "type", "type_arguments", "type_parameters", "value"} {
		m[name] = lang.FieldIdForName(name)
	}
	return m
}()

// kindNames are the grammar's node kinds by id: Node.Kind copies the name
// out of C on every call.
var kindNames = func() []string {
	lang := sitter.NewLanguage(tsrust.Language())
	out := make([]string, lang.NodeKindCount())
	for i := range out {
		out[i] = lang.NodeKindForId(uint16(i))
	}
	return out
}()

// kind is n.Kind(), without the copy.
func kind(n *sitter.Node) string {
	if id := int(n.KindId()); id < len(kindNames) {
		return kindNames[id]
	}
	return n.Kind()
}

// fld is n.ChildByFieldName(name), by field id.
func fld(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	id, ok := fieldIDs[name]
	if !ok || id == 0 {
		return n.ChildByFieldName(name)
	}
	return n.ChildByFieldId(id)
}

// kids returns the named children of n. NamedChild(i) walks from the
// first child each time: long lists are walked once with the cursor.
func (x *extractor) kids(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	count := n.NamedChildCount()
	if count <= 32 {
		// One C call per child: cheaper than the cursor's several.
		out := make([]*sitter.Node, count)
		for i := range out {
			out[i] = n.NamedChild(uint(i))
		}
		return out
	}
	nodes := n.NamedChildren(x.cur)
	out := make([]*sitter.Node, len(nodes))
	for i := range nodes {
		out[i] = &nodes[i]
	}
	return out
}

// allKids returns all children of n, anonymous tokens included.
func (x *extractor) allKids(n *sitter.Node) []*sitter.Node {
	nodes := n.Children(x.cur)
	out := make([]*sitter.Node, len(nodes))
	for i := range nodes {
		out[i] = &nodes[i]
	}
	return out
}
