package java

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// importDecl records an import declaration and binds the name it
// imports: a class or, with static, a member; on demand (.*) a package or
// a class's members.
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
var libStaticNames = extract.WordSet(`assertEquals assertNotEquals assertTrue assertFalse assertNull
		assertNotNull assertSame assertNotSame assertArrayEquals assertThat assertThrows assertDoesNotThrow
		assertAll assertTimeout assertIterableEquals assertLinesMatch fail assumeTrue assumeFalse assumeThat
		verify when mock spy any anyString anyInt anyLong anyBoolean anyList anyMap anyObject anySet
		anyCollection eq times never atLeast atLeastOnce atMost only doReturn doThrow doNothing doAnswer
		doCallRealMethod given willReturn then thenReturn is not equalTo notNullValue nullValue
		containsString hasItem hasItems hasSize hasKey hasEntry instanceOf sameInstance closeTo greaterThan
		lessThan allOf anyOf everyItem startsWith endsWith isA argThat reset verifyNoMoreInteractions
		verifyNoInteractions verifyZeroInteractions inOrder mockStatic whenNew verifyStatic
		contains containsInAnyOrder empty emptyString isEmptyString nullable refEq same`)

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
var jdkNames = extract.WordSet(`String Object Integer Long Short Byte Double Float Boolean Character
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
		Iterable NoSuchElementException ConcurrentModificationException`)

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
	if dot && !extract.StartsUpper(first) {
		return x.externalPath(t) // a fully qualified name
	}
	if x.tparams.Has(first) || x.declared[first] {
		return false
	}
	if _, ok := x.imported[first]; ok {
		return x.extNames[first]
	}
	return jdkNames[first]
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
	if t == "" || !extract.StartsUpper(t) {
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

// withDims is the type of a variable declarator or parameter d declared
// with type vt: an array of vt when d has dimensions of its own (int a[]).
func (x *extractor) withDims(vt vtype, d int32) vtype {
	if x.Field(d, fDimensions) >= 0 {
		return vtype{name: "[]", elem: vt.name}
	}
	return vt
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
		for c := range x.OfKind(n, "type_arguments") {
			if last := x.LastNamed(c); last >= 0 {
				v.elem = x.typeName(last)
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

// typeRefs records a reference to every named type inside a type. For -1,
// which has no kind and no children, it records none.
func (x *extractor) typeRefs(n int32, from int32, kind extract.RefKind) {
	switch x.Kind(n) {
	case "type_identifier":
		name := x.Text(n)
		if name != "var" && !x.external(name) && !x.tparams.Has(name) {
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
			qual, last := extract.SplitName(name)
			x.AddRef(extract.Ref{From: from, Kind: kind, Name: last, Qual: qual, Line: x.Line(n)})
		}
		// Type arguments inside (Outer<A>.Inner<B>).
		for c := range x.OfKind(n, "generic_type") {
			for a := range x.OfKind(c, "type_arguments") {
				x.typeRefs(a, from, kind)
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

// isTypeLike: UpperCamel names are types, ALL_CAPS names are constants.
func isTypeLike(s string) bool {
	if !extract.StartsUpper(s) {
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
