package extract

/*
#include <stdint.h>
#include <stdbool.h>

// Layouts and functions of the tree-sitter runtime that go-tree-sitter
// compiles in (tree_sitter/api.h), declared here under local names.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } knowingNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } knowingCursor;
typedef struct { uint32_t row; uint32_t column; } knowingPoint;

extern uint32_t ts_node_descendant_count(knowingNode);
extern uint16_t ts_node_symbol(knowingNode);
extern bool ts_node_is_named(knowingNode);
extern uint32_t ts_node_start_byte(knowingNode);
extern uint32_t ts_node_end_byte(knowingNode);
extern knowingPoint ts_node_start_point(knowingNode);
extern knowingPoint ts_node_end_point(knowingNode);
extern knowingCursor ts_tree_cursor_new(knowingNode);
extern void ts_tree_cursor_delete(knowingCursor *);
extern knowingNode ts_tree_cursor_current_node(const knowingCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const knowingCursor *);
extern bool ts_tree_cursor_goto_first_child(knowingCursor *);
extern bool ts_tree_cursor_goto_next_sibling(knowingCursor *);
extern bool ts_tree_cursor_goto_parent(knowingCursor *);

// Must match FlatNode in Go.
typedef struct {
	uint32_t start, end, srow, erow;
	int32_t parent, next, prev;
	uint16_t kind, field;
	uint8_t named;
	uint8_t pad[3];
} knowingFlat;

static uint32_t knowing_count(knowingNode root) { return ts_node_descendant_count(root); }

// knowing_flatten writes the visible nodes under root in pre-order, as a
// TreeCursor walks them. It returns how many it wrote, or -1 when cap is
// too small.
static int64_t knowing_flatten(knowingNode root, knowingFlat *out, int64_t cap) {
	knowingCursor c = ts_tree_cursor_new(root);
	int64_t n = 0;
	int32_t parent = -1, prev = -1;
	for (;;) {
		if (n >= cap) {
			ts_tree_cursor_delete(&c);
			return -1;
		}
		knowingNode node = ts_tree_cursor_current_node(&c);
		knowingFlat *f = &out[n];
		f->start = ts_node_start_byte(node);
		f->end = ts_node_end_byte(node);
		f->srow = ts_node_start_point(node).row;
		f->erow = ts_node_end_point(node).row;
		f->parent = parent;
		f->next = -1;
		f->prev = prev;
		f->kind = ts_node_symbol(node);
		f->field = n == 0 ? 0 : ts_tree_cursor_current_field_id(&c);
		f->named = ts_node_is_named(node);
		if (prev >= 0) out[prev].next = (int32_t)n;
		int32_t me = (int32_t)n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = me;
			prev = -1;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				prev = me;
				break;
			}
			if (me == 0 || !ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			me = parent;
			parent = out[me].parent;
		}
	}
}
*/
import "C"

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// FlatNode is one visible node of a FlatTree.
type FlatNode struct {
	Start, End       uint32 // byte offsets
	StartRow, EndRow uint32 // 0-based
	Parent           int32  // index, -1 for the root
	Next, Prev       int32  // siblings (named or not), -1 for none
	Kind             uint16 // Node.KindId
	Field            uint16 // field id of the node in its parent, 0 for none
	Named            bool
	_                [3]uint8
}

// FlatTree is a parsed file copied out of tree-sitter in one cgo call:
// every visible node, in pre-order, so that an extractor walks it in Go
// instead of crossing into C for every child, kind and position. Node
// indices are int32; -1 is "no node". The children of node i follow it:
// its first child, if any, is i+1.
type FlatTree struct {
	N   []FlatNode
	Src []byte
	// Names are the grammar's node kinds by id (Language.NodeKindForId),
	// set by the extractor; Kind reads them.
	Names []string
}

// sitter.Node is a struct holding a C TSNode alone; Flatten reads it as
// one. A go-tree-sitter release that changed this would fail here first.
func init() {
	if unsafe.Sizeof(sitter.Node{}) != C.sizeof_knowingNode {
		panic("extract: go-tree-sitter's Node is no longer a bare TSNode")
	}
}

// flatTrees holds FlatTrees between files: a tree's node slice is reused.
var flatTrees = sync.Pool{New: func() any { return new(FlatTree) }}

// NewFlatTree flattens the tree under root into a pooled FlatTree whose
// kinds read names (the grammar's kind names by id). Release it after use.
func NewFlatTree(root *sitter.Node, src []byte, names []string) *FlatTree {
	t := flatTrees.Get().(*FlatTree)
	t.Names = names
	t.Flatten(root, src)
	return t
}

// Release returns t to the pool; t must not be used afterwards. A tree
// that grew very large is dropped rather than kept.
func (t *FlatTree) Release() {
	t.Src, t.Names = nil, nil
	if cap(t.N) <= 1<<20 {
		flatTrees.Put(t)
	}
}

