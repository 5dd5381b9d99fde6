package extract

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// Layouts and functions of the tree-sitter runtime that go-tree-sitter
// compiles in (tree_sitter/api.h), declared here under local names.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } knowingNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } knowingCursor;
typedef struct { uint32_t row; uint32_t column; } knowingPoint;

extern uint32_t ts_node_descendant_count(knowingNode);
extern uint16_t ts_node_symbol(knowingNode);
extern bool ts_node_is_named(knowingNode);
extern uint32_t ts_node_child_count(knowingNode);
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

// knowing_flatten_cursor writes the visible nodes under root in pre-order,
// walking them with a TreeCursor. With named_only it leaves out anonymous
// leaves (punctuation, operators, keywords). It returns how many it wrote,
// or -1 when cap is too small. It is the reference knowing_flatten is
// checked against, and its fallback.
static int64_t knowing_flatten_cursor(knowingNode root, knowingFlat *out, int64_t cap, bool named_only) {
	knowingCursor c = ts_tree_cursor_new(root);
	int64_t n = 0;
	int32_t parent = -1, prev = -1;
	for (;;) {
		knowingNode node = ts_tree_cursor_current_node(&c);
		int32_t me = -1; // -1: node left out
		if (n == 0 || !named_only || ts_node_is_named(node) || ts_node_child_count(node) > 0) {
			if (n >= cap) {
				ts_tree_cursor_delete(&c);
				return -1;
			}
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
			me = (int32_t)n++;
			if (ts_tree_cursor_goto_first_child(&c)) {
				parent = me;
				prev = -1;
				continue;
			}
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				if (me >= 0) prev = me;
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

// The direct walk below reads tree-sitter's subtrees and language tables
// in place, which the cursor reaches through a function call per step and
// per property. The layouts are those of the runtime go.mod pins
// (src/subtree.h, src/length.h and src/parser.h of go-tree-sitter
// v0.25.0; the language table prefix is the grammar ABI, the same for ABI
// 14 and 15). TestFlattenDirectMatchesCursor compares both walks on every
// grammar, and knowing_flatten falls back to the cursor when the node
// count disagrees with ts_node_descendant_count, so a runtime whose
// layout moved is slower, not wrong.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KNOWING_DIRECT 1

typedef struct { uint32_t bytes; knowingPoint extent; } knowingLength;

typedef struct {
	bool is_inline : 1;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool has_changes : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4;
	uint8_t lookahead_bytes : 4;
	uint8_t padding_bytes;
	uint8_t size_bytes;
} knowingInline;

typedef struct {
	volatile uint32_t ref_count;
	knowingLength padding;
	knowingLength size;
	uint32_t lookahead_bytes;
	uint32_t error_cost;
	uint32_t child_count;
	uint16_t symbol;
	uint16_t parse_state;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool fragile_left : 1;
	bool fragile_right : 1;
	bool has_changes : 1;
	bool has_external_tokens : 1;
	bool has_external_scanner_state_change : 1;
	bool depends_on_column : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count;
			uint32_t named_child_count;
			uint32_t visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth;
			uint16_t production_id;
			struct { uint16_t symbol; uint16_t parse_state; } first_leaf;
		};
		struct { union { char *long_data; char short_data[24]; }; uint32_t length; } external_scanner_state;
		int32_t lookahead_char;
	};
} knowingHeap;

typedef union { knowingInline data; const knowingHeap *ptr; } knowingSubtree;

typedef struct { uint16_t field_id; uint8_t child_index; bool inherited; } knowingFieldEntry;
typedef struct { uint16_t index; uint16_t length; } knowingSlice;
typedef struct { bool visible; bool named; bool supertype; } knowingMeta;

// The prefix of TSLanguage that the walk reads.
typedef struct {
	uint32_t abi_version, symbol_count, alias_count, token_count, external_token_count,
		state_count, large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const uint16_t *parse_table;
	const uint16_t *small_parse_table;
	const uint32_t *small_parse_table_map;
	const void *parse_actions;
	const char *const *symbol_names;
	const char *const *field_names;
	const knowingSlice *field_map_slices;
	const knowingFieldEntry *field_map_entries;
	const knowingMeta *symbol_metadata;
	const uint16_t *public_symbol_map;
	const uint16_t *alias_map;
	const uint16_t *alias_sequences;
} knowingLang;

extern const void *ts_tree_language(const void *tree);

#define KN_SYM_ERROR ((uint16_t)65535)
#define KN_SYM_ERROR_REPEAT ((uint16_t)65534)

static inline uint32_t kn_child_count(knowingSubtree s) { return s.data.is_inline ? 0 : s.ptr->child_count; }
static inline bool kn_visible(knowingSubtree s) { return s.data.is_inline ? s.data.visible : s.ptr->visible; }
static inline bool kn_named(knowingSubtree s) { return s.data.is_inline ? s.data.named : s.ptr->named; }
static inline bool kn_extra(knowingSubtree s) { return s.data.is_inline ? s.data.extra : s.ptr->extra; }
static inline uint16_t kn_symbol(knowingSubtree s) { return s.data.is_inline ? s.data.symbol : s.ptr->symbol; }
static inline uint32_t kn_size_bytes(knowingSubtree s) { return s.data.is_inline ? s.data.size_bytes : s.ptr->size.bytes; }
static inline uint32_t kn_size_rows(knowingSubtree s) { return s.data.is_inline ? 0 : s.ptr->size.extent.row; }
static inline uint32_t kn_pad_bytes(knowingSubtree s) { return s.data.is_inline ? s.data.padding_bytes : s.ptr->padding.bytes; }
static inline uint32_t kn_pad_rows(knowingSubtree s) { return s.data.is_inline ? s.data.padding_rows : s.ptr->padding.extent.row; }
static inline const knowingSubtree *kn_children(knowingSubtree s) { return (const knowingSubtree *)(s.ptr) - s.ptr->child_count; }

static inline uint16_t kn_public(const knowingLang *l, uint16_t sym) {
	return sym == KN_SYM_ERROR ? sym : l->public_symbol_map[sym];
}

static inline bool kn_alias_named(const knowingLang *l, uint16_t sym) {
	if (sym == KN_SYM_ERROR) return true;
	if (sym == KN_SYM_ERROR_REPEAT) return false;
	return l->symbol_metadata[sym].named;
}

// One node whose children are being walked: a visible node, or a hidden
// one whose visible descendants become children of the nearest visible
// ancestor (owner).
typedef struct {
	const knowingSubtree *kids;
	uint32_t count, i, sci;       // children, next child, next structural index
	uint32_t bytes, row;          // start of the next child
	const uint16_t *aliases;      // the production's alias sequence, or NULL
	const knowingFieldEntry *fmap, *fend;
	int32_t vis;                  // flat index of the visible node the children belong to
	int32_t owner;                // frame holding that node's last child written so far
	int32_t prev;                 // (owner frames) last child written, -1 for none
	uint16_t inh;                 // (hidden frames) field the hidden node passes down
} knowingFrame;

static inline void kn_frame(knowingFrame *f, const knowingLang *l, knowingSubtree s,
	uint32_t bytes, uint32_t row, int32_t vis, int32_t owner, uint16_t inh) {
	uint16_t prod = s.ptr->production_id;
	f->kids = kn_children(s);
	f->count = s.ptr->child_count;
	f->i = 0;
	f->sci = 0;
	f->bytes = bytes;
	f->row = row;
	f->aliases = prod ? &l->alias_sequences[(uint32_t)prod * l->max_alias_sequence_length] : NULL;
	if (l->field_count) {
		knowingSlice sl = l->field_map_slices[prod];
		f->fmap = &l->field_map_entries[sl.index];
		f->fend = f->fmap + sl.length;
	} else {
		f->fmap = f->fend = NULL;
	}
	f->vis = vis;
	f->owner = owner;
	f->prev = -1;
	f->inh = inh;
}

// knowing_flatten_direct is knowing_flatten_cursor over the subtrees; it
// counts the anonymous leaves it leaves out in *skipped.
static int64_t knowing_flatten_direct(knowingNode root, knowingFlat *out, int64_t cap, bool named_only, int64_t *skipped) {
	*skipped = 0;
	const knowingLang *l = (const knowingLang *)ts_tree_language(root.tree);
	knowingSubtree s = *(const knowingSubtree *)root.id;
	if (cap < 1) return -1;
	uint16_t alias = (uint16_t)root.context[3];
	knowingFlat *f = &out[0];
	f->start = root.context[0];
	f->end = root.context[0] + kn_size_bytes(s);
	f->srow = root.context[1];
	f->erow = root.context[1] + kn_size_rows(s);
	f->parent = -1;
	f->next = -1;
	f->prev = -1;
	f->kind = kn_public(l, alias ? alias : kn_symbol(s));
	f->field = 0;
	f->named = alias ? kn_alias_named(l, alias) : kn_named(s);
	int64_t n = 1;
	if (kn_child_count(s) == 0) return n;

	knowingFrame small[64];
	knowingFrame *st = small;
	int32_t depth = 0, room = 64;
	kn_frame(&st[0], l, s, root.context[0], root.context[1], 0, 0, 0);
	depth = 1;
	while (depth > 0) {
		knowingFrame *fr = &st[depth - 1];
		if (fr->i == fr->count) {
			depth--;
			continue;
		}
		knowingSubtree c = fr->kids[fr->i];
		uint32_t bytes = fr->bytes, row = fr->row;
		bool extra = kn_extra(c);
		uint16_t calias = 0;
		uint16_t field = 0;
		if (!extra) {
			if (fr->aliases) calias = fr->aliases[fr->sci];
			for (const knowingFieldEntry *m = fr->fmap; m < fr->fend; m++) {
				if (!m->inherited && m->child_index == fr->sci) {
					field = m->field_id;
					break;
				}
			}
			if (!field) field = fr->inh;
			fr->sci++;
		}
		fr->bytes += kn_size_bytes(c);
		fr->row += kn_size_rows(c);
		fr->i++;
		if (fr->i < fr->count) {
			knowingSubtree nx = fr->kids[fr->i];
			fr->bytes += kn_pad_bytes(nx);
			fr->row += kn_pad_rows(nx);
		}
		bool visible = kn_visible(c) || calias != 0;
		uint32_t kids = kn_child_count(c);
		if (!visible && kids == 0) continue;
		int32_t vis = fr->vis, owner = fr->owner;
		if (visible) {
			bool named = calias ? kn_alias_named(l, calias) : kn_named(c);
			if (named_only && !named && kids == 0) {
				(*skipped)++;
				continue;
			}
			if (n >= cap) {
				if (st != small) free(st);
				return -1;
			}
			int32_t me = (int32_t)n++;
			f = &out[me];
			f->start = bytes;
			f->end = bytes + kn_size_bytes(c);
			f->srow = row;
			f->erow = row + kn_size_rows(c);
			f->parent = vis;
			f->next = -1;
			f->kind = kn_public(l, calias ? calias : kn_symbol(c));
			f->field = field;
			f->named = named;
			int32_t prev = st[owner].prev;
			f->prev = prev;
			if (prev >= 0) out[prev].next = me;
			st[owner].prev = me;
			if (kids == 0) continue;
			vis = me;
			owner = depth;
			field = 0; // a visible node passes no field to its children
		}
		// A hidden child passes its field down (0 when it is an extra).
		if (depth == room) {
			knowingFrame *bigger = (knowingFrame *)malloc(sizeof(knowingFrame) * (size_t)room * 2);
			if (!bigger) {
				if (st != small) free(st);
				return -2;
			}
			memcpy(bigger, st, sizeof(knowingFrame) * (size_t)room);
			if (st != small) free(st);
			st = bigger;
			room *= 2;
		}
		kn_frame(&st[depth], l, c, bytes, row, vis, owner, field);
		depth++;
	}
	if (st != small) free(st);
	return n;
}
#endif

#ifdef KNOWING_DIRECT
#define KNOWING_HAS_DIRECT 1
static int64_t knowing_flatten_only_direct(knowingNode root, knowingFlat *out, int64_t cap, bool named_only) {
	int64_t skipped;
	int64_t n = knowing_flatten_direct(root, out, cap, named_only, &skipped);
	// Out of memory for the walk's stack (-2): the cursor needs none.
	return n < -1 ? knowing_flatten_cursor(root, out, cap, named_only) : n;
}
#else
#define KNOWING_HAS_DIRECT 0
static int64_t knowing_flatten_only_direct(knowingNode root, knowingFlat *out, int64_t cap, bool named_only) {
	return knowing_flatten_cursor(root, out, cap, named_only);
}
#endif

// knowing_flatten writes the visible nodes under root in pre-order, as a
// TreeCursor walks them, into out (with named_only, all but the anonymous
// leaves). It returns how many it wrote, or -1 when cap is too small.
static int64_t knowing_flatten(knowingNode root, knowingFlat *out, int64_t cap, bool named_only) {
#ifdef KNOWING_DIRECT
	int64_t skipped;
	int64_t n = knowing_flatten_direct(root, out, cap, named_only, &skipped);
	if (n == -1) return -1;
	if (n >= 0 && n + skipped == (int64_t)ts_node_descendant_count(root) && out[0].end == ts_node_end_byte(root)) return n;
#endif
	return knowing_flatten_cursor(root, out, cap, named_only);
}
*/
import "C"

import (
	"runtime"
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

	namedOnly bool // the anonymous leaves are left out
}

// KindNames returns lang's node kinds by id, the FlatTree Names of its
// trees: one cgo call per kind, so extractors build it once, on first use.
func KindNames(lang *sitter.Language) []string {
	names := make([]string, lang.NodeKindCount())
	for i := range names {
		names[i] = lang.NodeKindForId(uint16(i))
	}
	return names
}

// sitter.Node is a struct holding a C TSNode alone; Flatten reads it as
// one. A go-tree-sitter release that changed this would fail here first.
func init() {
	if unsafe.Sizeof(sitter.Node{}) != C.sizeof_knowingNode {
		panic("extract: go-tree-sitter's Node is no longer a bare TSNode")
	}
}

// flatTrees holds FlatTrees between files, so that a tree's node slice is
// reused. It is a plain free list, not a sync.Pool: a pool is emptied by
// every garbage collection, and a build collects dozens of times while it
// parses, each time dropping and then reallocating (and zeroing) every
// worker's node slice (86 MB on the Go standard library).
var flatTrees struct {
	sync.Mutex
	free []*FlatTree
}

// NewFlatTree flattens the tree under root into a pooled FlatTree whose
// kinds read names (the grammar's kind names by id). Release it after use.
func NewFlatTree(root *sitter.Node, src []byte, names []string) *FlatTree {
	return newFlatTree(root, src, names, false)
}

// NewNamedFlatTree is NewFlatTree without the anonymous leaves (a third of
// a Go file's nodes: punctuation, operators, keywords), for an extractor
// that walks named nodes only. Named nodes keep their kinds, spans,
// fields and order; FirstChild, Next and Prev then step over named nodes
// and the rare anonymous node that has children.
func NewNamedFlatTree(root *sitter.Node, src []byte, names []string) *FlatTree {
	return newFlatTree(root, src, names, true)
}

func newFlatTree(root *sitter.Node, src []byte, names []string, namedOnly bool) *FlatTree {
	var t *FlatTree
	flatTrees.Lock()
	if n := len(flatTrees.free); n > 0 {
		t = flatTrees.free[n-1]
		flatTrees.free = flatTrees.free[:n-1]
	}
	flatTrees.Unlock()
	if t == nil {
		t = new(FlatTree)
	}
	t.Names = names
	t.flatten(root, src, walkChecked, namedOnly)
	return t
}

// Release returns t to the free list; t must not be used afterwards. A
// tree that grew very large is dropped rather than kept, and the list
// keeps no more trees than there can be parsers at once.
func (t *FlatTree) Release() {
	t.Src, t.Names = nil, nil
	if cap(t.N) > 1<<20 {
		return
	}
	flatTrees.Lock()
	if len(flatTrees.free) < 4*runtime.GOMAXPROCS(0) {
		flatTrees.free = append(flatTrees.free, t)
	}
	flatTrees.Unlock()
}

// Flatten copies the tree under root into t, reusing t's memory.
func (t *FlatTree) Flatten(root *sitter.Node, src []byte) { t.flatten(root, src, walkChecked, false) }

// How flatten walks: the tests compare walkDirect with walkCursor.
const (
	walkChecked = iota // direct, falling back to the cursor on a count mismatch
	walkCursor         // tree-sitter's TreeCursor alone
	walkDirect         // the direct walk alone
)

// directWalk tells whether this build has the direct walk.
const directWalk = C.KNOWING_HAS_DIRECT != 0

func (t *FlatTree) flatten(root *sitter.Node, src []byte, how int, namedOnly bool) {
	t.Src, t.namedOnly = src, namedOnly
	cn := *(*C.knowingNode)(unsafe.Pointer(root))
	need := int(C.knowing_count(cn))
	for {
		if cap(t.N) < need {
			t.N = make([]FlatNode, need)
		}
		t.N = t.N[:cap(t.N)]
		out, room := (*C.knowingFlat)(unsafe.Pointer(unsafe.SliceData(t.N))), C.int64_t(len(t.N))
		var n int
		switch how {
		case walkCursor:
			n = int(C.knowing_flatten_cursor(cn, out, room, C.bool(namedOnly)))
		case walkDirect:
			n = int(C.knowing_flatten_only_direct(cn, out, room, C.bool(namedOnly)))
		default:
			n = int(C.knowing_flatten(cn, out, room, C.bool(namedOnly)))
		}
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

// Signature is the text of n up to body (-1: all of n) on one line, capped.
func (t *FlatTree) Signature(n, body int32) string {
	end := t.N[n].End
	if body >= 0 {
		end = t.N[body].Start
	}
	return signatureText(t.Src, uint(t.N[n].Start), uint(end))
}

// blank reports whether src[from:to] is only white space.
func blank(src []byte, from, to uint32) bool {
	if to > uint32(len(src)) || from > to {
		return false
	}
	for _, c := range src[from:to] {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// LeftOut reports whether src[from:to] holds text a named-only tree left
// out, such as a token between two named siblings. A full tree leaves
// nothing out: its tokens are nodes.
func (t *FlatTree) LeftOut(from, to uint32) bool {
	return t.namedOnly && !blank(t.Src, from, to)
}

// PrecedingComments collects the contiguous comment siblings ending on the
// line above node i, in source order, stripping the given line-comment
// marker and block markers (see CleanComment).
func (t *FlatTree) PrecedingComments(i int32, marker string) string {
	var parts []string
	line, next := t.Line(i), t.N[i].Start
	for p := t.N[i].Prev; p >= 0; p = t.N[p].Prev {
		if !isCommentKind(t.Kind(p)) {
			break
		}
		if t.EndLine(p)+1 < line {
			break
		}
		// A token between the comment and what follows it ends the doc
		// as a node would; a named-only tree has left the token out, but
		// not its text.
		if t.LeftOut(t.N[p].End, next) {
			break
		}
		line, next = t.Line(p), t.N[p].Start
		parts = append(parts, CleanComment(t.Text(p), marker))
		if len(parts) > 40 {
			break
		}
	}
	return joinComments(parts)
}
