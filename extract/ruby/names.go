package ruby

import "github.com/knowing-dev/knowing/extract"

// Word lists the extractor consults. They keep calls that certainly leave
// the repository (Ruby core methods on untyped values, Kernel functions,
// core classes) from being guessed onto a repository method of the same
// name by the resolver's last-resort unique-name rule.

// kernelCalls are receiverless calls of Kernel and Module methods. They are
// dropped unless the file itself defines a method of that name.
var kernelCalls = extract.WordSet(
	"require", "require_relative", "load", "autoload", "raise", "fail", "puts", "print", "p", "pp",
	"printf", "sprintf", "format", "putc", "loop", "lambda", "proc", "catch", "throw", "block_given?",
	"binding", "caller", "caller_locations", "exit", "exit!", "abort", "at_exit", "sleep", "rand", "srand",
	"gets", "warn", "freeze", "frozen?", "private", "protected", "public", "module_function",
	"private_constant", "public_constant", "private_class_method", "public_class_method", "attr_reader",
	"attr_writer", "attr_accessor", "attr", "include", "extend", "prepend", "define_method",
	"alias_method", "remove_method", "undef_method", "instance_variable_get", "instance_variable_set",
	"instance_variable_defined?", "instance_variables", "respond_to?", "send", "__send__", "public_send",
	"class", "is_a?", "kind_of?", "instance_of?", "nil?", "dup", "clone", "tap", "then", "yield_self",
	"itself", "object_id", "inspect", "to_s", "method", "methods", "singleton_class", "instance_eval",
	"instance_exec", "class_eval", "class_exec", "module_eval", "module_exec", "const_get", "const_set",
	"const_defined?", "const_missing", "Integer", "Float", "String", "Array", "Hash", "Rational",
	"Complex", "system", "spawn", "exec", "fork", "trap", "open", "select", "gem", "using", "refine",
	"__method__", "__dir__", "sleep", "extend_object", "included", "extended", "inherited", "prepended",
	"method_missing", "respond_to_missing?", "instance_method", "define_singleton_method",
	"private_instance_methods", "public_instance_methods", "instance_methods", "ancestors",
	"allocate", "superclass", "equal?", "eql?", "hash", "display", "Pathname", "URI", "BigDecimal",
	"trace_var", "untrace_var", "set_trace_func", "global_variables", "local_variables",
	"autoload?", "readline", "readlines", "syscall", "srand", "pretty_inspect",
	"expect", "is_expected",
	"allow", "receive", "double", "instance_double", "class_double", "spy", "eq", "eql", "be", "assert",
	"assert_equal", "refute", "refute_equal", "assert_nil", "refute_nil", "assert_raises",
	"assert_match", "assert_includes", "assert_empty", "refute_empty", "assert_instance_of",
	"assert_kind_of", "assert_predicate", "assert_respond_to", "assert_same", "assert_output",
	"assert_silent", "assert_in_delta", "assert_operator", "refute_match", "refute_includes",
	"setup", "teardown", "before", "after", "around", "Given", "When", "Then", "And", "But", "Before",
	"After", "World", "namespace", "task", "desc", "rule", "multitask", "sh", "flunk", "yield",
)

