// Package java is the Java extractor of knowing: classes, interfaces,
// enums, records and annotation types with their members, calls with the
// static type of their receiver where the source tells it, type uses and
// imports.
//
// Qualified names follow the package declaration: spark.FilterImpl,
// spark.FilterImpl.withPrefix, spark.FilterImpl.FilterImpl (a constructor
// is named after its class), spark.route.Routes.Entry (a nested class).
// All files of one package form a scope, as in Java.
package java

import (
	"path"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/knowing-dev/knowing/extract"
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
	for _, f := range []struct {
		id   *uint16
		name string
	}{{&fArguments, "arguments"}, {&fArray, "array"}, {&fBody, "body"}, {&fConstructor, "constructor"},
		{&fDimensions, "dimensions"}, {&fElement, "element"}, {&fField, "field"}, {&fName, "name"},
		{&fObject, "object"}, {&fParameters, "parameters"}, {&fRight, "right"}, {&fScope, "scope"},
		{&fSuperclass, "superclass"}, {&fType, "type"}, {&fTypeParameters, "type_parameters"},
		{&fValue, "value"}} {
		if *f.id = lang.FieldIdForName(f.name); *f.id == 0 {
			panic("java grammar has no field " + f.name)
		}
	}
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

// classCtx is an enclosing class while its members are extracted.
type classCtx struct {
	sym    int32
	name   string
	super  string           // the superclass as written, or ""
	fields map[string]vtype // fields declared in the body
}

type extractor struct {
	extract.Base
	pkg string
	// jdk is set for files of the JDK itself (package java.*), where the
	// standard library is not external.
	jdk bool

	imported map[string]string // simple name → imported class or member, dotted
	statics  map[string]bool   // names bound by single static imports
	extNames map[string]bool   // names bound by imports from external libraries
	declared map[string]bool   // type names declared in this file
	classes  []*classCtx
	locals   map[string]vtype // variables of the current callable; nil outside one
	tparams  []string         // type parameters in scope
	anon     []anonCtx        // enclosing anonymous class bodies, innermost last
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
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "import_declaration" {
			x.importDecl(c)
		}
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
	for c := x.FirstNamed(root); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "package_declaration" {
			for k := x.FirstNamed(c); k >= 0; k = x.NextNamed(k) {
				if kk := x.Kind(k); kk == "scoped_identifier" || kk == "identifier" {
					return x.dotted(k)
				}
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

// ---- imports and external names ----

func (x *extractor) importDecl(n int32) {
	static, star := false, false
	name := ""
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		switch x.Kind(c) {
		case "static":
			static = true
		case "asterisk":
			star = true
		case "scoped_identifier", "identifier":
			name = x.dotted(c)
		}
	}
	if name == "" {
		return
	}
	if star {
		x.R.Imports = append(x.R.Imports, extract.Import{Path: name, Name: "*"})
		if static && x.externalPath(name) {
			x.libStatics = true
		}
		return
	}
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return // a class of the default package: nothing to key it on
	}
	pkg, member := name[:i], name[i+1:]
	x.R.Imports = append(x.R.Imports, extract.Import{Path: pkg, Name: member})
	x.imported[member] = name
	if static {
		x.statics[member] = true
	}
	if x.externalPath(name) {
		x.extNames[member] = true
	}
}

// externalPrefixes are package prefixes of the JDK and of widely used
// libraries. A name imported from them is not in the repository (unless
// the repository is that library: see externalPath).
var externalPrefixes = []string{
	"java.", "javax.", "jakarta.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "org.ietf.",
	"org.junit.", "junit.", "org.mockito.", "org.hamcrest.", "org.assertj.", "org.testng.", "org.easymock.",
	"org.slf4j.", "org.apache.", "org.eclipse.", "ch.qos.", "org.springframework.", "com.google.",
	"com.fasterxml.", "io.netty.", "kotlin.", "kotlinx.", "scala.", "android.", "androidx.", "lombok.",
	"org.json.", "com.squareup.", "okhttp3.", "io.reactivex.", "reactor.", "org.jetbrains.", "freemarker.",
	"org.hibernate.", "io.micrometer.", "org.yaml.", "org.objectweb.", "net.bytebuddy.", "org.bson.",
	"com.mongodb.", "io.grpc.", "org.codehaus.", "org.thymeleaf.", "org.mustache.", "com.github.jknack.",
	"org.apache.velocity.", "io.vertx.", "org.osgi.", "org.joda.", "groovy.", "org.gradle.", "org.jsoup.",
	"org.powermock.", "io.restassured.", "org.skyscreamer.", "net.javacrumbs.", "org.awaitility.",
}

// libStaticNames are the static methods of assertion and mocking libraries
// usually imported on demand; in a file with such an import, a bare call
// of one that the file does not declare is the library's.
var libStaticNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`assertEquals assertNotEquals assertTrue assertFalse assertNull
		assertNotNull assertSame assertNotSame assertArrayEquals assertThat assertThrows assertDoesNotThrow
		assertAll assertTimeout assertIterableEquals assertLinesMatch fail assumeTrue assumeFalse assumeThat
		verify when mock spy any anyString anyInt anyLong anyBoolean anyList anyMap anyObject anySet
		anyCollection eq times never atLeast atLeastOnce atMost only doReturn doThrow doNothing doAnswer
		doCallRealMethod given willReturn then thenReturn is not equalTo notNullValue nullValue
		containsString hasItem hasItems hasSize hasKey hasEntry instanceOf sameInstance closeTo greaterThan
		lessThan allOf anyOf everyItem startsWith endsWith isA argThat reset verifyNoMoreInteractions
		verifyNoInteractions verifyZeroInteractions inOrder mockStatic whenNew verifyStatic
		contains containsInAnyOrder empty emptyString isEmptyString nullable refEq same`) {
		libStaticNames[n] = true
	}
}

// externalPath reports whether a dotted import names a package of the JDK
// or of a well-known library that is not the repository's own code (the
// file's package is not under the same project root).
func (x *extractor) externalPath(p string) bool {
	if x.jdk {
		return false
	}
	ext := false
	for _, pre := range externalPrefixes {
		if strings.HasPrefix(p, pre) {
			ext = true
			break
		}
	}
	if !ext {
		return false
	}
	return projectRoot(p) != projectRoot(x.pkg)
}

