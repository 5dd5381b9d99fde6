package csharp

import (
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// The extractor reads a file's tree flattened into Go memory (see
// extract.Base): one cgo call copies every node, and walking the copy
// crosses into C no more.

// kindNames are the grammar's node kinds by id, the flat tree's Names; the
// f... variables are its field ids. Both are looked up once, on first use
// (setup): at start-up they would cost every command, queries included.
var (
	kindNames []string
	fName, fBody, fType, fParameters, fReturns, fExpression, fFunction,
	fCondition, fLeft, fRight, fValue, fQualifier, fAlias, fAccessors,
	fOperator, fConsequence uint16
)

var setupOnce sync.Once

// setup fills the grammar's tables and the word lists.
func setup() {
	setupGrammar()
	setupWords()
}

func setupGrammar() {
	lang := sitter.NewLanguage(tscsharp.Language())
	kindNames = extract.KindNames(lang)
	extract.FieldIDs(lang, map[string]*uint16{"name": &fName, "body": &fBody, "type": &fType,
		"parameters": &fParameters, "returns": &fReturns, "expression": &fExpression, "function": &fFunction,
		"condition": &fCondition, "left": &fLeft, "right": &fRight, "value": &fValue, "qualifier": &fQualifier,
		"alias": &fAlias, "accessors": &fAccessors, "operator": &fOperator, "consequence": &fConsequence})
}

// only is the one named child of n, or -1 when it has none or several.
func (x *extractor) only(n int32) int32 {
	c := x.FirstNamed(n)
	if c < 0 || x.NextNamed(c) >= 0 {
		return -1
	}
	return c
}

// vtype is what the extractor knows of a variable's static type. name is
// a type as written ("Route", "Ocelot.Configuration.Route"), a predefined
// type ("string"), "[]" for an array, or "call:f" / "call:T.f" for the
// result of a call the resolver can type. path is a chain of members
// after the typed base (a variable set from `ctx.Route.Options` has the
// type of ctx and path "Route.Options"); head replaces the variable when
// the base has no type but a meaning of its own ("this", a type name for
// static members). elem is the element type of an array or of a generic
// container (the last type argument).
type vtype struct {
	name, path, head, elem string
}

// predefined are C#'s keyword types: nothing of the repository.
var predefined map[string]bool

// externalRoots are the first namespace segments of the .NET class library
// and of widely used packages. A qualified name under one of them is
// outside the repository, unless the repository's own namespaces start the
// same way (see extractor.externalNS).
var externalRoots map[string]bool

// bclTypes are common types of the .NET class library and of ASP.NET,
// logging, JSON and test libraries. A static call on one (Console.WriteLine,
// Task.FromResult) is dropped, a call on a variable of one is dropped when
// the method is a well-known library method.
var bclTypes map[string]bool

// bclMethods are methods of the class library (LINQ, collections, strings,
// tasks, logging, assertions and mocks). A call of one on a receiver of
// unknown or library type is not guessed onto a repository method of the
// same name.
var bclMethods map[string]bool

// elemAccessors return an element of a sequence; seqMethods return a
// sequence of the same elements.
var elemAccessors map[string]bool

// strictMethods are the library methods of objects, sequences, collections,
// strings and tasks: called on a receiver reached through members or calls
// the extractor cannot type, they are taken to be the library's even when
// the receiver's first element is of a repository type.
var strictMethods map[string]bool
var seqMethods map[string]bool

// testAttributes mark test methods (xUnit, NUnit, MSTest, and relatives);
// testClassAttributes mark test classes.
var testAttributes map[string]bool
var testClassAttributes map[string]bool

// ignoredAttributes are attributes of the language and the libraries that
// are never declared in a repository; no reference is recorded for them.
var ignoredAttributes map[string]bool

func setupWords() {
	predefined = extract.WordSet(`bool byte sbyte char decimal double float int uint nint nuint long ulong short ushort
		object string void dynamic`)
	externalRoots = extract.WordSet(`System Microsoft Windows Newtonsoft Xunit NUnit Moq Shouldly FluentAssertions
		NSubstitute FakeItEasy AutoFixture Castle Serilog NLog log4net Polly Dapper AutoMapper MediatR
		StackExchange Npgsql MySql Oracle Grpc Google Amazon Azure Nito IdentityModel IdentityServer4
		Duende Swashbuckle Unity UnityEngine UnityEditor Xamarin Avalonia BenchmarkDotNet TestStack
		Consul Steeltoe Bogus Humanizer CsvHelper MongoDB Confluent RabbitMQ MassTransit Hangfire Quartz`)
	bclTypes = extract.WordSet(`Object String Int16 Int32 Int64 UInt16 UInt32 UInt64 Byte SByte Boolean Char Decimal Double
		Single IntPtr UIntPtr Console Math MathF Convert Guid DateTime DateTimeOffset DateOnly TimeOnly TimeSpan
		Uri UriBuilder Environment GC Activator Attribute EventArgs EventHandler Func Action Predicate
		Comparison Converter Lazy Tuple ValueTuple Nullable Array Enum Delegate MulticastDelegate
		IDisposable IAsyncDisposable IEquatable IComparable IComparer IEqualityComparer ICloneable
		IFormattable IFormatProvider IServiceProvider IObservable IObserver IProgress Progress
		StringComparison StringComparer Random Span ReadOnlySpan Memory ReadOnlyMemory Buffer
		BitConverter Encoding CultureInfo Exception SystemException ArgumentException
		ArgumentNullException ArgumentOutOfRangeException InvalidOperationException
		NotImplementedException NotSupportedException NullReferenceException IndexOutOfRangeException
		KeyNotFoundException FormatException InvalidCastException OperationCanceledException
		TaskCanceledException TimeoutException ObjectDisposedException UnauthorizedAccessException
		AggregateException IOException FileNotFoundException DirectoryNotFoundException HttpRequestException
		OverflowException DivideByZeroException ApplicationException JsonException
		List Dictionary HashSet Queue Stack SortedDictionary SortedList SortedSet LinkedList LinkedListNode
		IEnumerable IEnumerator ICollection IList IDictionary IReadOnlyList IReadOnlyCollection
		IReadOnlyDictionary ISet IReadOnlySet KeyValuePair ConcurrentDictionary ConcurrentQueue ConcurrentBag
		ConcurrentStack BlockingCollection ImmutableArray ImmutableList ImmutableDictionary ImmutableHashSet
		Enumerable Queryable IQueryable IOrderedEnumerable IOrderedQueryable IGrouping ILookup ArrayList
		Hashtable ObservableCollection ReadOnlyCollection ReadOnlyDictionary NameValueCollection BitArray
		Task ValueTask CancellationToken CancellationTokenSource Thread Interlocked Monitor SemaphoreSlim
		Semaphore Mutex ReaderWriterLockSlim ManualResetEvent AutoResetEvent ManualResetEventSlim
		TaskCompletionSource Parallel ThreadPool TaskFactory TaskScheduler ConfigureAwaitOptions
		Stream MemoryStream FileStream StreamReader StreamWriter TextReader TextWriter StringReader
		StringWriter File Directory Path FileInfo DirectoryInfo BinaryReader BinaryWriter FileMode
		FileAccess FileShare SearchOption StringBuilder Regex RegexOptions MatchCollection
		HttpClient HttpRequestMessage HttpResponseMessage HttpMethod HttpStatusCode HttpContent
		StringContent ByteArrayContent StreamContent FormUrlEncodedContent MultipartFormDataContent
		HttpClientHandler HttpMessageHandler DelegatingHandler IPAddress IPEndPoint WebUtility Dns
		HttpUtility MediaTypeHeaderValue AuthenticationHeaderValue
		Debug Trace Stopwatch ActivitySource Debugger
		Assembly MethodInfo PropertyInfo FieldInfo BindingFlags MemberInfo ParameterInfo
		ConstructorInfo TypeInfo
		JsonSerializer JsonSerializerOptions JsonDocument JsonElement JsonNode JsonObject JsonArray
		JsonConvert JObject JToken JArray JValue JsonSerializerSettings
		HttpContext HttpRequest HttpResponse DefaultHttpContext RequestDelegate IApplicationBuilder
		IServiceCollection IServiceScope IServiceScopeFactory ServiceCollection ServiceProvider
		ServiceDescriptor ServiceLifetime IConfiguration IConfigurationSection IConfigurationRoot
		ConfigurationBuilder IConfigurationBuilder IHostEnvironment IWebHostEnvironment IHostingEnvironment
		IHost IHostBuilder IWebHostBuilder WebHost WebApplication WebApplicationBuilder
		IEndpointRouteBuilder IRouteBuilder ILogger ILoggerFactory ILoggerProvider LogLevel LoggerFactory
		NullLogger NullLoggerFactory IOptions IOptionsMonitor IOptionsSnapshot
		IMemoryCache IDistributedCache MemoryCache IHttpContextAccessor HttpContextAccessor
		IHttpClientFactory ClaimsPrincipal Claim ClaimsIdentity ClaimTypes AuthenticateResult
		AuthenticationProperties IAuthenticationService Controller ControllerBase ActionResult
		IActionResult OkResult OkObjectResult NotFoundResult BadRequestResult StatusCodeResult
		ObjectResult JsonResult ContentResult IResult TypedResults HeaderDictionary
		IHeaderDictionary QueryString PathString HostString IQueryCollection IFormCollection
		IFormFile StatusCodes HttpMethods IMiddleware MiddlewareFactory IHostedService BackgroundService
		DbContext DbSet ModelBuilder
		Assert CollectionAssert StringAssert Mock It ItExpr Times MockBehavior Substitute`)
	bclMethods = extract.WordSet(`ToString Equals GetHashCode GetType ReferenceEquals MemberwiseClone
		Where Select SelectMany First FirstOrDefault Single SingleOrDefault Last LastOrDefault Any All Count
		LongCount Sum Min Max MinBy MaxBy Average OrderBy OrderByDescending ThenBy ThenByDescending GroupBy
		GroupJoin ToList ToArray ToDictionary ToHashSet ToLookup ToImmutableArray ToImmutableList
		ToImmutableDictionary Distinct DistinctBy Skip SkipLast SkipWhile Take TakeLast TakeWhile Concat
		Union UnionBy Intersect IntersectBy Except ExceptBy Zip Aggregate Contains ElementAt
		ElementAtOrDefault AsEnumerable AsQueryable Cast OfType Reverse SequenceEqual DefaultIfEmpty Join
		Append Prepend Chunk Range Repeat Empty
		Add AddRange Remove RemoveAt RemoveAll RemoveRange Clear Insert InsertRange IndexOf LastIndexOf
		ContainsKey ContainsValue TryGetValue TryAdd GetOrAdd AddOrUpdate TryRemove TryUpdate Enqueue
		Dequeue TryDequeue Push Pop TryPop Peek TryPeek CopyTo Sort BinarySearch Find FindAll FindIndex
		FindLast Exists TrueForAll ForEach GetEnumerator MoveNext Reset GetValueOrDefault AsReadOnly
		Split Trim TrimStart TrimEnd Substring Replace StartsWith EndsWith ToLower ToUpper ToLowerInvariant
		ToUpperInvariant PadLeft PadRight Format IsNullOrEmpty IsNullOrWhiteSpace CompareTo
		CompareOrdinal ToCharArray Normalize AppendLine AppendFormat AppendJoin
		ConfigureAwait Wait WaitAll WaitAny WhenAll WhenAny ContinueWith GetAwaiter GetResult FromResult
		FromException FromCanceled Delay Run Yield ThrowIfCancellationRequested Cancel CancelAfter
		ReadAsStringAsync ReadAsStreamAsync ReadAsByteArrayAsync ReadFromJsonAsync EnsureSuccessStatusCode
		GetAsync PostAsync PutAsync DeleteAsync PatchAsync SendAsync GetStringAsync GetByteArrayAsync
		GetStreamAsync PostAsJsonAsync PutAsJsonAsync GetFromJsonAsync
		ReadToEnd ReadToEndAsync ReadLine ReadLineAsync Write WriteLine WriteAsync WriteLineAsync Flush
		FlushAsync Seek ReadAllText ReadAllTextAsync WriteAllText WriteAllTextAsync ReadAllBytes
		ReadAllLines Combine GetFileName GetDirectoryName GetExtension GetFullPath GetTempPath
		IsMatch Matches Escape
		Serialize SerializeObject Deserialize DeserializeObject DeserializeAsync SerializeAsync Parse
		TryParse ParseExact TryParseExact
		LogInformation LogDebug LogWarning LogError LogTrace LogCritical BeginScope IsEnabled CreateLogger
		GetService GetRequiredService GetServices CreateScope AddSingleton AddScoped AddTransient
		AddHttpClient AddOptions Configure GetSection GetValue Bind
		Setup SetupGet SetupSet SetupSequence Returns ReturnsAsync Callback Throws ThrowsAsync Verify
		VerifyAll VerifyNoOtherCalls Received DidNotReceive Should ShouldBe ShouldNotBe ShouldBeNull
		ShouldNotBeNull ShouldBeTrue ShouldBeFalse ShouldContain ShouldNotContain ShouldBeEmpty
		ShouldNotBeEmpty ShouldBeOfType ShouldBeAssignableTo ShouldThrow ShouldThrowAsync ShouldBeGreaterThan
		ShouldBeLessThan ShouldBeEquivalentTo ShouldHaveSingleItem ShouldStartWith ShouldEndWith ShouldMatch
		BeEquivalentTo NotBeNull BeNull BeTrue BeFalse HaveCount ContainSingle ThrowAsync
		BDDfy Given When Then And But Invoke DynamicInvoke BeginInvoke EndInvoke Dispose DisposeAsync GetProperties GetProperty GetMethod
		GetMethods GetField GetFields GetCustomAttribute GetCustomAttributes IsAssignableFrom MakeGenericType
		GetGenericArguments GetInterfaces IsDefined SetValue`)
	strictMethods = extract.WordSet(`ToString Equals GetHashCode GetType Where Select SelectMany First FirstOrDefault
		Single SingleOrDefault Last LastOrDefault Any All Count Sum Min Max Average OrderBy OrderByDescending
		ThenBy ThenByDescending GroupBy ToList ToArray ToDictionary ToHashSet ToLookup Distinct Skip Take
		Concat Union Intersect Except Zip Aggregate Contains ElementAt ElementAtOrDefault AsEnumerable
		Cast OfType Reverse SequenceEqual DefaultIfEmpty Join Add AddRange Remove RemoveAt RemoveAll Clear
		Insert IndexOf LastIndexOf ContainsKey ContainsValue TryGetValue TryAdd GetOrAdd AddOrUpdate
		TryRemove Enqueue Dequeue Push Pop Peek CopyTo Sort Find FindAll FindIndex Exists ForEach
		GetEnumerator GetValueOrDefault Split Trim TrimStart TrimEnd Substring Replace StartsWith
		EndsWith ToLower ToUpper ToLowerInvariant ToUpperInvariant PadLeft PadRight CompareTo
		ConfigureAwait Wait ContinueWith GetAwaiter GetResult`)
	elemAccessors = extract.WordSet(`First FirstOrDefault Single SingleOrDefault Last LastOrDefault ElementAt
		ElementAtOrDefault Find FindLast GetValueOrDefault Dequeue Pop Peek MinBy MaxBy`)
	seqMethods = extract.WordSet(`Where OrderBy OrderByDescending ThenBy ThenByDescending Skip SkipLast SkipWhile Take
		TakeLast TakeWhile Distinct DistinctBy Reverse ToList ToArray ToHashSet AsEnumerable AsQueryable
		Concat Union Intersect Except FindAll AsReadOnly Append Prepend`)
	testAttributes = extract.WordSet(`Test Fact Theory TestMethod DataTestMethod TestCase TestCaseSource SkippableFact
		SkippableTheory Property AvaloniaFact StaFact WpfFact UIFact`)
	testClassAttributes = extract.WordSet(`TestFixture TestClass`)
	ignoredAttributes = extract.WordSet(`Obsolete Serializable NonSerialized Flags DebuggerDisplay DebuggerStepThrough
		DebuggerHidden DebuggerBrowsable MethodImpl CompilerGenerated GeneratedCode ExcludeFromCodeCoverage
		SuppressMessage NotNull MaybeNull NotNullWhen MaybeNullWhen AllowNull DisallowNull
		NotNullIfNotNull MemberNotNull DoesNotReturn CallerMemberName CallerFilePath CallerLineNumber
		CallerArgumentExpression EditorBrowsable Description DisplayName Browsable Category DefaultValue
		AttributeUsage InternalsVisibleTo AssemblyVersion AssemblyTitle ThreadStatic Conditional
		DllImport StructLayout FieldOffset MarshalAs Required Range StringLength MaxLength MinLength
		Key JsonProperty JsonIgnore JsonPropertyName JsonConverter DataContract DataMember
		HttpGet HttpPost HttpPut HttpDelete HttpPatch Route ApiController FromBody FromQuery FromRoute
		FromServices FromHeader FromForm Authorize AllowAnonymous Produces ProducesResponseType
		Consumes SetUp TearDown OneTimeSetUp OneTimeTearDown TestInitialize TestCleanup ClassInitialize
		ClassCleanup InlineData MemberData ClassData Trait Collection Ignore Category Explicit Timeout
		Values ValueSource Combinatorial Sequential Order Parallelizable NonParallelizable Benchmark
		GlobalSetup GlobalCleanup Params MemoryDiagnoser SerializeField Header Tooltip`)
	for k := range testAttributes {
		ignoredAttributes[k] = true
	}
	for k := range testClassAttributes {
		ignoredAttributes[k] = true
	}
}

// namespaceFlags reads the .NET naming of test and benchmark projects
// from a namespace: a segment that is or ends in the word Test, Tests or
// Testing (Ocelot.UnitTests, Acme.AcceptanceTests, Acme.Testing), or is
// Specs, marks tests; one that is or ends in Benchmark, Benchmarks,
// Samples or Examples marks example code.
func namespaceFlags(ns string) snapshot.Flags {
	var f snapshot.Flags
	for seg := range strings.SplitSeq(ns, ".") {
		switch {
		case endsInWord(seg, "Test"), endsInWord(seg, "Tests"), endsInWord(seg, "Testing"), seg == "Specs":
			f |= snapshot.FlagTest
		case endsInWord(seg, "Benchmark"), endsInWord(seg, "Benchmarks"), endsInWord(seg, "Samples"), endsInWord(seg, "Examples"):
			f |= snapshot.FlagExample
		}
	}
	return f
}

// endsInWord reports whether the PascalCase identifier seg is w or ends in
// the word w (UnitTests ends in Tests; Latest does not end in Test).
func endsInWord(seg, w string) bool {
	if !strings.HasSuffix(seg, w) {
		return false
	}
	if len(seg) == len(w) {
		return true
	}
	c := seg[len(seg)-len(w)-1]
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// typeName reduces a type to its name as written, without type arguments,
// nullability or `global::`: "Route", "Ocelot.Configuration.Route",
// "string", "Route[]". The implicit type var gives "".
func (x *extractor) typeName(n int32) string {
	if n < 0 {
		return ""
	}
	switch x.Kind(n) {
	case "identifier", "predefined_type":
		return x.Text(n)
	case "generic_name":
		if c := x.FirstNamed(n); c >= 0 {
			return x.Text(c)
		}
	case "qualified_name":
		return extract.JoinName(x.typeName(x.Field(n, fQualifier)), x.typeName(x.Field(n, fName)))
	case "alias_qualified_name":
		a := x.Text(x.Field(n, fAlias))
		nm := x.typeName(x.Field(n, fName))
		if a == "global" {
			return nm
		}
		return extract.JoinName(a, nm)
	case "nullable_type", "pointer_type", "ref_type", "scoped_type":
		return x.typeName(x.Field(n, fType))
	case "array_type":
		if t := x.typeName(x.Field(n, fType)); t != "" {
			return t + "[]"
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
	case "implicit_type":
		return vtype{}
	case "array_type":
		return vtype{name: "[]", elem: strings.TrimSuffix(x.typeName(x.Field(n, fType)), "[]")}
	case "nullable_type", "ref_type", "scoped_type":
		return x.varType(x.Field(n, fType))
	case "generic_name":
		return vtype{name: x.typeName(n), elem: x.lastTypeArg(n)}
	case "qualified_name":
		v := vtype{name: x.typeName(n)}
		if nm := x.Field(n, fName); nm >= 0 && x.Kind(nm) == "generic_name" {
			v.elem = x.lastTypeArg(nm)
		}
		return v
	}
	t := x.typeName(n)
	if x.tparams.Has(t) {
		return vtype{}
	}
	return vtype{name: t}
}

// lastTypeArg is the last type argument of a generic name: the element of
// List<T>, the value of Dictionary<K, V>.
func (x *extractor) lastTypeArg(n int32) string {
	// The last type argument of the last argument list that has one.
	last := int32(-1)
	for c := range x.OfKind(n, "type_argument_list") {
		if a := x.LastNamed(c); a >= 0 {
			last = a
		}
	}
	if last < 0 {
		return ""
	}
	t := x.typeName(last)
	if x.tparams.Has(t) {
		return ""
	}
	return t
}

// resultType is the type a method's callers get: Task<T> and ValueTask<T>
// give T, since the result is nearly always awaited; Task alone gives "".
func (x *extractor) resultType(n int32) string {
	if n < 0 {
		return ""
	}
	v := x.varType(n)
	switch extract.LastPart(v.name) {
	case "Task", "ValueTask":
		return v.elem
	case "void":
		return ""
	}
	if x.Kind(n) == "nullable_type" {
		return x.typeName(x.Field(n, fType))
	}
	return x.typeName(n)
}

// external reports whether a type name as written is known to be outside
// the repository: a predefined type, a library type of bclTypes that the
// file does not declare, or a name under a library namespace.
func (x *extractor) external(t string) bool {
	if t == "" {
		return false
	}
	t = strings.TrimSuffix(t, "[]")
	if t == "" || predefined[t] {
		return true
	}
	first := extract.FirstName(t)
	if x.declared[first] || x.tparams.Has(first) || x.aliases[first] {
		return false
	}
	if len(first) < len(t) {
		return x.externalNS(first)
	}
	return bclTypes[t]
}

// externalNS reports a first namespace segment of a library, unless the
// file's own namespace starts with it (the repository is that library).
func (x *extractor) externalNS(first string) bool {
	return externalRoots[first] && first != x.nsRoot
}

// pushTypeParams adds the type parameters a declaration introduces and
// returns the mark to restore.
func (x *extractor) pushTypeParams(n int32) int {
	mark := len(x.tparams)
	for c := range x.OfKind(n, "type_parameter_list") {
		for p := x.FirstNamed(c); p >= 0; p = x.NextNamed(p) {
			if nm := x.Field(p, fName); nm >= 0 {
				x.tparams = append(x.tparams, x.Text(nm))
			}
		}
	}
	return mark
}

// typeRefs records a reference to every named type inside a type. For -1,
// which has no kind and no children, it records none.
func (x *extractor) typeRefs(n int32, from int32, k extract.RefKind) {
	switch x.Kind(n) {
	case "identifier":
		name := x.Text(n)
		if !x.external(name) && !x.tparams.Has(name) {
			x.AddRef(extract.Ref{From: from, Kind: k, Name: name, Line: x.Line(n)})
		}
		return
	case "generic_name":
		x.typeRefs(x.FirstNamed(n), from, k)
		for c := range x.OfKind(n, "type_argument_list") {
			x.typeRefs(c, from, k)
		}
		return
	case "qualified_name", "alias_qualified_name":
		name := x.typeName(n)
		if !x.external(name) {
			qual, last := extract.SplitName(name)
			x.AddRef(extract.Ref{From: from, Kind: k, Name: last, Qual: qual, Line: x.Line(n)})
		}
		if nm := x.Field(n, fName); nm >= 0 && x.Kind(nm) == "generic_name" {
			for c := range x.OfKind(nm, "type_argument_list") {
				x.typeRefs(c, from, k)
			}
		}
		return
	case "predefined_type", "implicit_type", "attribute_list", "comment":
		return
	}
	for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
		x.typeRefs(c, from, k)
	}
}
