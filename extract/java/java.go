// Package java is the Java extractor of knowing: classes, interfaces,
// enums, records and annotation types with their members, calls with the
// static type of their receiver where the source tells it, type uses and
// imports.
//
// Qualified names follow the package declaration: spark.FilterImpl,
// spark.FilterImpl.withPrefix, spark.FilterImpl.FilterImpl (a constructor
// is named after its class), spark.route.Routes.Entry (a nested class).
// All files of one package form a scope, as in Java.
//
// java.go reads the package and walks the file; names.go binds imported
// names, tells the JDK's and libraries' names from the repository's and
// reads types; decl.go extracts declarations; body.go records the calls,
// type uses and typed locals of code.
//
// It builds on package extract (the Base it embeds, the Repo, the resolver's
// model) and snapshot's kinds and flags; it imports no other language's
// package, nor walk, query or cmd, and the resolver does not import it:
// extract/langs registers it.
package java

import (
	"path"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/internal/scope"
	"github.com/knowing-dev/knowing/snapshot"
)

func init() {
	extract.Register(&extract.Language{
		Lang:         snapshot.LangJava,
		Grammars:     map[string]string{".java": "java"},
		Extract:      extractJava,
		ImplicitSelf: true,
		SelfNames:    []string{"this"},
		SuperNames:   []string{"super"},
		TestName:     isTestName,
	})
}

// The extractor reads a file's tree flattened into Go memory (see
// extract.Base): one cgo call copies every node, and walking the copy
// crosses into C no more.

// The grammar's field ids.
var (
	fArguments, fArray, fBody, fConstructor, fDimensions, fElement, fField, fName uint16
	fObject, fParameters, fRight, fScope, fSuperclass, fType, fTypeParameters     uint16
	fValue                                                                        uint16
)

// kindNames are the grammar's node kinds by id, the flat tree's Names.
var kindNames []string

// setupOnce fills the field ids and kindNames on first use: at start-up
// they would cost every command, queries included.
var setupOnce sync.Once

func setup() {
	lang := sitter.NewLanguage(tsjava.Language())
	extract.FieldIDs(lang, map[string]*uint16{"arguments": &fArguments, "array": &fArray, "body": &fBody,
		"constructor": &fConstructor, "dimensions": &fDimensions, "element": &fElement, "field": &fField,
		"name": &fName, "object": &fObject, "parameters": &fParameters, "right": &fRight, "scope": &fScope,
		"superclass": &fSuperclass, "type": &fType, "type_parameters": &fTypeParameters, "value": &fValue})
	kindNames = extract.KindNames(lang)
}

// testNames holds the names of methods annotated as tests (@Test and its
// JUnit 5 relatives) seen by the extractor. The resolver asks TestName by
// name alone, after every file is extracted, so a name seen annotated in
// any file counts.
var testNames = struct {
	sync.RWMutex
	m map[string]bool
}{m: map[string]bool{}}

func isTestName(name string) bool {
	if strings.HasPrefix(name, "test") {
		return true
	}
	testNames.RLock()
	ok := testNames.m[name]
	testNames.RUnlock()
	return ok
}

func noteTestName(name string) {
	testNames.RLock()
	ok := testNames.m[name]
	testNames.RUnlock()
	if !ok {
		testNames.Lock()
		testNames.m[name] = true
		testNames.Unlock()
	}
}

// vtype is what the extractor knows of a variable's static type: the type
// name as written ("Routes", "spark.route.Routes", "Routes.Entry"; "" when
// unknown or primitive; "[]" for an array) and, for a generic container or
// an array, its element type (the last type argument: List<E>, Map<K,V>,
// Optional<T>).
type vtype struct {
	name, elem string
}

// classCtx is an enclosing class while its members are extracted; its
// Base is the superclass as written.
type classCtx = scope.Class[vtype]

