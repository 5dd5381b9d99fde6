package query

import "strings"

// The word lists of task reading (step 1): what carries no signal, what
// opens a task, what code abbreviates, and which numbers are HTTP
// statuses.

// stopWords are English function words and words every task uses.
var stopWords = set(`a an the and or but if then else of to in on at by for from with without into onto
over under about as is are was were be been being do does did done doing has have had having it its
this that these those there here which what when where why how who whom whose i we you he she they me
us them my our your his her their not no nor so than too very can could should would will shall may
might must also just only some any all each every both either neither other another such same own
more most less least many much few lot lots one two three first second last new old like via per
etc eg ie e.g i.e way ways thing things something anything everything nothing let lets make makes made
need needs needed want wants wanted use used uses using get gets got getting see sees seen look looks
happen happens happened currently now instead still even really actually always never sometimes
work works working worked case cases because while until after before since though although whether
able unable properly correctly correct wrong right good bad better best please thanks thank hi hello
code codebase project repo repository file files function functions method methods class classes
support supports supported supporting part parts
don doesn didn isn aren wasn weren won shouldn couldn wouldn hasn haven`)

// programWords are programming words too common in code to point anywhere.
var programWords = set(`func fn def var let const type types err nil null none true false
return returns new self this`)

// hookWords name when a lifecycle hook runs; they are stop words alone.
var hookWords = set(`before after`)

// actionVerbs open a task; the noun after one is the task's focus. They
// say what to do to the code, not what it does: verbs that name a
// capability (validate, register, convert, migrate) are the task's
// subject, as Validator, RegisterModule and Converter are, and stay
// keywords. "configure" stays here: "how does X configure logging" is
// about logging.
var actionVerbs = set(`add adds adding implement implements implementing build create creates creating
make write writes fix fixes fixing update updates updating refactor refactors refactoring change changes
modify remove removes removing delete deletes rename renames move moves extract replace replaces
improve improves optimize optimise speed support handle handles debug investigate find show explain
understand check checks ensure allow allows enable enables disable disables prevent prevents introduce
extend expose document test tests configure
where how`)

// abbreviations expand short forms developers type into the words code uses.
var abbreviations = map[string][]string{
	"ctx": {"context"}, "cfg": {"config", "configuration"}, "conf": {"config"}, "config": {"configuration"},
	"svc": {"service"}, "srv": {"server"}, "req": {"request"}, "res": {"response"}, "resp": {"response"},
	"msg": {"message"}, "err": {"error"}, "auth": {"authentication", "authorization"}, "authn": {"authentication"},
	"authz": {"authorization"}, "db": {"database"}, "repo": {"repository"}, "env": {"environment"},
	"args": {"arguments"}, "arg": {"argument"}, "params": {"parameters"}, "param": {"parameter"},
	"dir": {"directory"}, "dirs": {"directories"}, "init": {"initialize"}, "impl": {"implementation"},
	"info": {"information"}, "conn": {"connection"}, "tx": {"transaction"}, "txn": {"transaction"},
	"addr": {"address"}, "buf": {"buffer"}, "fmt": {"format"}, "idx": {"index"}, "len": {"length"},
	"num": {"number"}, "pkg": {"package"}, "tmpl": {"template"}, "tpl": {"template"}, "util": {"utility"},
	"utils": {"utilities"}, "val": {"value"}, "async": {"asynchronous"}, "sync": {"synchronize"},
	"deps": {"dependencies"}, "dep": {"dependency"}, "perm": {"permission"}, "perms": {"permissions"},
	"cli": {"command"}, "cmd": {"command"}, "opts": {"options"}, "opt": {"option"}, "doc": {"document"},
	"docs": {"documentation"}, "ws": {"websocket"}, "url": {"uri"}, "uri": {"url"}, "tls": {"ssl"},
	"ssl": {"tls"}, "jwt": {"token"}, "api": {"endpoint"}, "mw": {"middleware"}, "gc": {"garbage"},
	"io": {"input", "output"}, "fs": {"filesystem"}, "regex": {"regexp"}, "regexp": {"regex"},
	"stdin": {"input"}, "stdout": {"output"}, "stderr": {"error"}, "k8s": {"kubernetes"},
	"maximum": {"max"}, "minimum": {"min"}, "limit": {"max"}, "limits": {"max"},
}

func set(words string) map[string]bool {
	n := 0
	for range strings.FieldsSeq(words) {
		n++
	}
	m := make(map[string]bool, n) // sized once: every process builds these
	for w := range strings.FieldsSeq(words) {
		m[w] = true
	}
	return m
}

// testWords mark a task about tests.
var testWords = set(`test tests testing tested unittest unittests spec specs fixture fixtures mock mocks
assert assertion assertions coverage benchmark benchmarks`)

// exampleWords mark a task about examples, demos or benchmarks: code
// that uses the project (snapshot.FlagExample). "example" after "for"
// ("for example, …") does not count.
var exampleWords = set(`example examples demo demos tutorial tutorials sample samples benchmark benchmarks bench`)

