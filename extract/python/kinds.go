package python

import (
	"bytes"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

func tspythonLanguage() unsafe.Pointer { return tspython.Language() }

// Node kinds the extractor distinguishes, looked up by the grammar's
// numeric symbol (no string per node).
const (
	kOther uint8 = iota
	kModule
	kBlock
	kExprStmt
	kAssignment
	kAugAssign
	kCall
	kAttribute
	kIdentifier
	kArgList
	kKeywordArg
	kClassDef
	kFuncDef
	kDecorated
	kDecorator
	kImport
	kImportFrom
	kFutureImport
	kAliasedImport
	kDottedName
	kRelativeImport
	kImportPrefix
	kWildcard
	kString
	kConcatString
	kStringContent
	kInterpolation
	kParameters
	kLambdaParams
	kTypedParam
	kDefaultParam
	kTypedDefaultParam
	kListSplatPattern
	kDictSplatPattern
	kType
	kSubscript
	kGenericType
	kTypeParameter
	kBinaryOp
	kUnionType
	kMemberType
	kNone
	kLambda
	kListComp
	kSetComp
	kDictComp
	kGenExpr
	kForIn
	kFor
	kWith
	kWithClause
	kWithItem
	kAsPattern
	kAsPatternTarget
	kExcept
	kNamedExpr
	kComment
	kTuple
	kPatternList
	kTuplePattern
	kListPattern
	kParenExpr
	kList
	kTypeAlias
	kGlobal
	kNonlocal
	kIf
	kElif
	kElse
	kTry
	kFinally
	kWhile
	kAwait
	kKeywordSep
	kPositionalSep
	kInteger
	kFloat
	kTrue
	kFalse
	kDictionary
	kSet
	kEllipsis
	kReturn
	kConditional
	kBoolOp
	kListSplat
	kDictSplat
	kPair
	kUnary
	kNot
	kComparison
	kDelete
	kRaise
	kAssert
	kPass
	kMatch
	kCase
	kExpressionList
	kSlice
	kKeywordIdentifier
	kYield
)

var kindNames = map[string]uint8{
	"module": kModule, "block": kBlock, "expression_statement": kExprStmt, "assignment": kAssignment,
	"augmented_assignment": kAugAssign, "call": kCall, "attribute": kAttribute, "identifier": kIdentifier,
	"argument_list": kArgList, "keyword_argument": kKeywordArg, "class_definition": kClassDef,
	"function_definition": kFuncDef, "decorated_definition": kDecorated, "decorator": kDecorator,
	"import_statement": kImport, "import_from_statement": kImportFrom, "future_import_statement": kFutureImport,
	"aliased_import": kAliasedImport, "dotted_name": kDottedName, "relative_import": kRelativeImport,
	"import_prefix": kImportPrefix, "wildcard_import": kWildcard, "string": kString,
	"concatenated_string": kConcatString, "string_content": kStringContent, "interpolation": kInterpolation,
	"parameters": kParameters, "lambda_parameters": kLambdaParams, "typed_parameter": kTypedParam,
	"default_parameter": kDefaultParam, "typed_default_parameter": kTypedDefaultParam,
	"list_splat_pattern": kListSplatPattern, "dictionary_splat_pattern": kDictSplatPattern, "type": kType,
	"subscript": kSubscript, "generic_type": kGenericType, "type_parameter": kTypeParameter,
	"binary_operator": kBinaryOp, "union_type": kUnionType, "member_type": kMemberType, "none": kNone,
	"lambda": kLambda, "list_comprehension": kListComp, "set_comprehension": kSetComp,
	"dictionary_comprehension": kDictComp, "generator_expression": kGenExpr, "for_in_clause": kForIn,
	"for_statement": kFor, "with_statement": kWith, "with_clause": kWithClause, "with_item": kWithItem,
	"as_pattern": kAsPattern, "as_pattern_target": kAsPatternTarget, "except_clause": kExcept,
	"except_group_clause": kExcept, "named_expression": kNamedExpr, "comment": kComment, "tuple": kTuple,
	"pattern_list": kPatternList, "tuple_pattern": kTuplePattern, "list_pattern": kListPattern,
	"parenthesized_expression": kParenExpr, "list": kList, "type_alias_statement": kTypeAlias,
	"global_statement": kGlobal, "nonlocal_statement": kNonlocal, "if_statement": kIf, "elif_clause": kElif,
	"else_clause": kElse, "try_statement": kTry, "finally_clause": kFinally, "while_statement": kWhile,
	"await": kAwait, "keyword_separator": kKeywordSep, "positional_separator": kPositionalSep,
	"integer": kInteger, "float": kFloat, "true": kTrue, "false": kFalse, "dictionary": kDictionary,
	"set": kSet, "ellipsis": kEllipsis, "return_statement": kReturn, "conditional_expression": kConditional,
	"boolean_operator": kBoolOp, "list_splat": kListSplat, "dictionary_splat": kDictSplat, "pair": kPair,
	"unary_operator": kUnary, "not_operator": kNot, "comparison_operator": kComparison,
	"delete_statement": kDelete, "raise_statement": kRaise, "assert_statement": kAssert,
	"pass_statement": kPass, "match_statement": kMatch, "case_clause": kCase,
	"expression_list": kExpressionList, "slice": kSlice, "keyword_identifier": kKeywordIdentifier, "yield": kYield,
}

// kinds maps grammar symbols to the codes above, and holds field ids.
type kinds struct {
	byID  []uint8
	names []string // the grammar's node kinds by id, for FlatTree.Names

	fName, fAlias, fBody, fParameters, fReturnType, fSuperclasses, fDefinition uint16
	fLeft, fRight, fType, fFunction, fArguments, fObject, fAttribute, fValue   uint16
	fModuleName, fSubscript                                                    uint16
}

var (
	kindOnce sync.Once
	kindTab  *kinds
)

func kindTable() *kinds {
	kindOnce.Do(func() {
		l := pyLang
		k := &kinds{names: extract.KindNames(l)}
		k.byID = make([]uint8, len(k.names)+1)
		for i := range k.names {
			id := uint16(i)
			if !l.NodeKindIsNamed(id) {
				continue
			}
			if c, ok := kindNames[k.names[id]]; ok {
				k.byID[id] = c
			}
		}
		f := l.FieldIdForName
		k.fName, k.fAlias, k.fBody, k.fParameters = f("name"), f("alias"), f("body"), f("parameters")
		k.fReturnType, k.fSuperclasses, k.fDefinition = f("return_type"), f("superclasses"), f("definition")
		k.fLeft, k.fRight, k.fType, k.fFunction = f("left"), f("right"), f("type"), f("function")
		k.fArguments, k.fObject, k.fAttribute, k.fValue = f("arguments"), f("object"), f("attribute"), f("value")
		k.fModuleName, k.fSubscript = f("module_name"), f("subscript")
		kindTab = k
	})
	return kindTab
}

// of is the code of node n of t (kOther for -1).
func (k *kinds) of(t *extract.FlatTree, n int32) uint8 {
	if n < 0 {
		return kOther
	}
	if id := t.N[n].Kind; int(id) < len(k.byID) {
		return k.byID[id]
	}
	return kOther
}

// The extractor reads a file's tree flattened into Go memory
// (extract.FlatTree), copied out of tree-sitter in one cgo call: walking
// it costs no call into C per node. Nodes are indices, -1 is none.

// flatten copies the named nodes of the tree under root into a pooled
// FlatTree (release it with Release). The extractor reads no anonymous
// node: it finds a header's colon in the text between named children
// (header), and a comment counts as a doc only when nothing but white
// space separates it from what it documents (comments).
func flatten(root *sitter.Node, src []byte) *extract.FlatTree {
	return extract.NewNamedFlatTree(root, src, kindTable().names)
}

// only is the one named child of n, or -1 when n has none or several (or
// n is -1).
func only(t *extract.FlatTree, n int32) int32 {
	if n < 0 {
		return -1
	}
	c := t.FirstNamed(n)
	if c < 0 || t.NextNamed(c) >= 0 {
		return -1
	}
	return c
}

// nextNamedSibling is the named sibling after n, as
// Node.NextNamedSibling finds it: an empty node ending where n ends does
// not count.
func nextNamedSibling(t *extract.FlatTree, n int32) int32 {
	end := t.N[n].End
	c := t.NextNamed(n)
	for c >= 0 && t.N[c].End <= end {
		c = t.NextNamed(c)
	}
	return c
}

// column is the byte column of n's start, as Node.StartPosition reports
// it: tree-sitter counts bytes from the last newline.
func column(t *extract.FlatTree, n int32) uint32 {
	s := min(int(t.N[n].Start), len(t.Src))
	return uint32(s - (bytes.LastIndexByte(t.Src[:s], '\n') + 1))
}