// coreMethods are methods of Ruby's core classes (Object, String, Array,
// Hash, Enumerable, Integer, IO, ...). A call of one of them on a value of
// unknown type is almost always a call into the core, so it is not
// recorded: the resolver would otherwise bind it to the one repository
// method that happens to share the name.
var coreMethods = extract.WordSet(
	// Object / Kernel
	"to_s", "to_str", "to_sym", "to_a", "to_ary", "to_h", "to_hash", "to_i", "to_int", "to_f", "to_r",
	"to_c", "to_proc", "to_json", "to_yaml", "inspect", "class", "is_a?", "kind_of?", "instance_of?",
	"nil?", "dup", "clone", "freeze", "frozen?", "tap", "then", "itself", "object_id", "hash", "eql?",
	"equal?", "send", "public_send", "__send__", "respond_to?", "method", "methods", "instance_variable_get",
	"instance_variable_set", "instance_variables", "instance_eval", "instance_exec", "extend",
	"singleton_class", "define_singleton_method", "present?", "blank?", "presence", "try",
	"new", "call", "yield", "curry", "arity", "parameters", "source_location", "owner",
	"const_get", "const_set", "ancestors", "superclass", "instance_method", "define_method",
	"class_eval", "module_eval", "include?", "included_modules", "instance_methods",
	// Comparable / Numeric
	"between?", "clamp", "abs", "ceil", "floor", "round", "truncate", "zero?", "positive?", "negative?",
	"even?", "odd?", "succ", "pred", "times", "upto", "downto", "step", "divmod", "modulo", "fdiv",
	"pow", "integer?", "finite?", "infinite?", "nan?", "chr", "ord", "digits", "coerce",
	// String
	"length", "size", "bytesize", "empty?", "strip", "lstrip", "rstrip", "strip!", "lstrip!", "rstrip!",
	"chomp", "chomp!", "chop", "chop!", "chars", "bytes", "lines", "split", "join", "gsub", "gsub!",
	"sub", "sub!", "tr", "tr!", "tr_s", "delete", "delete!", "squeeze", "squeeze!", "downcase",
	"downcase!", "upcase", "upcase!", "capitalize", "capitalize!", "swapcase", "start_with?",
	"end_with?", "match", "match?", "scan", "rindex", "slice", "slice!", "center", "ljust",
	"rjust", "encode", "encode!", "encoding", "force_encoding", "valid_encoding?", "unicode_normalize",
	"unpack", "unpack1", "pack", "format", "replace", "reverse", "reverse!", "concat", "prepend",
	"insert", "each_char", "each_line", "each_byte", "casecmp", "casecmp?", "hex", "oct", "sum",
	"partition", "rpartition", "ascii_only?", "b", "scrub", "dump", "undump", "squish", "freeze",
	"dedent", "unpack", "intern", "succ!", "crypt", "codepoints", "grapheme_clusters",
	// Array / Enumerable
	"each", "each_with_index", "each_with_object", "each_slice", "each_cons", "each_pair", "each_key",
	"each_value", "map", "map!", "flat_map", "collect", "collect!", "select", "select!", "filter",
	"filter!", "filter_map", "reject", "reject!", "find", "detect", "find_index", "find_all", "grep",
	"grep_v", "count", "first", "last", "take", "take_while", "drop", "drop_while", "min", "max",
	"min_by", "max_by", "minmax", "sort", "sort!", "sort_by", "sort_by!", "group_by", "partition",
	"chunk", "chunk_while", "slice_when", "zip", "cycle", "inject", "reduce", "sum", "tally", "uniq",
	"uniq!", "compact", "compact!", "flatten", "flatten!", "push", "pop", "shift", "unshift", "append",
	"<<", "any?", "all?", "none?", "one?", "member?", "to_set", "lazy", "entries", "each_entry",
	"fill", "rotate", "shuffle", "sample", "product", "combination", "permutation", "transpose",
	"assoc", "rassoc", "dig", "fetch", "fetch_values", "values_at", "at", "delete_at", "delete_if",
	"keep_if", "clear", "difference", "union", "intersection", "intersect?", "bsearch", "pack",
	"min_max", "sum", "each_index", "reverse_each", "with_index", "with_object", "zip", "filter_map",
	// Hash
	"keys", "values", "key?", "has_key?", "value?", "has_value?", "merge", "merge!",
	"to_a", "invert", "transform_values", "transform_values!", "transform_keys",
	"transform_keys!", "slice", "except", "filter_map", "compare_by_identity",
	"symbolize_keys", "stringify_keys", "deep_merge", "deep_dup", "with_indifferent_access",
	// IO / File / Time
	"puts", "print", "printf", "close", "closed?", "flush", "rewind", "seek",
	"eof?", "readline", "readlines", "gets", "binmode", "fileno", "exist?", "file?", "directory?",
	"basename", "dirname", "extname", "expand_path", "absolute_path", "realpath", "mtime", "ctime",
	"atime", "strftime", "iso8601", "xmlschema", "utc", "localtime", "year", "month", "day", "hour",
	"min", "sec", "usec", "wday", "yday", "zone", "to_date", "to_time",
	// Regexp / MatchData / Proc / Struct / misc
	"captures", "named_captures", "pre_match", "post_match", "begin", "end",
	"=~", "===", "==", "!=", "<=>", "[]", "[]=", "+", "-", "*", "/", "%", "**", "!", "~",
	"instance_variable_defined?", "synchronize", "join", "alive?",
	"broadcast", "raise", "backtrace", "message", "full_message",
	"set_backtrace", "success?", "exitstatus", "pid", "to_path", "relative_path_from",
	"entries", "glob", "mkpath", "rmtree", "cleanpath", "each_filename", "descend", "ascend",
	"sub_ext", "join", "absolute?", "relative?",
	// RSpec expectations and mocks
	"to", "not_to", "to_not", "and_return", "and_raise", "and_yield", "and_call_original", "with",
	"once", "twice", "exactly", "times", "at_least", "at_most", "ordered", "and_wrap_original",
)