// Flatten copies the tree under root into t, reusing t's memory.
func (t *FlatTree) Flatten(root *sitter.Node, src []byte) {
	t.Src = src
	cn := *(*C.knowingNode)(unsafe.Pointer(root))
	need := int(C.knowing_count(cn))
	for {
		if cap(t.N) < need {
			t.N = make([]FlatNode, need)
		}
		t.N = t.N[:cap(t.N)]
		n := int(C.knowing_flatten(cn, (*C.knowingFlat)(unsafe.Pointer(unsafe.SliceData(t.N))), C.int64_t(len(t.N))))
		if n >= 0 {
			t.N = t.N[:n]
			return
		}
		need = 2*len(t.N) + 64
	}
}

// Text returns the source text of node i ("" for -1).
func (t *FlatTree) Text(i int32) string {
	if i < 0 {
		return ""
	}
	n := &t.N[i]
	if n.End > uint32(len(t.Src)) || n.Start > n.End {
		return ""
	}
	return string(t.Src[n.Start:n.End])
}

// Line is the 1-based first line of node i.
func (t *FlatTree) Line(i int32) uint32 { return t.N[i].StartRow + 1 }

// EndLine is the 1-based last line of node i.
func (t *FlatTree) EndLine(i int32) uint32 { return t.N[i].EndRow + 1 }

// FirstChild is the first child of i, named or not, or -1.
func (t *FlatTree) FirstChild(i int32) int32 {
	if int(i)+1 < len(t.N) && t.N[i+1].Parent == i {
		return i + 1
	}
	return -1
}

// FirstNamed is the first named child of i, or -1 (i may be -1). With
// NextNamed it walks the named children:
//
//	for c := t.FirstNamed(n); c >= 0; c = t.NextNamed(c) { ... }
func (t *FlatTree) FirstNamed(i int32) int32 {
	if i < 0 {
		return -1
	}
	c := t.FirstChild(i)
	for c >= 0 && !t.N[c].Named {
		c = t.N[c].Next
	}
	return c
}

// NextNamed is the next named sibling of i, or -1.
func (t *FlatTree) NextNamed(i int32) int32 {
	c := t.N[i].Next
	for c >= 0 && !t.N[c].Named {
		c = t.N[c].Next
	}
	return c
}

// PrevNamed is the previous named sibling of i, or -1.
func (t *FlatTree) PrevNamed(i int32) int32 {
	c := t.N[i].Prev
	for c >= 0 && !t.N[c].Named {
		c = t.N[c].Prev
	}
	return c
}

// NamedCount is the number of named children of i.
func (t *FlatTree) NamedCount(i int32) int {
	n := 0
	for c := t.FirstNamed(i); c >= 0; c = t.NextNamed(c) {
		n++
	}
	return n
}

// LastNamed is the last named child of i, or -1.
func (t *FlatTree) LastNamed(i int32) int32 {
	last := int32(-1)
	for c := t.FirstNamed(i); c >= 0; c = t.NextNamed(c) {
		last = c
	}
	return last
}

// Field is the first child of i with field id f, or -1 (i may be -1).
//
// It reads the field ids the tree cursor reports, which agree with
// Node.ChildByFieldId on well-formed code except where a field is inherited
// through a hidden node: ChildByFieldId then also returns a grandchild
// (TypeScript's type_query, literal_type), Field does not. On damaged code
// Field may find a child of an ERROR node that ChildByFieldId does not.
// The extractors read no such field.
func (t *FlatTree) Field(i int32, f uint16) int32 {
	if i < 0 || f == 0 {
		return -1
	}
	for c := t.FirstChild(i); c >= 0; c = t.N[c].Next {
		if t.N[c].Field == f {
			return c
		}
	}
	return -1
}

// Kind is the node kind of i, as Node.Kind returns it.
func (t *FlatTree) Kind(i int32) string {
	if k := int(t.N[i].Kind); k < len(t.Names) {
		return t.Names[k]
	}
	return "ERROR" // ts_builtin_sym_error, outside the grammar's table
}

// Signature is the text of n up to body (-1: all of n), as Signature.
func (t *FlatTree) Signature(n, body int32) string {
	end := t.N[n].End
	if body >= 0 {
		end = t.N[body].Start
	}
	return signatureText(t.Src, uint(t.N[n].Start), uint(end))
}

// PrecedingComments is PrecedingComments for node i.
func (t *FlatTree) PrecedingComments(i int32, marker string) string {
	var parts []string
	line := t.Line(i)
	for p := t.N[i].Prev; p >= 0; p = t.N[p].Prev {
		if !isCommentKind(t.Kind(p)) {
			break
		}
		if t.EndLine(p)+1 < line {
			break
		}
		line = t.Line(p)
		parts = append(parts, CleanComment(t.Text(p), marker))
		if len(parts) > 40 {
			break
		}
	}
	return joinComments(parts)
}
