package ruby

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// The extractor reads a file's tree flattened into Go memory (see
// extract.Base): one cgo call copies every node, and walking the copy
// crosses into C no more. Nodes are indices into the flat tree, -1 is
// none. The tree holds named nodes only (the grammar has no anonymous
// node with children), so a field's node is its first named child there.

// Node kinds the extractor tells apart: the codes of its Base.Codes,
// looked up by the grammar's numeric symbol.
const (
	kOther uint8 = iota
	kComment
	kModule
	kClass
	kSingletonClass
	kMethod
	kSingletonMethod
	kCall
	kIdentifier
	kConstant
	kScopeRes
	kAssignment
	kOpAssignment
	kSuper
	kSelf
	kIVar
	kBlock
	kDoBlock
	kLambda
	kParams // method_parameters, block_parameters, lambda_parameters
	kLeftList
	kExceptionVar
	kFor
	kPattern // in_clause, match_pattern, test_pattern
	kSkip    // alias, undef: names, not expressions
	kString
	kSymbol
	kLiteral
	kArgs
	kBodyStatement
	kBlockBody
	kParenthesized
	kElementRef
	kOptionalParam
	kKeywordParam
	kSplatParam
	kBlockParam
	kDestructuredParam
	kPair
	kHashKeySymbol
	kSetter
	kProgram
	kRescue
	kBinary
	kArray
	kHash
	kConditional
	kBegin
	kElse
	kEnsure
	kHeredocBody
	kClassVar
	kGlobalVar
)

// kindCodes are the codes of the grammar's named kinds, by name.
var kindCodes = map[string]uint8{
	"comment": kComment, "module": kModule, "class": kClass, "singleton_class": kSingletonClass,
	"method": kMethod, "singleton_method": kSingletonMethod, "call": kCall, "identifier": kIdentifier,
	"constant": kConstant, "scope_resolution": kScopeRes, "assignment": kAssignment,
	"operator_assignment": kOpAssignment, "super": kSuper, "self": kSelf,
	"instance_variable": kIVar, "block": kBlock, "do_block": kDoBlock, "lambda": kLambda,
	"method_parameters": kParams, "block_parameters": kParams, "lambda_parameters": kParams,
	"left_assignment_list": kLeftList, "destructured_left_assignment": kLeftList, "rest_assignment": kLeftList,
	"exception_variable": kExceptionVar, "for": kFor,
	"in_clause": kPattern, "match_pattern": kPattern, "test_pattern": kPattern,
	"alias": kSkip, "undef": kSkip,
	"string": kString, "chained_string": kString, "subshell": kString, "regex": kString,
	"simple_symbol": kSymbol, "delimited_symbol": kSymbol, "bare_symbol": kSymbol,
	"integer": kLiteral, "float": kLiteral, "rational": kLiteral, "complex": kLiteral, "nil": kLiteral,
	"true": kLiteral, "false": kLiteral, "character": kLiteral, "string_array": kLiteral,
	"symbol_array": kLiteral, "range": kLiteral, "heredoc_beginning": kString,
	"argument_list": kArgs, "body_statement": kBodyStatement, "block_body": kBlockBody,
	"parenthesized_statements": kParenthesized, "element_reference": kElementRef,
	"optional_parameter": kOptionalParam, "keyword_parameter": kKeywordParam,
	"splat_parameter": kSplatParam, "hash_splat_parameter": kSplatParam, "block_parameter": kBlockParam,
	"destructured_parameter": kDestructuredParam, "pair": kPair, "hash_key_symbol": kHashKeySymbol,
	"setter": kSetter, "program": kProgram, "rescue": kRescue, "binary": kBinary, "array": kArray,
	"hash": kHash, "conditional": kConditional, "begin": kBegin, "else": kElse, "ensure": kEnsure,
	"heredoc_body": kHeredocBody, "class_variable": kClassVar, "global_variable": kGlobalVar,
}

// The grammar's field ids.
var (
	fArguments, fBlock, fBody, fKey, fLeft, fMethod, fName, fParameters uint16
	fPattern, fReceiver, fRight, fScope, fSuperclass, fValue            uint16
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
	lang := sitter.NewLanguage(tsruby.Language())
	extract.FieldIDs(lang, map[string]*uint16{
		"arguments": &fArguments, "block": &fBlock, "body": &fBody, "key": &fKey, "left": &fLeft,
		"method": &fMethod, "name": &fName, "parameters": &fParameters, "pattern": &fPattern,
		"receiver": &fReceiver, "right": &fRight, "scope": &fScope, "superclass": &fSuperclass,
		"value": &fValue,
	})
	kindNames = extract.KindNames(lang)
	codes = extract.KindCodes(lang, kindNames, kindCodes)
}