type extractor struct {
	extract.Base
	pkg string
	// jdk is set for files of the JDK itself (package java.*), where the
	// standard library is not external.
	jdk bool

	imported map[string]string    // simple name → imported class or member, dotted
	statics  map[string]bool      // names bound by single static imports
	extNames map[string]bool      // names bound by imports from external libraries
	declared map[string]bool      // type names declared in this file
	classes  scope.Classes[vtype] // enclosing classes, innermost last
	locals   map[string]vtype     // variables of the current callable; nil outside one
	tparams  scope.TypeParams     // type parameters in scope
	anon     []anonCtx            // enclosing anonymous class bodies, innermost last
	// methods are the names of the methods declared in this file.
	methods map[string]bool
	// libStatics is set when the file imports the static members of a
	// library class on demand (import static org.junit.Assert.*).
	libStatics bool
}

// anonCtx is an anonymous class body: new Base(...) { ... }.
type anonCtx struct {
	base    string          // the type it extends or implements
	ext     bool            // base is outside the repository
	methods map[string]bool // methods declared in the body
}

func extractJava(f *extract.File, r *extract.FileResult) {
	setupOnce.Do(setup)
	x := &extractor{Base: extract.Base{FlatTree: extract.NewFlatTree(f.Root, f.Src, kindNames), F: f, R: r},
		imported: map[string]string{}, statics: map[string]bool{}, extNames: map[string]bool{},
		declared: map[string]bool{}, methods: map[string]bool{}}
	defer x.Release()
	const root = 0
	if strings.HasSuffix(f.Path, "module-info.java") || strings.HasSuffix(f.Path, "package-info.java") {
		r.Package = x.javaPackage(f.Path)
		r.Scope = r.Package
		return
	}
	pkg := ""
	hasPkg := false
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "package_declaration":
			for k := x.FirstNamed(c); k >= 0; k = x.NextNamed(k) {
				if kk := x.Kind(k); kk == "scoped_identifier" || kk == "identifier" {
					pkg = x.dotted(k)
					hasPkg = true
				}
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			if n := x.Field(c, fName); n >= 0 {
				x.declared[x.Text(n)] = true
			}
		}
	}
	if !hasPkg {
		pkg = folderPackage(f.Path)
	}
	x.pkg = pkg
	x.jdk = strings.HasPrefix(pkg, "java.") || strings.HasPrefix(pkg, "javax.") || strings.HasPrefix(pkg, "jdk.")
	r.Package = pkg
	r.Scope = pkg
	if pkg == "" {
		r.Scope = "java-default:" + path.Dir(f.Path)
	}
	for c := range x.OfKind(root, "import_declaration") {
		x.importDecl(c)
	}
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			x.typeDecl(c, -1, false)
		}
	}
}

// javaPackage reads the package declaration alone.
func (x *extractor) javaPackage(file string) string {
	const root = 0
	for c := range x.OfKind(root, "package_declaration") {
		for k := x.FirstNamed(c); k >= 0; k = x.NextNamed(k) {
			if kk := x.Kind(k); kk == "scoped_identifier" || kk == "identifier" {
				return x.dotted(k)
			}
		}
	}
	return folderPackage(file)
}

// folderPackage is the package of a file without a package declaration:
// its folder, dotted.
func folderPackage(p string) string {
	dir := path.Dir(p)
	if dir == "." || dir == "/" {
		return ""
	}
	return strings.ReplaceAll(dir, "/", ".")
}

// dotted renders a (scoped) identifier without white space or comments.
func (x *extractor) dotted(n int32) string {
	switch x.Kind(n) {
	case "identifier", "type_identifier":
		return x.Text(n)
	case "scoped_identifier":
		s, nm := x.Field(n, fScope), x.Field(n, fName)
		if s < 0 || nm < 0 {
			return strings.Join(strings.Fields(x.Text(n)), "")
		}
		return x.dotted(s) + "." + x.Text(nm)
	}
	return strings.Join(strings.Fields(x.Text(n)), "")
}