// Top-level domains that start reversed-domain package names, and the
// organisations under which several independent projects live.
var (
	domains   = map[string]bool{"org": true, "com": true, "net": true, "io": true, "edu": true, "gov": true, "co": true, "dev": true, "me": true, "de": true, "fr": true, "uk": true, "nl": true, "ch": true, "cn": true, "jp": true, "ru": true, "app": true}
	umbrellas = map[string]bool{"apache": true, "eclipse": true, "jboss": true, "codehaus": true, "google": true, "github": true, "sun": true, "oracle": true, "ibm": true, "microsoft": true, "amazonaws": true, "netflix": true, "squareup": true, "fasterxml": true, "springframework": true}
)

// projectRoot is the part of a package name that names the project:
// "spark" for spark.route, "org.eclipse.jetty" for org.eclipse.jetty.server,
// "com.acme" for com.acme.billing.
func projectRoot(s string) string {
	parts := strings.SplitN(s, ".", 4)
	n := 1
	if domains[parts[0]] && len(parts) > 1 {
		n = 2
		if umbrellas[parts[1]] && len(parts) > 2 {
			n = 3
		}
	}
	return strings.Join(parts[:n], ".")
}

// jdkNames are java.lang types (visible without import) and the commonest
// types of java.util, java.io, java.nio and java.util.function, usually
// imported on demand. A type of these names that is neither declared in
// the file nor imported by name is taken to be the JDK's.
var jdkNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`String Object Integer Long Short Byte Double Float Boolean Character
		Number Math StrictMath System Thread ThreadLocal Runtime Class ClassLoader Iterable Comparable
		CharSequence StringBuilder StringBuffer Throwable Exception RuntimeException Error Enum Void
		Process ProcessBuilder AutoCloseable Runnable IllegalArgumentException IllegalStateException
		NullPointerException UnsupportedOperationException IndexOutOfBoundsException
		ArrayIndexOutOfBoundsException ClassCastException NumberFormatException InterruptedException
		ArithmeticException CloneNotSupportedException SecurityException ReflectiveOperationException
		ClassNotFoundException NoSuchMethodException NoSuchFieldException StackTraceElement Override
		Deprecated SuppressWarnings FunctionalInterface SafeVarargs Cloneable Record
		List ArrayList LinkedList Map HashMap LinkedHashMap TreeMap Set HashSet LinkedHashSet TreeSet
		Collection Collections Arrays Objects Optional OptionalInt OptionalLong Iterator ListIterator
		Deque ArrayDeque Queue PriorityQueue Stack Vector Hashtable Enumeration BitSet EnumMap EnumSet
		NavigableMap SortedMap SortedSet NavigableSet Comparator Properties Date Calendar TimeZone UUID
		Random Scanner Locale StringJoiner StringTokenizer Base64 Stream IntStream LongStream Collectors
		Function BiFunction Supplier Consumer BiConsumer Predicate BiPredicate UnaryOperator BinaryOperator
		ConcurrentHashMap ConcurrentMap CopyOnWriteArrayList AtomicInteger AtomicLong AtomicBoolean
		AtomicReference CountDownLatch ExecutorService Executors Executor Future CompletableFuture
		TimeUnit Callable Semaphore ReentrantLock Lock Pattern Matcher File Files Path Paths
		InputStream OutputStream Reader Writer BufferedReader BufferedWriter InputStreamReader
		OutputStreamWriter FileInputStream FileOutputStream FileReader FileWriter IOException
		UncheckedIOException FileNotFoundException PrintStream PrintWriter StringWriter StringReader
		ByteArrayOutputStream ByteArrayInputStream DataInputStream DataOutputStream Serializable
		Closeable URL URI URLEncoder URLDecoder Charset StandardCharsets ByteBuffer LocalDate
		LocalDateTime LocalTime ZonedDateTime Instant Duration DateTimeFormatter SimpleDateFormat
		BigDecimal BigInteger MessageDigest Field Method Constructor InvocationTargetException
		Annotation Retention Target ElementType RetentionPolicy Documented Inherited WeakReference
		SoftReference Logger Level Appendable Readable Flushable TimerTask Timer
		Iterable NoSuchElementException ConcurrentModificationException`) {
		jdkNames[n] = true
	}
}

// external reports whether a type name as written is known to be outside
// the repository: a JDK type, or a type imported from a library.
func (x *extractor) external(t string) bool {
	if t == "" || x.jdk {
		return false
	}
	if t == "[]" {
		return true
	}
	first, _, dot := strings.Cut(t, ".")
	if dot && !startsUpper(first) {
		return x.externalPath(t) // a fully qualified name
	}
	if x.isTypeParam(first) || x.declared[first] {
		return false
	}
	if _, ok := x.imported[first]; ok {
		return x.extNames[first]
	}
	return jdkNames[first]
}

func (x *extractor) isTypeParam(name string) bool {
	for i := len(x.tparams) - 1; i >= 0; i-- {
		if x.tparams[i] == name {
			return true
		}
	}
	return false
}

func (x *extractor) pushTypeParams(n int32) int {
	mark := len(x.tparams)
	tp := x.Field(n, fTypeParameters)
	if tp < 0 {
		return mark
	}
	for p := x.FirstNamed(tp); p >= 0; p = x.NextNamed(p) {
		for c := x.FirstNamed(p); c >= 0; c = x.NextNamed(c) {
			if k := x.Kind(c); k == "type_identifier" || k == "identifier" {
				x.tparams = append(x.tparams, x.Text(c))
				break
			}
		}
	}
	return mark
}

// ---- types ----

// typeName reduces a type to its name, without type arguments or array
// dimensions: "Map.Entry", "spark.route.Routes". A name bound by a
// single-type import is given in full, since in Java such an import
// shadows the types of the file's own package, and the resolver finds a
// full name first. Primitive and void types give "".
func (x *extractor) typeName(n int32) string {
	return x.qualify(x.rawTypeName(n))
}

