package javascript

import "github.com/knowing-dev/knowing/extract"

// builtinGlobals are functions and constructors of the platform: a bare
// call of one (not declared in the file) is not a call into the repository.
var builtinGlobals = extract.WordSet(
	"require", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "setImmediate",
	"clearImmediate", "queueMicrotask", "structuredClone", "parseInt", "parseFloat", "isNaN",
	"isFinite", "String", "Number", "Boolean", "Array", "Object", "Symbol", "BigInt", "Date",
	"RegExp", "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
	"URIError", "AggregateError", "Promise", "Map", "Set", "WeakMap", "WeakSet", "WeakRef",
	"Proxy", "Function", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
	"escape", "unescape", "eval", "fetch", "alert", "confirm", "prompt", "atob", "btoa",
	"requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback", "Buffer", "URL",
	"URLSearchParams", "TextEncoder", "TextDecoder", "AbortController", "Event", "CustomEvent",
	"XMLHttpRequest", "WebSocket", "Worker", "Uint8Array", "Int8Array", "Uint16Array",
	"Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "BigInt64Array",
	"BigUint64Array", "Uint8ClampedArray", "ArrayBuffer", "SharedArrayBuffer", "DataView",
	"Headers", "Request", "Response", "FormData", "Blob", "File", "FileReader", "Image",
	"MutationObserver", "IntersectionObserver", "ResizeObserver", "describe", "it", "test",
	"expect", "beforeEach", "afterEach", "beforeAll", "afterAll", "before", "after", "context",
	"suite", "specify", "xit", "fit", "xdescribe", "fdescribe", "setup", "teardown", "assert",
	"console", "Math", "JSON", "Reflect", "Intl", "globalThis", "process", "define",
)

// builtinObjects are global objects whose methods are the platform's.
var builtinObjects = extract.WordSet(
	"console", "Math", "JSON", "Object", "Array", "Promise", "Reflect", "Number", "String",
	"Symbol", "Date", "process", "window", "document", "navigator", "location", "history",
	"Buffer", "Intl", "globalThis", "localStorage", "sessionStorage", "performance", "crypto",
	"jest", "vi", "Atomics", "WebAssembly", "BigInt", "Error", "RegExp", "Boolean", "URL",
	"module", "exports", "__dirname", "__filename", "self", "chrome", "customElements",
	"require", "arguments", "Deno", "Bun",
)

// builtinMethods are methods of the platform's arrays, strings, promises,
// objects, events and DOM; called on a value of unknown type they are not
// guessed onto a repository method of the same name.
var builtinMethods = extract.WordSet(
	"push", "shift", "unshift", "slice", "splice", "concat", "join", "reverse", "sort",
	"indexOf", "lastIndexOf", "includes", "find", "findIndex", "findLast", "findLastIndex",
	"filter", "forEach", "reduce", "reduceRight", "some", "every", "flat", "flatMap", "fill",
	"keys", "values", "entries", "then", "catch", "finally", "toString", "valueOf",
	"hasOwnProperty", "split", "replace", "replaceAll", "trim", "trimStart", "trimEnd",
	"toLowerCase", "toUpperCase", "startsWith", "endsWith", "substring", "substr", "charAt",
	"charCodeAt", "codePointAt", "padStart", "padEnd", "match", "matchAll", "test", "exec",
	"apply", "call", "bind", "log", "warn", "error", "info", "debug", "trace",
	"addEventListener", "removeEventListener", "dispatchEvent", "preventDefault",
	"stopPropagation", "querySelector", "querySelectorAll", "getElementById",
	"getElementsByClassName", "getElementsByTagName", "appendChild", "removeChild",
	"insertBefore", "replaceChild", "setAttribute", "getAttribute", "removeAttribute",
	"hasAttribute", "closest", "contains", "toFixed", "toPrecision", "toISOString",
	"toJSON", "getTime", "getFullYear", "getMonth", "getDate", "getDay", "getHours",
	"getMinutes", "getSeconds", "stringify", "parse", "assign", "freeze", "isArray", "from",
	"floor", "ceil", "round", "random", "localeCompare", "normalize", "repeat", "at",
	"toLocaleString", "toLocaleDateString", "charCodeAt", "fromCharCode", "isInteger",
	"removeListener", "removeAllListeners", "addListener", "listenerCount",
	"toBe", "toEqual", "toBeTruthy", "toBeFalsy", "toHaveBeenCalled", "toHaveBeenCalledWith",
	"toThrow", "toContain", "toMatch", "toBeDefined", "toBeUndefined", "toBeNull",
	"toStrictEqual", "toHaveLength", "toHaveProperty", "toMatchObject", "toMatchSnapshot",
	"mockReturnValue", "mockResolvedValue", "mockImplementation", "mockReturnValueOnce",
	"mockResolvedValueOnce", "mockRejectedValue", "toBeInstanceOf", "toBeGreaterThan",
	"toBeLessThan", "toHaveBeenCalledTimes", "resolves", "rejects", "decode", "encode",
	"getReader", "getWriter", "enqueue", "arrayBuffer", "blob", "formData", "clone",
	"abort", "postMessage", "terminate", "readFile", "writeFile", "readFileSync",
	"writeFileSync", "existsSync", "mkdirSync", "readdirSync", "statSync", "createReadStream",
	"createWriteStream", "pipe", "pipeTo", "pipeThrough", "setHeader", "getHeader",
	"writeHead", "destroy", "resume", "pause", "setEncoding", "toBeCalled", "toBeCalledWith",
	"toHaveReturned", "toBeCloseTo", "toSatisfy", "toThrowError", "toEqualTypeOf",
)

// builtinTypes are TypeScript's and the platform's types.
var builtinTypes = extract.WordSet(
	"Promise", "Array", "ReadonlyArray", "Record", "Partial", "Required", "Readonly", "Pick",
	"Omit", "Exclude", "Extract", "NonNullable", "ReturnType", "Parameters", "InstanceType",
	"ConstructorParameters", "Awaited", "ThisType", "Uppercase", "Lowercase", "Capitalize",
	"Uncapitalize", "Map", "Set", "WeakMap", "WeakSet", "ReadonlyMap", "ReadonlySet", "Date",
	"Error", "RegExp", "Function", "Object", "String", "Number", "Boolean", "Symbol",
	"BigInt", "Iterable", "Iterator", "IterableIterator", "AsyncIterable", "AsyncIterator",
	"AsyncIterableIterator", "Generator", "AsyncGenerator", "PromiseLike", "ArrayLike",
	"Uint8Array", "ArrayBuffer", "Buffer", "HTMLElement", "HTMLInputElement", "HTMLDivElement",
	"Element", "Event", "MouseEvent", "KeyboardEvent", "Window", "Document", "Response",
	"Request", "Headers", "URL", "URLSearchParams", "Blob", "File", "FormData", "JSX",
	"TemplateStringsArray", "PropertyKey", "Console", "NodeJS", "AbortSignal", "unknown",
)