// coreConstants are classes and modules of Ruby's core and standard
// library. Calls on them (File.join, Time.now, YAML.load) leave the
// repository; the extractor gives the file an import of the constant so
// that the resolver treats it as an outside package.
var coreConstants = extract.WordSet(
	"Object", "BasicObject", "Module", "Class", "Kernel", "Comparable", "Enumerable", "Enumerator",
	"File", "Dir", "IO", "Time", "Date", "DateTime", "Process", "Signal", "Thread", "Mutex", "Queue",
	"SizedQueue", "ConditionVariable", "Fiber", "Ractor", "ObjectSpace", "GC", "Marshal", "Math",
	"Random", "Range", "Regexp", "MatchData", "String", "Symbol", "Integer", "Float", "Numeric",
	"Rational", "Complex", "Array", "Hash", "Struct", "Set", "SortedSet", "Proc", "Method",
	"UnboundMethod", "Binding", "NilClass", "TrueClass", "FalseClass", "Encoding", "Exception",
	"StandardError", "RuntimeError", "ArgumentError", "TypeError", "NameError", "NoMethodError",
	"KeyError", "IndexError", "StopIteration", "IOError", "EOFError", "SystemExit", "Interrupt",
	"NotImplementedError", "ScriptError", "LoadError", "SecurityError", "ZeroDivisionError",
	"FloatDomainError", "RangeError", "FrozenError", "Errno", "Warning", "ENV", "ARGV", "ARGF",
	"STDIN", "STDOUT", "STDERR", "RbConfig", "Gem", "JSON", "YAML", "Psych", "CSV", "ERB", "CGI",
	"URI", "Net", "OpenSSL", "Digest", "Base64", "SecureRandom", "Benchmark", "Logger", "Pathname",
	"FileUtils", "Tempfile", "StringIO", "Shellwords", "Open3", "OpenStruct", "Socket", "TCPSocket",
	"Timeout", "Zlib", "Find", "Etc", "Forwardable", "SingleForwardable", "Singleton", "Observable",
	"Monitor", "MonitorMixin", "PP", "Ripper", "Coverage", "Data", "IPAddr", "Resolv", "BigDecimal",
	"Addrinfo", "Fcntl", "Readline", "Reline", "IRB", "Objspace", "WeakRef", "Delegator",
	"SimpleDelegator", "DelegateClass", "Comparable", "TracePoint", "RubyVM", "Refinement",
	"UncaughtThrowError", "ClosedQueueError", "ThreadError", "FiberError", "SystemCallError",
	"NoMatchingPatternError", "NoMatchingPatternKeyError", "LocalJumpError", "RegexpError",
	"EncodingError", "SignalException", "SystemStackError", "NoMemoryError",
)

// rspecGroups open an example group; rspecExamples declare one example.
var rspecGroups = extract.WordSet("describe", "context", "feature", "shared_examples", "shared_examples_for",
	"shared_context", "xdescribe", "xcontext", "fdescribe", "fcontext", "example_group", "experiment")

var rspecExamples = extract.WordSet("it", "specify", "example", "scenario", "its", "fit", "xit", "fspecify",
	"xspecify", "fexample", "xexample", "fscenario", "xscenario", "should", "should_eventually", "test")