// qualify expands the first element of a type name bound by a single-type
// import: Routes.Stats → spark.route.Routes.Stats.
func (x *extractor) qualify(t string) string {
	if t == "" || !startsUpper(t) {
		return t
	}
	first, rest, dot := strings.Cut(t, ".")
	full, ok := x.imported[first]
	if !ok || x.statics[first] {
		return t
	}
	if dot {
		return full + "." + rest
	}
	return full
}

// rawTypeName is the name of a type as written.
func (x *extractor) rawTypeName(n int32) string {
	for n >= 0 {
		switch x.Kind(n) {
		case "type_identifier", "identifier":
			return x.Text(n)
		case "scoped_type_identifier", "scoped_identifier", "field_access":
			var parts []string
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				if s := x.rawTypeName(c); s != "" {
					parts = append(parts, s)
				}
			}
			return strings.Join(parts, ".")
		case "generic_type", "annotated_type", "catch_type":
			next := int32(-1)
		find:
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				switch x.Kind(c) {
				case "type_identifier", "scoped_type_identifier", "generic_type", "array_type":
					next = c
					break find
				}
			}
			n = next
		case "array_type":
			n = x.Field(n, fElement)
		default:
			return ""
		}
	}
	return ""
}

// varType is what a declared type tells of a variable.
func (x *extractor) varType(n int32) vtype {
	if n < 0 {
		return vtype{}
	}
	switch x.Kind(n) {
	case "array_type":
		return vtype{name: "[]", elem: x.typeName(x.Field(n, fElement))}
	case "generic_type":
		v := vtype{name: x.typeName(n)}
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "type_arguments" {
				if last := x.LastNamed(c); last >= 0 {
					v.elem = x.typeName(last)
				}
			}
		}
		return v
	case "annotated_type":
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if k := x.Kind(c); k != "annotation" && k != "marker_annotation" {
				return x.varType(c)
			}
		}
		return vtype{}
	}
	t := x.typeName(n)
	if t == "var" {
		return vtype{}
	}
	return vtype{name: t}
}

// typeRefs records a reference to every named type inside a type.
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	if n < 0 {
		return
	}
	switch x.Kind(n) {
	case "type_identifier":
		name := x.Text(n)
		if name != "var" && !x.external(name) && !x.isTypeParam(name) {
			ref := extract.Ref{From: from, Kind: kind, Name: name, Line: x.Line(n)}
			if full := x.qualify(name); full != name {
				ref.Qual = strings.TrimSuffix(full, "."+name)
			}
			x.AddRef(ref)
		}
		return
	case "scoped_type_identifier":
		name := x.typeName(n)
		if !x.external(name) {
			qual, last := "", name
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				qual, last = name[:i], name[i+1:]
			}
			x.AddRef(extract.Ref{From: from, Kind: kind, Name: last, Qual: qual, Line: x.Line(n)})
		}
		// Type arguments inside (Outer<A>.Inner<B>).
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "generic_type" {
				for a := x.FirstNamed(c); a >= 0; a = x.NextNamed(a) {
					if x.Kind(a) == "type_arguments" {
						x.typeRefs(a, from, kind)
					}
				}
			}
		}
		return
	case "integral_type", "floating_point_type", "boolean_type", "void_type", "annotation", "marker_annotation":
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.typeRefs(c, from, kind)
	}
}

// ---- declarations ----

type mods struct {
	public, protected, private, static, final, abstract bool
	test                                                bool
	node                                                int32    // the modifiers node, or -1
	annotations                                         []string // names as written
}

var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true,
	"TestTemplate": true, "Theory": true, "Property": true,
}

func (x *extractor) modifiers(n int32) mods {
	m := mods{node: -1}
	mn := int32(-1)
	for c := x.FirstChild(n); c >= 0; c = x.N[c].Next {
		if k := x.Kind(c); k == "modifiers" {
			mn = c
			break
		} else if x.N[c].Named && k != "marker_annotation" && k != "annotation" &&
			k != "line_comment" && k != "block_comment" {
			break
		}
	}
	if mn < 0 {
		return m
	}
	m.node = mn
	for c := x.FirstChild(mn); c >= 0; c = x.N[c].Next {
		switch x.Kind(c) {
		case "public":
			m.public = true
		case "protected":
			m.protected = true
		case "private":
			m.private = true
		case "static":
			m.static = true
		case "final":
			m.final = true
		case "abstract":
			m.abstract = true
		case "marker_annotation", "annotation":
			if nm := x.Field(c, fName); nm >= 0 {
				name := x.dotted(nm)
				m.annotations = append(m.annotations, name)
				if testAnnotations[extract.LastPart(name)] {
					m.test = true
				}
			}
		}
	}
	return m
}

// annotationRefs records the annotation types of the repository used on a
// declaration (not @Override and other JDK or library annotations).
func (x *extractor) annotationRefs(m mods, from int32) {
	for _, a := range m.annotations {
		if x.external(a) {
			continue
		}
		qual, name := "", a
		if i := strings.LastIndexByte(a, '.'); i >= 0 {
			qual, name = a[:i], a[i+1:]
		}
		x.AddRef(extract.Ref{From: from, Kind: extract.RefType, Name: name, Qual: qual, Line: x.Line(m.node)})
	}
}

// signature is the declaration from its first modifier keyword (past
// annotations) up to the body, on one line.
func (x *extractor) signature(n int32, m mods, body int32) string {
	start := x.N[n].Start
	if m.node >= 0 {
		start = x.N[m.node].End
		for c := x.FirstChild(m.node); c >= 0; c = x.N[c].Next {
			if k := x.Kind(c); k != "marker_annotation" && k != "annotation" && k != "line_comment" && k != "block_comment" {
				start = x.N[c].Start
				break
			}
		}
	}
	end := x.N[n].End
	if body >= 0 {
		end = x.N[body].Start
	}
	if end > uint32(len(x.Src)) || start > end {
		return ""
	}
	s := strings.TrimSuffix(strings.Join(strings.Fields(string(x.Src[start:end])), " "), ";")
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return strings.TrimSpace(s)
}

