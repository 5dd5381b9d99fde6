package snapshot

import (
	"strings"
	"time"
)

// Kind is what a node is.
type Kind uint8

const (
	KindUnknown     Kind = iota
	KindPackage          // a package, module or namespace
	KindFile             // a source file
	KindStruct           // struct, record
	KindClass            // class
	KindInterface        // interface, protocol
	KindTrait            // Rust trait
	KindEnum             // enum
	KindModule           // Ruby module, Rust mod declared inline
	KindTypeAlias        // a named type that is neither of the above
	KindFunction         // free function
	KindMethod           // function with a receiver or inside a type
	KindConstructor      // constructor, initializer
	KindField            // field, property, attribute
	KindConstant         // constant, enum member
	KindVariable         // package-level variable
	KindExternal         // a name outside the repository, kept as a walk target
	numKinds
)

var kindNames = [numKinds]string{
	"unknown", "package", "file", "struct", "class", "interface", "trait", "enum",
	"module", "type", "function", "method", "constructor", "field", "constant",
	"variable", "external",
}

func (k Kind) String() string { return enumName(kindNames[:], k) }

// ParseKind is the inverse of Kind.String.
func ParseKind(s string) Kind { return parseEnum[Kind](kindNames[:], s) }

// enumName is the String of the enumerations Kind, Lang and EdgeType: v's
// name, or that of value 0 ("unknown") when v is out of range.
func enumName[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return names[0]
}

// parseEnum is the inverse of enumName: the value named s, 0 ("unknown")
// when none is.
func parseEnum[T ~uint8](names []string, s string) T {
	for i, n := range names {
		if n == s {
			return T(i)
		}
	}
	return 0
}

// IsType reports kinds that declare a type (and can contain methods).
func (k Kind) IsType() bool {
	switch k {
	case KindStruct, KindClass, KindInterface, KindTrait, KindEnum, KindModule, KindTypeAlias:
		return true
	}
	return false
}

// IsCallable reports functions, methods and constructors.
func (k Kind) IsCallable() bool {
	return k == KindFunction || k == KindMethod || k == KindConstructor
}

// Lang is a source language.
type Lang uint8

const (
	LangUnknown Lang = iota
	LangGo
	LangPython
	LangJavaScript
	LangTypeScript
	LangRust
	LangJava
	LangCSharp
	LangRuby
	LangC   // C: .c files, and .h files unless package extract/cfamily reads one as C++
	LangCPP // C++
	numLangs
)

var langNames = [numLangs]string{"unknown", "go", "python", "javascript", "typescript", "rust", "java", "csharp", "ruby", "c", "cpp"}

func (l Lang) String() string { return enumName(langNames[:], l) }

// ParseLang is the inverse of Lang.String.
func ParseLang(s string) Lang { return parseEnum[Lang](langNames[:], s) }

// Flags mark nodes and files that are usually noise for retrieval.
type Flags uint16

const (
	FlagTest      Flags = 1 << iota // in a test file, or a test function
	FlagGenerated                   // generated code
	FlagVendored                    // vendored third-party code
	FlagMinified                    // minified code
	FlagMock                        // a mock, fake or stub
	FlagExternal                    // defined outside the repository
	FlagExported                    // visible outside its package or module
	// FlagExample marks code in an examples, samples, demo or benchmarks
	// folder: code that uses the project rather than being part of it.
	FlagExample
)

var flagNames = []string{"test", "generated", "vendored", "minified", "mock", "external", "exported", "example"}

func (f Flags) String() string {
	var parts []string
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ",")
}

// Noise reports flags that make a node unfit as a retrieval seed.
func (f Flags) Noise() bool {
	return f&(FlagGenerated|FlagVendored|FlagMinified|FlagMock|FlagExternal) != 0
}

// EdgeType is the relation an edge stands for.
type EdgeType uint8

const (
	EdgeUnknown    EdgeType = iota
	EdgeContains            // container → member (package → file → type → method)
	EdgeMemberOf            // member → container
	EdgeCalls               // caller → callee
	EdgeImports             // file or package → imported package or module
	EdgeExtends             // subclass → superclass, sub-interface → interface
	EdgeImplements          // type → interface or trait it implements
	EdgeInherits            // subclass → a method of a parent it inherits
	EdgeReferences          // symbol → type it uses
	EdgeTypeHintOf          // type → function that takes or returns it
	EdgeTests               // test → symbol it exercises
	EdgeTestedBy            // symbol → test that exercises it
	EdgeOverrides           // method → parent method it overrides
	EdgeCoChange            // symbol → symbol changed in the same commits (one edge per pair, lower id first)
	numEdgeTypes
)

// NumEdgeTypes is the count of defined edge types.
const NumEdgeTypes = int(numEdgeTypes)

var edgeNames = [numEdgeTypes]string{
	"unknown", "contains", "member_of", "calls", "imports", "extends", "implements",
	"inherits", "references", "type_hint_of", "tests", "tested_by", "overrides", "co_change",
}

func (t EdgeType) String() string { return enumName(edgeNames[:], t) }

