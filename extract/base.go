package extract

// Base is the part every language extractor shares: the file, its tree
// flattened into Go memory, and the FileResult it fills. A language embeds
// it in its own extractor, next to the state only that language keeps:
//
//	type extractor struct {
//		extract.Base
//		locals map[string]string // the language's own state
//	}
//
//	func extractFoo(f *extract.File, r *extract.FileResult) {
//		x := &extractor{Base: extract.Base{
//			FlatTree: extract.NewNamedFlatTree(f.Root, f.Src, kindNames()),
//			F:        f, R: r,
//		}}
//		defer x.Release()
//		for c := x.FirstNamed(0); c >= 0; c = x.NextNamed(c) {
//			switch x.Kind(c) { ... }
//		}
//	}
//
// The tree's methods are the extractor's: Kind, Text, Field, FirstNamed,
// NextNamed, PrevNamed, LastNamed, Line, EndLine, Signature,
// PrecedingComments and the rest of FlatTree. Nodes are int32 indices, -1
// is none; a field is read by the id the grammar gives its name
// (Language.FieldIdForName), looked up once per grammar. Add and AddRef
// append to the result. A language that switches on node kinds often may
// set Codes, the grammar's kind ids mapped to its own small codes, and
// switch on Code instead of Kind's strings.
//
// What a language computes once per repository (a module layout, a
// manifest read) it keeps with Memo on F.Repo, not in a package variable.
//
// A Base serves one file on one goroutine.
type Base struct {
	*FlatTree
	F *File       // the file: path, source, repository
	R *FileResult // what the extractor finds
	// Codes maps the grammar's kind ids to the language's codes, which
	// Code reads; nil when the language reads kinds by name alone.
	Codes []uint8
}

// Kind is the node kind of n as the grammar names it, "" for -1.
func (b *Base) Kind(n int32) string {
	if n < 0 {
		return ""
	}
	return b.FlatTree.Kind(n)
}

// Code is the language's code for the kind of n (see Codes): 0 for -1
// and for kinds outside the table.
func (b *Base) Code(n int32) uint8 {
	if n < 0 {
		return 0
	}
	if id := int(b.N[n].Kind); id < len(b.Codes) {
		return b.Codes[id]
	}
	return 0
}

// Add appends a symbol to the result and returns its index, the Parent of
// symbols nested in it and the From of references out of it.
func (b *Base) Add(s Symbol) int32 {
	b.R.Symbols = append(b.R.Symbols, s)
	return int32(len(b.R.Symbols) - 1)
}

// AddRef appends a reference to the result and returns its index.
func (b *Base) AddRef(r Ref) int {
	b.R.Refs = append(b.R.Refs, r)
	return len(b.R.Refs) - 1
}

// JoinName joins two dotted names: "a.b" and "c" make "a.b.c"; an empty
// one is left out.
func JoinName(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}