// doc is the Javadoc comment right before a declaration, or the line
// comments directly above it.
func (x *extractor) doc(n int32) string {
	p := x.N[n].Prev
	if p < 0 {
		return ""
	}
	switch x.Kind(p) {
	case "block_comment":
		t := x.Text(p)
		if strings.HasPrefix(t, "/**") && t != "/**/" {
			return extract.CleanComment(t, "")
		}
	case "line_comment":
		if x.EndLine(p)+1 < x.Line(n) {
			return ""
		}
		// Not a comment trailing the previous declaration's line.
		if q := x.N[p].Prev; q >= 0 && x.Kind(q) != "line_comment" && x.EndLine(q) == x.Line(p) {
			return ""
		}
		return x.PrecedingComments(n, "//")
	}
	return ""
}

func exportedFlag(m mods, inIface bool) snapshot.Flags {
	if m.public || m.protected || (inIface && !m.private) {
		return snapshot.FlagExported
	}
	return 0
}

// typeDecl extracts a class, interface, enum, record or annotation type.
func (x *extractor) typeDecl(n int32, parent int32, inIface bool) {
	nameNode := x.Field(n, fName)
	if nameNode < 0 {
		return
	}
	name := x.Text(nameNode)
	x.declared[name] = true
	kind := snapshot.KindClass
	switch x.Kind(n) {
	case "interface_declaration", "annotation_type_declaration":
		kind = snapshot.KindInterface
	case "enum_declaration":
		kind = snapshot.KindEnum
	case "record_declaration":
		kind = snapshot.KindStruct
	}
	m := x.modifiers(n)
	body := x.Field(n, fBody)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	s := extract.Symbol{Name: name, Kind: kind, Parent: parent, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(n, m, body), Doc: x.doc(n), Flags: exportedFlag(m, inIface)}
	if sc := x.Field(n, fSuperclass); sc >= 0 {
		for t := x.FirstNamed(sc); t >= 0; t = x.NextNamed(t) {
			if b := x.typeName(t); b != "" && !x.external(b) {
				s.Extends = append(s.Extends, b)
			}
		}
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "super_interfaces", "extends_interfaces":
			for tl := x.FirstNamed(c); tl >= 0; tl = x.NextNamed(tl) {
				for t := x.FirstNamed(tl); t >= 0; t = x.NextNamed(t) {
					b := x.typeName(t)
					if b == "" || x.external(b) {
						continue
					}
					if kind == snapshot.KindInterface {
						s.Extends = append(s.Extends, b)
					} else {
						s.Implements = append(s.Implements, b)
					}
				}
			}
		}
	}
	id := x.Add(s)
	x.annotationRefs(m, id)
	cls := &classCtx{sym: id, name: name, fields: map[string]vtype{}}
	if len(s.Extends) > 0 && kind == snapshot.KindClass {
		cls.super = s.Extends[0]
	}
	if kind == snapshot.KindStruct {
		// Record components are fields.
		if ps := x.Field(n, fParameters); ps >= 0 {
			for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
				if x.Kind(p) != "formal_parameter" {
					continue
				}
				pn := x.Field(p, fName)
				pt := x.Field(p, fType)
				if pn < 0 {
					continue
				}
				fname := x.Text(pn)
				vt := x.varType(pt)
				cls.fields[fname] = vt
				fid := x.Add(extract.Symbol{Name: fname, Kind: snapshot.KindField, Parent: id, Start: x.Line(p),
					End: x.EndLine(p), Signature: strings.Join(strings.Fields(x.Text(p)), " "),
					Type: vt.name, Flags: snapshot.FlagExported})
				x.typeRefs(pt, fid, extract.RefType)
			}
		}
	}
	if body < 0 {
		return
	}
	// Enum bodies hold constants, then the other members in a nested list.
	if kind == snapshot.KindEnum {
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "enum_constant" {
				if nm := x.Field(c, fName); nm >= 0 {
					cls.fields[x.Text(nm)] = vtype{name: name}
				}
			}
		}
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "enum_body_declarations" {
				x.collectFields(c, cls)
			}
		}
		x.classes = append(x.classes, cls)
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "enum_constant" {
				x.enumConstant(c, cls)
			}
		}
		for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "enum_body_declarations" {
				x.members(c, cls, false)
			}
		}
		x.classes = x.classes[:len(x.classes)-1]
		return
	}
	x.collectFields(body, cls)
	x.classes = append(x.classes, cls)
	x.members(body, cls, kind == snapshot.KindInterface)
	x.classes = x.classes[:len(x.classes)-1]
}

// collectFields notes the fields of a class body before its methods are
// read, since a method may use a field declared below it.
func (x *extractor) collectFields(body int32, cls *classCtx) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration", "constant_declaration":
			vt := x.varType(x.Field(c, fType))
			for d := x.FirstNamed(c); d >= 0; d = x.NextNamed(d) {
				if x.Kind(d) != "variable_declarator" {
					continue
				}
				if nm := x.Field(d, fName); nm >= 0 {
					v := vt
					if x.Field(d, fDimensions) >= 0 {
						v = vtype{name: "[]", elem: vt.name}
					}
					cls.fields[x.Text(nm)] = v
				}
			}
		case "method_declaration":
			if nm := x.Field(c, fName); nm >= 0 {
				x.methods[x.Text(nm)] = true
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			if nm := x.Field(c, fName); nm >= 0 {
				x.declared[x.Text(nm)] = true
			}
		}
	}
}

// members extracts the members of a class body.
func (x *extractor) members(body int32, cls *classCtx, inIface bool) {
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "field_declaration", "constant_declaration":
			x.field(c, cls.sym, inIface)
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
			x.callable(c, cls, inIface)
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			x.typeDecl(c, cls.sym, inIface)
		case "static_initializer", "block":
			x.withLocals(func() { x.walkChildren(c, cls.sym) })
		}
	}
}

// withLocals runs fn with a fresh variable scope, restoring the outer one.
func (x *extractor) withLocals(fn func()) {
	saved := x.locals
	x.locals = map[string]vtype{}
	fn()
	x.locals = saved
}

