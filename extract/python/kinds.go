package python

import (
	"bytes"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// Node kinds the extractor distinguishes: the codes of its Base.Codes,
// looked up by the grammar's numeric symbol (no string per node).
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

// kindCodes are the codes of the grammar's named kinds, by name.
var kindCodes = map[string]uint8{
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

// The grammar's field ids.
var (
	fAlias, fArguments, fAttribute, fBody, fDefinition, fFunction, fLeft uint16
	fModuleName, fName, fObject, fParameters, fReturnType, fRight        uint16
	fSubscript, fSuperclasses, fType, fValue                             uint16
)

var (
	kindNames []string // the grammar's node kinds by id, the flat tree's Names
	codes     []uint8  // the code of each node kind by id (Base.Codes)
)

// setupOnce fills the field ids and kind tables on first use: at start-up
// they would cost every command, queries included.
var setupOnce sync.Once

// setup fills the field ids and the kind tables.
func setup() {
	lang := sitter.NewLanguage(tspython.Language())
	extract.FieldIDs(lang, map[string]*uint16{
		"alias": &fAlias, "arguments": &fArguments, "attribute": &fAttribute, "body": &fBody,
		"definition": &fDefinition, "function": &fFunction, "left": &fLeft, "module_name": &fModuleName,
		"name": &fName, "object": &fObject, "parameters": &fParameters, "return_type": &fReturnType,
		"right": &fRight, "subscript": &fSubscript, "superclasses": &fSuperclasses, "type": &fType,
		"value": &fValue,
	})
	kindNames = extract.KindNames(lang)
	codes = extract.KindCodes(lang, kindNames, kindCodes)
}

// newBase flattens the named nodes of the tree under root into a pooled
// tree read through Python's kind codes (release it with Release). The
// extractor reads no anonymous node: it finds a header's colon in the text
// between named children (header), and a comment counts as a doc only
// when nothing but white space separates it from what it documents
// (comments).
func newBase(root *sitter.Node, src []byte) extract.Base {
	setupOnce.Do(setup)
	return extract.Base{FlatTree: extract.NewNamedFlatTree(root, src, kindNames), Codes: codes}
}

// only is the one named child of n, or -1 when n has none or several (or
// n is -1).
func (x *extractor) only(n int32) int32 {
	if n < 0 {
		return -1
	}
	c := x.FirstNamed(n)
	if c < 0 || x.NextNamed(c) >= 0 {
		return -1
	}
	return c
}

// nextNamedSibling is the named sibling after n, as
// Node.NextNamedSibling finds it: an empty node ending where n ends does
// not count.
func (x *extractor) nextNamedSibling(n int32) int32 {
	end := x.N[n].End
	c := x.NextNamed(n)
	for c >= 0 && x.N[c].End <= end {
		c = x.NextNamed(c)
	}
	return c
}

// column is the byte column of n's start, as Node.StartPosition reports
// it: tree-sitter counts bytes from the last newline.
func (x *extractor) column(n int32) uint32 {
	s := min(int(x.N[n].Start), len(x.Src))
	return uint32(s - (bytes.LastIndexByte(x.Src[:s], '\n') + 1))
}
