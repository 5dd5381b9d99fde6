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

// kids returns the named children of n, walking them once with the
// extractor's cursor (NamedChild(i) walks from the first child each time).
func (x *extractor) kids(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
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