// contractions are the short forms code gives words a task writes in
// full: "query parameters" are queryParams, a "directory listing" is a
// dirListing. They are used in bigrams only, after the bigrams as
// written: alone, most are names of hundreds of unrelated symbols (err,
// req, str, id), and adding them as components lowered dev P@10 on three
// of five repositories (EVAL.md).
var contractions = map[string][]string{
	"directory": {"dir"}, "directories": {"dirs"}, "message": {"msg"}, "messages": {"msgs"},
	"context": {"ctx"}, "configuration": {"config", "cfg"}, "argument": {"arg"}, "arguments": {"args"},
	"parameter": {"param"}, "parameters": {"params"}, "initialize": {"init"}, "initialization": {"init"},
	"information": {"info"}, "connection": {"conn"}, "connections": {"conns"}, "address": {"addr"},
	"buffer": {"buf"}, "length": {"len"}, "number": {"num"}, "package": {"pkg"}, "packages": {"pkgs"},
	"template": {"tmpl"}, "temporary": {"temp", "tmp"}, "utility": {"util"}, "utilities": {"utils"},
	"dependency": {"dep"}, "dependencies": {"deps"}, "permission": {"perm"}, "permissions": {"perms"},
	"command": {"cmd"}, "option": {"opt"}, "options": {"opts"}, "environment": {"env"},
	"repository": {"repo"}, "database": {"db"}, "request": {"req"}, "response": {"resp"},
	"error": {"err"}, "implementation": {"impl"}, "specification": {"spec"}, "reference": {"ref"},
	"references": {"refs"}, "attribute": {"attr"}, "attributes": {"attrs"}, "expression": {"expr"},
	"previous": {"prev"}, "source": {"src"}, "destination": {"dst", "dest"}, "position": {"pos"},
	"statistics": {"stats"}, "allocate": {"alloc"}, "allocation": {"alloc"}, "character": {"char"},
	"characters": {"chars"}, "execute": {"exec"}, "generate": {"gen"}, "pointer": {"ptr"},
	"sequence": {"seq"}, "string": {"str"}, "function": {"func", "fn"}, "variable": {"var"},
	"object": {"obj"}, "document": {"doc"}, "synchronize": {"sync"}, "asynchronous": {"async"},
	"application": {"app"}, "authentication": {"auth"}, "authorization": {"auth"}, "library": {"lib"},
	"identifier": {"id"}, "maximum": {"max"}, "minimum": {"min"}, "integer": {"int"},
	"boolean": {"bool"}, "description": {"desc"}, "signature": {"sig"}, "certificate": {"cert"},
	"certificates": {"certs"}, "credentials": {"creds"}, "administrator": {"admin"},
	"hexadecimal": {"hex"}, "calculate": {"calc"}, "manager": {"mgr"}, "value": {"val"},
	"values": {"vals"}, "iterator": {"iter"}, "index": {"idx"}, "current": {"cur"},
}

var codeExt = set(`go py rb rs java cs js ts tsx jsx mjs cjs kt scala c h cc cpp hpp cxx hh hxx php swift erb yaml yml toml json md
lock txt cfg ini xml html htm css scss sh gradle properties gemspec sql proto`)

// verbCues are the words after which an action verb is a verb: "to
// build", "and update", "should handle", "we check". After anything else
// it names a thing: "parallel build jobs", "the update loop", "a file
// handle", "health check".
var verbCues = set(`to and or then please should must can could will would shall may might also not
never always dont don't cannot i we you they let lets just first`)

// determiners make the word after them a noun: "the update loop".
var determiners = set(`the a an this that these those our my your its their each every any some no`)

// auxiliaries open a question whose verb comes after its subject: "how
// does caddy build a TLS configuration".
var auxiliaries = set(`does do did can could should would will is are`)

// httpStatus names the HTTP status codes tasks cite by number.
var httpStatus = map[string]string{
	"301": "MovedPermanently", "304": "NotModified", "400": "BadRequest", "401": "Unauthorized",
	"403": "Forbidden", "404": "NotFound", "405": "MethodNotAllowed", "408": "RequestTimeout",
	"409": "Conflict", "413": "RequestEntityTooLarge", "415": "UnsupportedMediaType",
	"429": "TooManyRequests", "500": "InternalServerError", "502": "BadGateway",
	"503": "ServiceUnavailable", "504": "GatewayTimeout",
}

// statusWordsBefore and statusWordsAfter are the words around a number
// that make it an HTTP status: "return a 404", "404 page", "status 500".
var (
	statusWordsBefore = set(`a an the return returns returning returned send sends respond responds responding
with status http code codes raise raises throw throws and or`)
	statusWordsAfter = set(`response responses error errors status page pages code codes not and or for
when instead unauthorized forbidden internal bad`)
)
