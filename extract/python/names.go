package python

import (
	"strings"
	"unicode/utf8"

	"github.com/knowing-dev/knowing/extract"
)

// builtins are Python's built-in functions, classes and exceptions. A bare
// call to one is kept only when the file defines or imports the name.
var builtins = extract.WordSet(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit
filter float format frozenset getattr globals hasattr hash help hex id input int isinstance
issubclass iter len license list locals map max memoryview min next object oct open ord pow print
property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple
type vars zip __import__ NotImplemented Ellipsis
BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError
AttributeError BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
DeprecationWarning EOFError EncodingWarning EnvironmentError FileExistsError FileNotFoundError
FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError
IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError
PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError
ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError
SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError
UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning
UserWarning ValueError Warning ZeroDivisionError`)

// typingNames are names from typing, collections.abc and the builtins that
// only shape a type annotation; they are not referenced as types.
var typingNames = extract.WordSet(`Any AnyStr Annotated AsyncContextManager AsyncGenerator AsyncIterable
AsyncIterator Awaitable BinaryIO ByteString Callable ChainMap ClassVar Collection Concatenate
Container ContextManager Coroutine Counter DefaultDict Deque Dict Final ForwardRef FrozenSet
Generator Generic Hashable IO ItemsView Iterable Iterator KeysView List Literal LiteralString
Mapping MappingView Match MutableMapping MutableSequence MutableSet NamedTuple Never NewType
NoReturn NotRequired Optional OrderedDict ParamSpec ParamSpecArgs ParamSpecKwargs Pattern Protocol
ReadOnly Required Reversible Self Sequence Set Sized SupportsAbs SupportsBytes SupportsComplex
SupportsFloat SupportsIndex SupportsInt SupportsRound Text TextIO Tuple Type TypeAlias TypeGuard
TypeIs TypeVar TypeVarTuple TypedDict Union Unpack ValuesView TYPE_CHECKING cast overload
int str float bool bytes list dict set tuple frozenset object type None complex bytearray
memoryview range slice`)

// typingModules are modules whose attributes are typing constructs.
var typingModules = extract.WordSet(`typing typing_extensions collections.abc types abc`)

// wrapperTypes wrap the type an annotation is about: Optional[Foo] is Foo.
var wrapperTypes = extract.WordSet(`Optional Union Annotated ClassVar Final Required NotRequired ReadOnly
InitVar Type type TypeGuard TypeIs Awaitable Coroutine`)

// isUpperName reports a CONSTANT_NAME: upper-case letters, digits and
// underscores, with a letter.
func isUpperName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			return false
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// startsUpper reports a name whose first letter after leading underscores
// is upper case, as a class's is.
func startsUpper(s string) bool {
	s = strings.TrimLeft(s, "_")
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// isDunder reports a __dunder__ name.
func isDunder(s string) bool {
	return len(s) > 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__")
}

// docstring turns a string literal's source into its cleaned text, like
// inspect.cleandoc.
func docstring(lit string) string {
	i := 0
	for i < len(lit) && lit[i] != '"' && lit[i] != '\'' {
		i++
	}
	prefix := strings.ToLower(lit[:i])
	if strings.Contains(prefix, "b") || strings.Contains(prefix, "f") {
		return ""
	}
	s := lit[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimPrefix(s, q)
			s = strings.TrimSuffix(s, q)
			break
		}
	}
	return cleandoc(s)
}

const maxDoc = 4000

// cleandoc removes a docstring's common indentation, as inspect.cleandoc
// does, and caps it at maxDoc.
func cleandoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if d := len(l) - len(t); indent < 0 || d < indent {
			indent = d
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if indent > 0 && len(l) >= indent {
			l = l[indent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	out := strings.TrimSpace(strings.Join(lines, "\n"))
	return capText(out, maxDoc)
}

// capText cuts s to at most n bytes, on a character boundary, marking the
// cut with "…".
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// cleanComment strips a comment's marker, including Sphinx's "#:".
func cleanComment(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "#")
	s = strings.TrimPrefix(s, ":")
	return strings.TrimSpace(s)
}

// dottedNames lists the dotted identifiers in a string annotation
// ("Foo | None", "t.Optional[app.Flask]").
func dottedNames(s string) []string {
	var out []string
	i := 0
	for i < len(s) {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] == '_' || s[j] == '.' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		out = append(out, strings.Trim(s[i:j], "."))
		i = j
	}
	return out
}