func (x *extractor) enumConstant(n int32, cls *classCtx) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: snapshot.KindConstant, Parent: cls.sym,
		Start: x.Line(n), End: x.EndLine(n), Signature: x.signature(n, x.modifiers(n), x.Field(n, fBody)),
		Doc: x.doc(n), Type: cls.name, Flags: snapshot.FlagExported})
	if args := x.Field(n, fArguments); args >= 0 {
		// The constant is made by the enum's constructor.
		x.AddRef(extract.Ref{From: id, Kind: extract.RefCall, Name: cls.name, Qual: cls.name, Line: x.Line(n)})
		x.withLocals(func() { x.walk(args, id) })
	}
	if body := x.Field(n, fBody); body >= 0 {
		// A constant with a body: its methods belong to the constant.
		sub := &classCtx{sym: id, name: cls.name, super: cls.name, fields: cls.fields}
		x.members(body, sub, false)
	}
}

func (x *extractor) field(n int32, owner int32, inIface bool) {
	m := x.modifiers(n)
	typ := x.Field(n, fType)
	vt := x.varType(typ)
	kind := snapshot.KindField
	if x.Kind(n) == "constant_declaration" || (m.static && m.final) || (inIface) {
		kind = snapshot.KindConstant
	}
	doc := x.doc(n)
	sig := x.signature(n, m, -1)
	if i := strings.Index(sig, " = "); i >= 0 && len(sig) > 120 {
		sig = sig[:i]
	}
	flags := exportedFlag(m, inIface)
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Kind(d) != "variable_declarator" {
			continue
		}
		nm := x.Field(d, fName)
		if nm < 0 {
			continue
		}
		t := vt.name
		if t == "[]" {
			t = vt.elem
		}
		id := x.Add(extract.Symbol{Name: x.Text(nm), Kind: kind, Parent: owner, Start: x.Line(n),
			End: x.EndLine(n), Signature: sig, Doc: doc, Type: t, Flags: flags})
		x.typeRefs(typ, id, extract.RefType)
		x.annotationRefs(m, id)
		if v := x.Field(d, fValue); v >= 0 {
			x.withLocals(func() { x.walk(v, id) })
		}
	}
}

// callable extracts a method or constructor with its parameters and body.
func (x *extractor) callable(n int32, cls *classCtx, inIface bool) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	name := x.Text(nm)
	kind := snapshot.KindMethod
	if k := x.Kind(n); k == "constructor_declaration" || k == "compact_constructor_declaration" {
		kind = snapshot.KindConstructor
		name = cls.name
	}
	m := x.modifiers(n)
	mark := x.pushTypeParams(n)
	defer func() { x.tparams = x.tparams[:mark] }()
	body := x.Field(n, fBody)
	s := extract.Symbol{Name: name, Kind: kind, Parent: cls.sym, Start: x.Line(n), End: x.EndLine(n),
		Signature: x.signature(n, m, body), Doc: x.doc(n), Flags: exportedFlag(m, inIface)}
	typ := x.Field(n, fType)
	if kind == snapshot.KindMethod {
		s.Type = x.typeName(typ)
	}
	if m.test {
		s.Flags |= snapshot.FlagTest
		noteTestName(name)
	}
	id := x.Add(s)
	x.annotationRefs(m, id)
	saved := x.locals
	x.locals = map[string]vtype{}
	x.params(x.Field(n, fParameters), id)
	x.typeRefs(typ, id, extract.RefTypeHint)
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) == "throws" {
			x.typeRefs(c, id, extract.RefType)
		}
	}
	if body >= 0 {
		x.walkChildren(body, id)
	}
	x.locals = saved
}

// params records parameter types as hints and as typed locals.
func (x *extractor) params(ps int32, from int32) {
	if ps < 0 {
		return
	}
	for p := x.FirstNamed(ps); p >= 0; p = x.NextNamed(p) {
		switch x.Kind(p) {
		case "formal_parameter":
			typ := x.Field(p, fType)
			if nm := x.Field(p, fName); nm >= 0 {
				vt := x.varType(typ)
				if x.Field(p, fDimensions) >= 0 {
					vt = vtype{name: "[]", elem: vt.name}
				}
				x.locals[x.Text(nm)] = vt
			}
			x.typeRefs(typ, from, extract.RefTypeHint)
		case "spread_parameter":
			typ := int32(-1)
			for c := x.FirstNamed(p); c >= 0; c = x.NextNamed(c) {
				switch x.Kind(c) {
				case "variable_declarator":
					if nm := x.Field(c, fName); nm >= 0 && typ >= 0 {
						x.locals[x.Text(nm)] = vtype{name: "[]", elem: x.typeName(typ)}
					}
				case "modifiers", "annotation", "marker_annotation":
				default:
					if typ < 0 {
						typ = c
					}
				}
			}
			x.typeRefs(typ, from, extract.RefTypeHint)
		}
	}
}

// ---- bodies ----

func (x *extractor) walkChildren(n int32, from int32) {
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.walk(c, from)
	}
}

