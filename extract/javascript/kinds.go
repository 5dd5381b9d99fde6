package javascript

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

// Node kinds the extractor tells apart, as small codes looked up by the
// grammar's numeric symbol id (no string comparison per node).
const (
	kOther uint8 = iota
	kProgram
	kStatementBlock
	kExpressionStatement
	kExport
	kImport
	kImportClause
	kNamedImports
	kNamespaceImport
	kImportSpecifier
	kImportRequireClause
	kExportClause
	kExportSpecifier
	kNamespaceExport
	kClassDecl
	kClassExpr
	kClassHeritage
	kExtendsClause
	kImplementsClause
	kClassBody
	kMethodDef
	kFieldDef
	kMethodSig
	kAbstractMethodSig
	kStaticBlock
	kFunctionDecl
	kFunctionExpr
	kArrow
	kFunctionSig
	kLexicalDecl
	kVarDeclarator
	kInterface
	kExtendsTypeClause
	kInterfaceBody
	kObjectType
	kPropertySig
	kOtherSig
	kTypeAlias
	kEnum
	kEnumBody
	kEnumAssignment
	kNamespace
	kAmbient
	kCall
	kNew
	kMember
	kIdentifier
	kPropertyIdentifier
	kThis
	kSuper
	kImportKw
	kAwait
	kParen
	kNonNull
	kAs
	kTypeAssertion
	kAssign
	kObject
	kPair
	kShorthandProp
	kString
	kTemplateString
	kArguments
	kFormalParams
	kParam
	kAssignPattern
	kObjectPattern
	kArrayPattern
	kRestPattern
	kShorthandPattern
	kPairPattern
	kObjectAssignPattern
	kTypeAnnotation
	kTypeIdentifier
	kNestedTypeIdentifier
	kGenericType
	kTypeArguments
	kTypeParameters
	kTypeParameter
	kPredefinedType
	kArrayType
	kUnionType
	kParenType
	kFunctionType
	kTypeQuery
	kLiteralType
	kJSXOpen
	kJSXExpression
	kJSXAttribute
	kNestedIdentifier
	kComment
	kDecorator
	kAccessibility
	kForIn
	kCatch
	kInstantiation
	kComputedName
	kNumber
	kSpread
	kTypePredicate
	kReturn

	// anonymous tokens
	kwStatic
	kwAsync
	kwGet
	kwSet
	kwConst
	kwDefault
	kwAbstract
	kwReadonly
	kwDeclare
)

var namedKinds = map[string]uint8{
	"program":                               kProgram,
	"statement_block":                       kStatementBlock,
	"expression_statement":                  kExpressionStatement,
	"export_statement":                      kExport,
	"import_statement":                      kImport,
	"import_clause":                         kImportClause,
	"named_imports":                         kNamedImports,
	"namespace_import":                      kNamespaceImport,
	"import_specifier":                      kImportSpecifier,
	"import_require_clause":                 kImportRequireClause,
	"export_clause":                         kExportClause,
	"export_specifier":                      kExportSpecifier,
	"namespace_export":                      kNamespaceExport,
	"class_declaration":                     kClassDecl,
	"abstract_class_declaration":            kClassDecl,
	"class":                                 kClassExpr,
	"class_heritage":                        kClassHeritage,
	"extends_clause":                        kExtendsClause,
	"implements_clause":                     kImplementsClause,
	"class_body":                            kClassBody,
	"method_definition":                     kMethodDef,
	"field_definition":                      kFieldDef,
	"public_field_definition":               kFieldDef,
	"method_signature":                      kMethodSig,
	"abstract_method_signature":             kAbstractMethodSig,
	"class_static_block":                    kStaticBlock,
	"function_declaration":                  kFunctionDecl,
	"generator_function_declaration":        kFunctionDecl,
	"function_expression":                   kFunctionExpr,
	"function":                              kFunctionExpr,
	"generator_function":                    kFunctionExpr,
	"arrow_function":                        kArrow,
	"function_signature":                    kFunctionSig,
	"lexical_declaration":                   kLexicalDecl,
	"variable_declaration":                  kLexicalDecl,
	"variable_declarator":                   kVarDeclarator,
	"interface_declaration":                 kInterface,
	"extends_type_clause":                   kExtendsTypeClause,
	"interface_body":                        kInterfaceBody,
	"object_type":                           kObjectType,
	"property_signature":                    kPropertySig,
	"call_signature":                        kOtherSig,
	"construct_signature":                   kOtherSig,
	"index_signature":                       kOtherSig,
	"type_alias_declaration":                kTypeAlias,
	"enum_declaration":                      kEnum,
	"enum_body":                             kEnumBody,
	"enum_assignment":                       kEnumAssignment,
	"internal_module":                       kNamespace,
	"module":                                kNamespace,
	"ambient_declaration":                   kAmbient,
	"call_expression":                       kCall,
	"new_expression":                        kNew,
	"member_expression":                     kMember,
	"identifier":                            kIdentifier,
	"property_identifier":                   kPropertyIdentifier,
	"private_property_identifier":           kPropertyIdentifier,
	"this":                                  kThis,
	"super":                                 kSuper,
	"import":                                kImportKw,
	"await_expression":                      kAwait,
	"parenthesized_expression":              kParen,
	"non_null_expression":                   kNonNull,
	"as_expression":                         kAs,
	"satisfies_expression":                  kAs,
	"type_assertion":                        kTypeAssertion,
	"assignment_expression":                 kAssign,
	"object":                                kObject,
	"pair":                                  kPair,
	"shorthand_property_identifier":         kShorthandProp,
	"string":                                kString,
	"template_string":                       kTemplateString,
	"arguments":                             kArguments,
	"formal_parameters":                     kFormalParams,
	"required_parameter":                    kParam,
	"optional_parameter":                    kParam,
	"assignment_pattern":                    kAssignPattern,
	"object_pattern":                        kObjectPattern,
	"array_pattern":                         kArrayPattern,
	"rest_pattern":                          kRestPattern,
	"shorthand_property_identifier_pattern": kShorthandPattern,
	"pair_pattern":                          kPairPattern,
	"object_assignment_pattern":             kObjectAssignPattern,
	"type_annotation":                       kTypeAnnotation,
	"type_identifier":                       kTypeIdentifier,
	"nested_type_identifier":                kNestedTypeIdentifier,
	"generic_type":                          kGenericType,
	"type_arguments":                        kTypeArguments,
	"type_parameters":                       kTypeParameters,
	"type_parameter":                        kTypeParameter,
	"predefined_type":                       kPredefinedType,
	"array_type":                            kArrayType,
	"union_type":                            kUnionType,
	"parenthesized_type":                    kParenType,
	"readonly_type":                         kParenType,
	"function_type":                         kFunctionType,
	"constructor_type":                      kFunctionType,
	"type_query":                            kTypeQuery,
	"literal_type":                          kLiteralType,
	"template_literal_type":                 kLiteralType,
	"jsx_opening_element":                   kJSXOpen,
	"jsx_self_closing_element":              kJSXOpen,
	"jsx_expression":                        kJSXExpression,
	"jsx_attribute":                         kJSXAttribute,
	"nested_identifier":                     kNestedIdentifier,
	"comment":                               kComment,
	"html_comment":                          kComment,
	"decorator":                             kDecorator,
	"accessibility_modifier":                kAccessibility,
	"for_in_statement":                      kForIn,
	"catch_clause":                          kCatch,
	"instantiation_expression":              kInstantiation,
	"computed_property_name":                kComputedName,
	"number":                                kNumber,
	"spread_element":                        kSpread,
	"type_predicate":                        kTypePredicate,
	"asserts":                               kTypePredicate,
}