// ParseEdgeType is the inverse of EdgeType.String.
func ParseEdgeType(s string) EdgeType { return parseEnum[EdgeType](edgeNames[:], s) }

// An edge's attribute byte in the CSR packs the type in the low five bits
// and a confidence bucket (0..7, confidence ≈ (bucket+1)/8) in the high three.

// PackAttr packs an edge type and a confidence in [0,1] into one byte.
func PackAttr(t EdgeType, confidence float32) uint8 {
	b := int(confidence*8+0.5) - 1
	if b < 0 {
		b = 0
	}
	if b > 7 {
		b = 7
	}
	return uint8(t)&0x1f | uint8(b)<<5
}

// AttrType unpacks the edge type of an attribute byte.
func AttrType(a uint8) EdgeType { return EdgeType(a & 0x1f) }

// AttrConfidence unpacks the confidence of an attribute byte.
func AttrConfidence(a uint8) float32 { return float32(a>>5+1) / 8 }

// Graph is what the writer is given: the whole extracted repository.
type Graph struct {
	Meta  Meta
	Files []File
	Nodes []Node
	Edges []Edge
	// Stamps, with each file's ModTime and Hash, is what the staleness
	// check compares the repository with (see Snapshot.Stale); nil
	// writes a snapshot that cannot tell whether it is stale.
	Stamps *Stamps
}

// File is one source file of the repository.
type File struct {
	Path  string // slash-separated, relative to the repository root
	Lang  Lang
	Flags Flags
	Size  uint64 // bytes
	// ModTime is the file's modification time as the build saw it, in
	// nanoseconds since the Unix epoch; Hash is Fingerprint of the bytes
	// it parsed. Both are zero when the build recorded no stamps.
	ModTime int64
	Hash    uint64
}

// Stamps describe the tree a build read, beyond its source files' own
// stamps: enough for the staleness check to notice, by stat calls, files
// that changed, appeared or went away since.
type Stamps struct {
	// WalkStart is when the build's walk began (nanoseconds since the
	// Unix epoch). A file whose modification time is this close to it
	// may have changed again within the file system's timestamp
	// granularity: the check reads it (see RacyWindow).
	WalkStart int64
	// MaxFileSize is the largest source file the build kept (bytes; a
	// negative value: no limit).
	MaxFileSize int64
	// Exts are the lower-case extensions the build parsed (".go").
	Exts []string
	// Dirs are the folders the walk entered ("" the root), with their
	// modification times: a folder gains or loses entries only by
	// changing its time.
	Dirs []DirStamp
	// Deps are the other files the build read and whose content shapes
	// the answers: ignore files and manifests (go.mod, package.json).
	// Their paths may lead above the root ("../go.mod").
	Deps []DepStamp
}

// DirStamp is a folder the walk entered.
type DirStamp struct {
	Path    string // slash-separated, relative to the root; "" the root
	ModTime int64  // nanoseconds since the Unix epoch
}

// DepStamp is a file besides the sources that the build read.
type DepStamp struct {
	Path    string // slash-separated, relative to the root
	Size    uint64
	ModTime int64
	Hash    uint64 // Fingerprint of its bytes
}

// Node is one symbol. Its id is its index in Graph.Nodes.
type Node struct {
	Name      string // the symbol's own name: "before_request"
	QName     string // qualified: "flask.sansio.scaffold.Scaffold.before_request"
	Kind      Kind
	Lang      Lang
	Flags     Flags
	File      int32 // index into Graph.Files, or -1 for none (packages, externals)
	StartLine uint32
	EndLine   uint32
	Signature string
	Doc       string
	// Body and Text are what a callable's body uses: its distinct
	// identifiers, and the words of its string literals and comments.
	// The snapshot keeps them only as the body index's postings
	// (FORMAT.md, "body"); a Snapshot's nodes do not return them.
	Body, Text string
	// History holds the subjects of the recent commits that changed the
	// symbol, when the repository's history was read; kept, like Body,
	// only as body-index postings.
	History string
	// Changed is 1 + the place, newest first, of the most recent commit
	// of the history window that changed the symbol (0: none did, or no
	// history was read); Churn is how many of the window's commits did.
	Changed, Churn uint16
}

// Edge is one directed relation between two nodes.
type Edge struct {
	From, To   uint32
	Type       EdgeType
	Confidence float32 // in [0,1]
}

// Meta describes how and from what a snapshot was built.
type Meta struct {
	RepoRoot  string `json:"repo_root"`
	GitCommit string `json:"git_commit,omitempty"`
	// GitDirty, in a git work tree with git installed, says whether the
	// tree differed from GitCommit when the build began (modified or
	// untracked files); nil when unknown.
	GitDirty    *bool     `json:"git_dirty,omitempty"`
	BuildTime   time.Time `json:"build_time"`
	ToolVersion string    `json:"tool_version"`
	Files       int       `json:"files"`
	Nodes       int       `json:"nodes"`
	Edges       int       `json:"edges"`
	SourceBytes int64     `json:"source_bytes"`
	// Extra holds free-form build facts (e.g. per-language counts).
	Extra map[string]string `json:"extra,omitempty"`
}