// walk records calls, type uses and typed locals in a body. Lambdas and
// anonymous classes belong to the enclosing callable.
func (x *extractor) walk(n int32, from int32) {
	switch x.Kind(n) {
	case "method_invocation":
		x.call(n, from)
	case "object_creation_expression":
		x.creation(n, from)
		return
	case "method_reference":
		x.methodRef(n, from)
	case "explicit_constructor_invocation":
		x.ctorCall(n, from)
	case "local_variable_declaration":
		x.localVar(n, from)
	case "enhanced_for_statement":
		typ := x.Field(n, fType)
		vt := x.varType(typ)
		if vt.name == "" {
			// for (var e : xs): the element type of xs, when known.
			if v := x.Field(n, fValue); v >= 0 {
				if r := x.receiver(v); r.elem != "" {
					vt = vtype{name: r.elem}
				}
			}
		}
		if nm := x.Field(n, fName); nm >= 0 {
			x.locals[x.Text(nm)] = vt
		}
		x.typeRefs(typ, from, extract.RefType)
	case "catch_formal_parameter":
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "catch_type" {
				x.typeRefs(c, from, extract.RefType)
				if nm := x.Field(n, fName); nm >= 0 {
					x.locals[x.Text(nm)] = vtype{name: x.typeName(c)}
				}
			}
		}
		return
	case "resource":
		if typ := x.Field(n, fType); typ >= 0 {
			if nm := x.Field(n, fName); nm >= 0 {
				x.locals[x.Text(nm)] = x.varType(typ)
			}
			x.typeRefs(typ, from, extract.RefType)
		}
	case "instanceof_expression":
		if typ := x.Field(n, fRight); typ >= 0 {
			x.typeRefs(typ, from, extract.RefType)
			if nm := x.Field(n, fName); nm >= 0 {
				x.locals[x.Text(nm)] = x.varType(typ)
			}
		}
	case "type_pattern":
		typ := int32(-1)
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			if x.Kind(c) == "identifier" && typ >= 0 {
				x.locals[x.Text(c)] = x.varType(typ)
			} else if typ < 0 {
				typ = c
			}
		}
		x.typeRefs(typ, from, extract.RefType)
		return
	case "lambda_expression":
		if ps := x.Field(n, fParameters); ps >= 0 {
			switch x.Kind(ps) {
			case "identifier":
				x.locals[x.Text(ps)] = vtype{}
			case "inferred_parameters":
				for c := x.FirstNamed(ps); c >= 0; c = x.NextNamed(c) {
					x.locals[x.Text(c)] = vtype{}
				}
			case "formal_parameters":
				x.params(ps, from)
			}
		}
		if b := x.Field(n, fBody); b >= 0 {
			x.walk(b, from)
		}
		return
	case "cast_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
	case "class_literal":
		for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
			x.typeRefs(c, from, extract.RefType)
		}
		return
	case "array_creation_expression":
		x.typeRefs(x.Field(n, fType), from, extract.RefType)
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
		// A local class: a symbol of its own inside the callable.
		saved := x.locals
		x.typeDecl(n, from, false)
		x.locals = saved
		return
	case "line_comment", "block_comment", "string_literal", "identifier", "type_identifier",
		"decimal_integer_literal", "true", "false", "null_literal", "this", "super":
		return
	}
	x.walkChildren(n, from)
}

func (x *extractor) localVar(n int32, from int32) {
	typ := x.Field(n, fType)
	vt := x.varType(typ)
	x.typeRefs(typ, from, extract.RefType)
	for d := x.FirstNamed(n); d >= 0; d = x.NextNamed(d) {
		if x.Kind(d) != "variable_declarator" {
			continue
		}
		nm := x.Field(d, fName)
		if nm < 0 {
			continue
		}
		v := vt
		if x.Field(d, fDimensions) >= 0 {
			v = vtype{name: "[]", elem: vt.name}
		}
		if v.name == "" {
			// var x = ...: the type of the value, when it can be told.
			if val := x.Field(d, fValue); val >= 0 {
				r := x.receiver(val)
				if !r.ext && r.qtype != "" {
					v = vtype{name: r.qtype}
				}
			}
		}
		x.locals[x.Text(nm)] = v
	}
}

// recv is what the extractor knows of the object a call is made on.
type recv struct {
	qual  string // the qualifier for Ref.Qual
	qtype string // Ref.QualType: a type name, or "call:..."
	ext   bool   // known to be outside the repository: the call is dropped
	elem  string // element type, for containers and arrays
}

// objectMethods are java.lang.Object's methods (and enum's implicit ones):
// a call of one on a receiver of unknown type is not guessed.
var objectMethods = map[string]bool{
	"equals": true, "hashCode": true, "toString": true, "getClass": true, "notify": true,
	"notifyAll": true, "wait": true, "clone": true, "finalize": true, "values": true,
	"valueOf": true, "ordinal": true, "name": true, "compareTo": true,
}

// accessors return an element of a container (List.get, Optional.get,
// Map.get, Iterator.next, Map.Entry.getValue): called on a container of
// known element type, their result has that type.
var accessors = map[string]bool{
	"get": true, "getFirst": true, "getLast": true, "first": true, "last": true, "next": true,
	"previous": true, "peek": true, "peekFirst": true, "peekLast": true, "poll": true,
	"pollFirst": true, "pollLast": true, "pop": true, "element": true, "remove": true,
	"orElse": true, "orElseGet": true, "orElseThrow": true, "getValue": true, "join": true,
	"firstElement": true, "lastElement": true, "floor": true, "ceiling": true, "take": true,
}

func (x *extractor) call(n int32, from int32) {
	nm := x.Field(n, fName)
	if nm < 0 {
		return
	}
	name := x.Text(nm)
	obj := x.Field(n, fObject)
	ref := extract.Ref{From: from, Kind: extract.RefCall, Name: name, Line: x.Line(n)}
	if obj < 0 {
		if x.libCall(name) {
			return
		}
		if a := x.anonTop(); a != nil && a.methods[name] {
			// A method of the anonymous class itself (not a symbol), or
			// its override of the base's.
			if a.ext || a.base == "" {
				return
			}
			ref.Qual, ref.QualType = "(this)", a.base
		} else if objectMethods[name] && !x.methods[name] && x.plainObject() {
			return
		}
		x.AddRef(ref)
		return
	}
	r := x.receiver(obj)
	if r.ext {
		return
	}
	if objectMethods[name] && (r.qtype == "" && r.qual != "this" && r.qual != "super" ||
		r.qual == "this" && !x.methods[name] && x.plainObject()) {
		return
	}
	ref.Qual, ref.QualType = r.qual, chainQualType(r.qtype, ref.Name)
	x.AddRef(ref)
}

// chainQualType is the QualType of a call of name on a receiver of type
// qtype. A chain of calls the resolver may follow out of the repository
// falls back to the name, as a call on an unknown receiver does, unless
// the name is one of Object's.
func chainQualType(qtype, name string) string {
	if strings.Contains(qtype, "()") && !objectMethods[name] {
		return extract.OrName(qtype)
	}
	return qtype
}

// libCall reports a bare call of a statically imported library method.
func (x *extractor) libCall(name string) bool {
	if x.statics[name] {
		return x.extNames[name]
	}
	return x.libStatics && libStaticNames[name] && !x.methods[name]
}