var anonKinds = map[string]uint8{
	"static":   kwStatic,
	"async":    kwAsync,
	"get":      kwGet,
	"set":      kwSet,
	"const":    kwConst,
	"default":  kwDefault,
	"abstract": kwAbstract,
	"readonly": kwReadonly,
	"declare":  kwDeclare,
}

// grammarInfo holds the kind table and field ids of one grammar. JS, TS
// and TSX number their kinds and fields differently: each has its own.
type grammarInfo struct {
	codes []uint8  // codes above by symbol id, the extractor's Base.Codes
	names []string // node kinds by symbol id, the flat tree's Names
	js    bool     // the JavaScript grammar (not TypeScript's)

	fName, fBody, fValue, fParameters, fParameter, fReturnType, fType, fFunction,
	fArguments, fObject, fProperty, fConstructor, fLeft, fRight, fSource, fAlias,
	fDeclaration, fKey, fPattern, fModule, fTypeArguments, fTypeParameters uint16
}

// The grammars' tables, built on first use: building them at start-up
// would cost every command, queries included.
var (
	jsGrammar  = sync.OnceValue(func() *grammarInfo { return newGrammar(tsjs.Language(), true) })
	tsGrammar  = sync.OnceValue(func() *grammarInfo { return newGrammar(tsts.LanguageTypescript(), false) })
	tsxGrammar = sync.OnceValue(func() *grammarInfo { return newGrammar(tsts.LanguageTSX(), false) })
)

func newGrammar(ptr unsafe.Pointer, js bool) *grammarInfo {
	lang := sitter.NewLanguage(ptr)
	g := &grammarInfo{names: extract.KindNames(lang), js: js}
	g.codes = make([]uint8, len(g.names))
	for id, kname := range g.names {
		if lang.NodeKindIsNamed(uint16(id)) {
			g.codes[id] = namedKinds[kname]
		} else {
			g.codes[id] = anonKinds[kname]
		}
	}
	f := lang.FieldIdForName
	g.fName, g.fBody, g.fValue = f("name"), f("body"), f("value")
	g.fParameters, g.fParameter, g.fReturnType = f("parameters"), f("parameter"), f("return_type")
	g.fType, g.fFunction, g.fArguments = f("type"), f("function"), f("arguments")
	g.fObject, g.fProperty, g.fConstructor = f("object"), f("property"), f("constructor")
	g.fLeft, g.fRight, g.fSource, g.fAlias = f("left"), f("right"), f("source"), f("alias")
	g.fDeclaration, g.fKey, g.fPattern = f("declaration"), f("key"), f("pattern")
	g.fModule, g.fTypeArguments, g.fTypeParameters = f("module"), f("type_arguments"), f("type_parameters")
	return g
}