func (x *extractor) anonTop() *anonCtx {
	if len(x.anon) == 0 {
		return nil
	}
	return &x.anon[len(x.anon)-1]
}

// plainObject reports that the enclosing class has no superclass in the
// repository, so Object's methods it does not declare are Object's.
func (x *extractor) plainObject() bool {
	if len(x.classes) == 0 {
		return false
	}
	return x.classes[len(x.classes)-1].super == "" && len(x.anon) == 0
}

// fieldType finds a field of an enclosing class, innermost first.
func (x *extractor) fieldType(name string) (vtype, bool) {
	for i := len(x.classes) - 1; i >= 0; i-- {
		if v, ok := x.classes[i].fields[name]; ok {
			return v, true
		}
	}
	return vtype{}, false
}

// variable is the receiver for a variable of a known declared type.
func (x *extractor) variable(qual string, v vtype) recv {
	if v.name == "" || x.isTypeParam(v.name) {
		return recv{qual: qual, elem: v.elem}
	}
	return recv{qual: qual, qtype: v.name, ext: x.external(v.name), elem: v.elem}
}

// ident is the receiver named by a plain identifier.
func (x *extractor) ident(name string) recv {
	if v, ok := x.locals[name]; ok {
		return x.variable(name, v)
	}
	if v, ok := x.fieldType(name); ok {
		return x.variable(name, v)
	}
	if x.statics[name] {
		return recv{qual: name, ext: x.extNames[name]}
	}
	if startsUpper(name) {
		return recv{qual: name, ext: x.external(name)} // a type: a static call
	}
	// A field inherited from a base class declared elsewhere.
	return recv{qual: "this." + name}
}

// receiver works out the qualifier and static type of an expression a
// method is called on.
func (x *extractor) receiver(n int32) recv {
	switch k := x.Kind(n); k {
	case "this", "super":
		if a := x.anonTop(); a != nil {
			// this and super of an anonymous class: its base.
			if a.ext || a.base == "" {
				return recv{ext: a.ext, qual: "(expr)"}
			}
			return recv{qual: "(" + k + ")", qtype: a.base}
		}
		return recv{qual: k}
	case "identifier":
		return x.ident(x.Text(n))
	case "field_access":
		return x.fieldAccess(n)
	case "method_invocation":
		return x.callResult(n)
	case "object_creation_expression":
		t := x.typeName(x.Field(n, fType))
		if t == "" {
			return recv{qual: "(new)"}
		}
		return recv{qual: "(new)", qtype: t, ext: x.external(t)}
	case "parenthesized_expression":
		if c := x.FirstNamed(n); c >= 0 && x.NextNamed(c) < 0 {
			return x.receiver(c)
		}
	case "cast_expression":
		vt := x.varType(x.Field(n, fType))
		if vt.name == "" || vt.name == "[]" {
			return recv{qual: "(cast)", elem: vt.elem}
		}
		return recv{qual: "(cast)", qtype: vt.name, ext: x.external(vt.name), elem: vt.elem}
	case "array_access":
		if a := x.Field(n, fArray); a >= 0 {
			r := x.receiver(a)
			if r.elem != "" {
				return recv{qual: "[]", qtype: r.elem, ext: x.external(r.elem)}
			}
		}
		return recv{qual: "[]"}
	case "string_literal", "class_literal", "array_creation_expression", "decimal_integer_literal",
		"character_literal", "true", "false", "template_expression":
		return recv{ext: true}
	}
	return recv{qual: "(expr)"}
}

// fieldAccess handles a.b.c: a variable followed by fields, a type (maybe
// nested or fully qualified) followed by static fields, or this/super
// followed by fields.
func (x *extractor) fieldAccess(n int32) recv {
	var segs []string
	base := n
	for x.Kind(base) == "field_access" {
		f := x.Field(base, fField)
		o := x.Field(base, fObject)
		if f < 0 || o < 0 {
			return recv{qual: "(expr)"}
		}
		segs = append(segs, x.Text(f))
		base = o
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	switch bk := x.Kind(base); bk {
	case "this", "super":
		if a := x.anonTop(); a != nil {
			if a.ext || a.base == "" {
				return recv{ext: a.ext, qual: "(expr)"}
			}
			return recv{qual: "(" + bk + ")." + strings.Join(segs, "."), qtype: a.base}
		}
		q := bk + "." + strings.Join(segs, ".")
		if bk == "this" && len(segs) == 1 {
			if v, ok := x.fieldType(segs[0]); ok && v.name != "" && !x.isTypeParam(v.name) {
				return recv{qual: q, ext: x.external(v.name), elem: v.elem}
			}
		}
		return recv{qual: q}
	case "identifier":
	default:
		r := x.receiver(base)
		if r.ext || r.qual == "" {
			return recv{ext: r.ext, qual: "(expr)"}
		}
		first, _, _ := strings.Cut(r.qual, ".")
		if r.qtype == "" && !isIdent(first) {
			return recv{qual: "(expr)"}
		}
		return recv{qual: r.qual + "." + strings.Join(segs, "."), qtype: r.qtype}
	}
	head := x.Text(base)
	all := append([]string{head}, segs...)
	if segs[len(segs)-1] == "this" {
		// Outer.this: the enclosing instance of class Outer.
		return recv{qual: strings.Join(all[:len(all)-1], ".")}
	}
	rest := strings.Join(segs, ".")
	if v, ok := x.locals[head]; ok {
		r := x.variable(head+"."+rest, v)
		r.elem = ""
		return r
	}
	if v, ok := x.fieldType(head); ok {
		r := x.variable(head+"."+rest, v)
		r.elem = ""
		return r
	}
	if x.statics[head] {
		return recv{qual: head + "." + rest, ext: x.extNames[head]}
	}
	// A type path: pkg.Type.Nested.field...
	j := -1
	for i, s := range all {
		if startsUpper(s) {
			j = i
			break
		}
	}
	if j < 0 {
		return recv{qual: "this." + strings.Join(all, ".")}
	}
	k := j
	for k+1 < len(all) && isTypeLike(all[k+1]) {
		k++
	}
	typ := x.qualify(strings.Join(all[:k+1], "."))
	ext := x.external(typ)
	if j > 0 {
		ext = x.externalPath(typ)
	}
	if k == 0 {
		return recv{qual: strings.Join(all, "."), ext: ext}
	}
	q := all[k]
	if k+1 < len(all) {
		q += "." + strings.Join(all[k+1:], ".")
	}
	return recv{qual: q, qtype: typ, ext: ext}
}

// callResult is the receiver that is the result of another call: its type
// is the result type of that call, which the resolver finds ("call:...").
func (x *extractor) callResult(n int32) recv {
	nm := x.Field(n, fName)
	if nm < 0 {
		return recv{qual: "(expr)"}
	}
	name := x.Text(nm)
	q := name + "()"
	obj := x.Field(n, fObject)
	if obj < 0 {
		if x.libCall(name) {
			return recv{ext: true}
		}
		return recv{qual: q, qtype: "call:" + name}
	}
	inner := x.receiver(obj)
	if inner.ext {
		if accessors[name] && inner.elem != "" {
			return recv{qual: q, qtype: inner.elem, ext: x.external(inner.elem)}
		}
		return recv{ext: true}
	}
	first, rest, _ := strings.Cut(inner.qual, ".")
	switch {
	case strings.HasPrefix(inner.qtype, "call:"):
		// A chain of calls (a builder, a stream): the resolver follows it
		// one call at a time.
		return recv{qual: q, qtype: inner.qtype + "()." + name}
	case inner.qtype != "":
		t := extract.LastPart(inner.qtype)
		if !startsUpper(t) {
			return recv{qual: q}
		}
		if rest != "" {
			t += "." + rest
		}
		return recv{qual: q, qtype: "call:" + t + "." + name}
	case first == "this" || first == "super" || (startsUpper(first) && isIdent(first)):
		return recv{qual: q, qtype: "call:" + inner.qual + "." + name}
	}
	return recv{qual: q}
}

// creation handles new T(...): a call of T's constructor and a use of T,
// and the members of an anonymous class body, whose code belongs to the
// enclosing callable.
func (x *extractor) creation(n int32, from int32) {
	typ := x.Field(n, fType)
	t := x.typeName(typ)
	x.typeRefs(typ, from, extract.RefType)
	if t != "" && !x.external(t) {
		last := extract.LastPart(t)
		x.AddRef(extract.Ref{From: from, Kind: extract.RefCall, Name: last, Qual: last,
			QualType: t, Line: x.Line(n)})
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		switch x.Kind(c) {
		case "argument_list":
			x.walkChildren(c, from)
		case "class_body":
			x.anonymous(c, t, from)
		case "identifier", "field_access", "method_invocation", "parenthesized_expression":
			x.walk(c, from) // outer.new Inner()
		}
	}
}

func (x *extractor) anonymous(body int32, base string, from int32) {
	a := anonCtx{base: base, ext: x.external(base), methods: map[string]bool{}}
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		if x.Kind(m) == "method_declaration" {
			if nm := x.Field(m, fName); nm >= 0 {
				a.methods[x.Text(nm)] = true
			}
		}
	}
	x.anon = append(x.anon, a)
	defer func() { x.anon = x.anon[:len(x.anon)-1] }()
	for m := x.FirstNamed(body); m >= 0; m = x.NextNamed(m) {
		switch x.Kind(m) {
		case "method_declaration":
			x.params(x.Field(m, fParameters), from)
			x.typeRefs(x.Field(m, fType), from, extract.RefType)
			if b := x.Field(m, fBody); b >= 0 {
				x.walkChildren(b, from)
			}
		case "field_declaration":
			x.localVar(m, from)
			x.walkChildren(m, from)
		case "block", "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			x.walk(m, from)
		}
	}
}

// methodRef handles Foo::bar, this::bar, obj::bar and Foo::new: its named
// children other than type arguments are the target and, unless it is
// Foo::new, the method name last.
func (x *extractor) methodRef(n int32, from int32) {
	target, last, parts := int32(-1), int32(-1), 0
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		if x.Kind(c) != "type_arguments" {
			if target < 0 {
				target = c
			}
			last = c
			parts++
		}
	}
	if parts == 0 {
		return
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	if parts == 1 {
		// Foo::new
		t := x.typeName(target)
		if x.Kind(target) == "array_type" || t == "" || x.external(t) {
			return
		}
		ref.Name = extract.LastPart(t)
		ref.Qual, ref.QualType = ref.Name, t
		x.typeRefs(target, from, extract.RefType)
		x.AddRef(ref)
		return
	}
	ref.Name = x.Text(last)
	var r recv
	switch x.Kind(target) {
	case "type_identifier", "scoped_type_identifier", "generic_type":
		t := x.typeName(target)
		r = recv{qual: extract.LastPart(t), qtype: t, ext: x.external(t)}
	default:
		r = x.receiver(target)
	}
	if r.ext {
		return
	}
	ref.Qual, ref.QualType = r.qual, chainQualType(r.qtype, ref.Name)
	x.AddRef(ref)
}

// ctorCall handles this(...) and super(...) in a constructor.
func (x *extractor) ctorCall(n int32, from int32) {
	if len(x.classes) == 0 {
		return
	}
	cls := x.classes[len(x.classes)-1]
	c := x.Field(n, fConstructor)
	if c < 0 {
		return
	}
	ref := extract.Ref{From: from, Kind: extract.RefCall, Line: x.Line(n)}
	switch x.Kind(c) {
	case "this":
		ref.Name, ref.Qual = cls.name, "this"
	case "super":
		if cls.super == "" {
			return
		}
		ref.Name = extract.LastPart(cls.super)
		ref.Qual, ref.QualType = ref.Name, cls.super
	default:
		return
	}
	x.AddRef(ref)
}

func startsUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// isTypeLike: UpperCamel names are types, ALL_CAPS names are constants.
func isTypeLike(s string) bool {
	if !startsUpper(s) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return true
		}
	}
	return false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80) {
			return false
		}
	}
	return true
}
