package javascript

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/javascript")
	const (
		user    = "src.models.user"
		order   = "src.models.order"
		base    = "src.store.base"
		store   = "src.store.userStore"
		api     = "src.api.handlers"
		format  = "src.util.format"
		legacy  = "src.legacy.emitter"
		card    = "src.components.UserCard"
		storeT  = "test.userStore.test.describe_UserStore"
		addTest = storeT + ".adds_a_valid_user"
		apiTest = storeT + ".creates_users_through_the_API"
	)

	// Symbols, kinds, qualified names (path-based, index files name their
	// folder), doc comments, signatures, flags.
	if n := b.Node(user + ".User"); n.Kind != snapshot.KindClass || n.Doc != "A registered user of the shop." ||
		n.Flags&snapshot.FlagExported == 0 || n.Signature != "export class User implements Entity" {
		t.Errorf("User: %v %q %v %q", n.Kind, n.Doc, n.Flags, n.Signature)
	}
	if n := b.Node(user + ".Entity"); n.Kind != snapshot.KindInterface {
		t.Errorf("Entity kind %v", n.Kind)
	}
	if n := b.Node(user + ".User.constructor"); n.Kind != snapshot.KindConstructor {
		t.Errorf("constructor kind %v", n.Kind)
	}
	if n := b.Node(base + ".BaseStore.find"); n.Kind != snapshot.KindMethod || n.Doc != "Looks an item up by id." ||
		!strings.HasPrefix(n.Signature, "find(id: string): T | undefined") {
		t.Errorf("find: %v %q %q", n.Kind, n.Doc, n.Signature)
	}
	if n := b.Node(base + ".BaseStore.log"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("protected log exported: %v", n.Flags)
	}
	if n := b.Node(order + ".Status"); n.Kind != snapshot.KindEnum {
		t.Errorf("Status kind %v", n.Kind)
	}
	b.Node(order + ".Status.Paid")
	if n := b.Node(order + ".OrderLine"); n.Kind != snapshot.KindTypeAlias {
		t.Errorf("OrderLine kind %v", n.Kind)
	}
	// Constructor parameter properties are fields.
	if n := b.Node(order + ".Order.owner"); n.Kind != snapshot.KindField {
		t.Errorf("owner kind %v", n.Kind)
	}
	if n := b.Node(user + ".User.name"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("private parameter property exported: %v", n.Flags)
	}
	if n := b.Node(api + ".createUser"); n.Kind != snapshot.KindFunction || n.Doc != "Creates a user and announces it." ||
		!strings.HasPrefix(n.Signature, "export async function createUser(store: UserStore, name: string): Promise<User>") {
		t.Errorf("createUser: %v %q %q", n.Kind, n.Doc, n.Signature)
	}
	// CommonJS: exported functions, an exports.x assignment, JSDoc.
	if n := b.Node(format + ".title"); n.Flags&snapshot.FlagExported == 0 || n.Doc != "Title-cases a string." {
		t.Errorf("title: %v %q", n.Flags, n.Doc)
	}
	b.Node(format + ".pad")
	// Functions declared inside a function are its members, by a
	// declaration (hoisted: called before it) or a const arrow; calls
	// between them resolve lexically. A function expression returned
	// (format) is part of its parent. A test's helpers stay part of the
	// test.
	if n := b.Node(format + ".createFormatter.trim"); n.Kind != snapshot.KindFunction {
		t.Errorf("nested trim: %v", n.Kind)
	}
	b.Edge(format+".createFormatter", format+".createFormatter.fit", snapshot.EdgeContains)
	b.Edge(format+".createFormatter.fit", format+".createFormatter.trim", snapshot.EdgeCalls)
	b.Edge(format+".createFormatter.fit", format+".pad", snapshot.EdgeCalls)
	b.Edge(format+".createFormatter", format+".createFormatter.fit", snapshot.EdgeCalls)
	b.Edge(format+".createFormatter", format+".capitalize", snapshot.EdgeCalls)
	if ids := b.IDs(addTest + ".make"); len(ids) != 0 {
		t.Errorf("a test's helper is a symbol: %v", ids)
	}
	b.Edge(addTest, user+".User", snapshot.EdgeCalls)
	// Pre-class JavaScript: a constructor function with prototype methods
	// is a class.
	if n := b.Node(legacy + ".Emitter"); n.Kind != snapshot.KindClass {
		t.Errorf("Emitter kind %v", n.Kind)
	}
	if n := b.Node(legacy + ".Emitter.on"); n.Kind != snapshot.KindMethod || n.Doc != "Registers a handler for an event." {
		t.Errorf("Emitter.on: %v %q", n.Kind, n.Doc)
	}
	// An anonymous default export is named after its file; a TSX component
	// is a function.
	if n := b.Node(card + ".UserCard"); n.Kind != snapshot.KindFunction || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("UserCard: %v %v", n.Kind, n.Flags)
	}
	b.Node(card + ".Avatar")

	// Containment both ways.
	b.Edge(store+".UserStore", store+".UserStore.add", snapshot.EdgeContains)
	b.Edge(store+".UserStore.add", store+".UserStore", snapshot.EdgeMemberOf)

	// Calls across files through imports: named, through a barrel's
	// re-exports (index.ts), through a tsconfig path alias ("@/…") and a
	// default import, through a namespace import, through require().
	b.Edge(api+".createUser", user+".User", snapshot.EdgeCalls)
	b.Edge(api+".findUser", store+".UserStore", snapshot.EdgeCalls)
	b.Edge(api+".createUser", format+".title", snapshot.EdgeCalls)
	// A method call through a typed parameter (store: UserStore).
	b.Edge(api+".createUser", store+".UserStore.add", snapshot.EdgeCalls)
	// Through a variable typed by `new` (const store = new UserStore()),
	// to a method the class inherits.
	b.Edge(api+".findUser", base+".BaseStore.find", snapshot.EdgeCalls)
	// Through a module-level variable holding a required class instance.
	b.Edge(api+".createUser", legacy+".Bus.publish", snapshot.EdgeCalls)
	// Through fields: a TypeScript parameter property (readonly owner:
	// User) and a JavaScript field assigned in the constructor
	// (this.bus = new Bus()).
	b.Edge(order+".Order.ownerName", user+".User.displayName", snapshot.EdgeCalls)
	b.Edge(legacy+".Queue.flush", legacy+".Bus.publish", snapshot.EdgeCalls)
	if n := b.Node(legacy + ".Queue.bus"); n.Kind != snapshot.KindField {
		t.Errorf("Queue.bus kind %v", n.Kind)
	}
	// this.m() to the class's own method and to the parent's method.
	b.Edge(store+".UserStore.add", store+".UserStore.validate", snapshot.EdgeCalls)
	b.Edge(store+".UserStore.add", base+".BaseStore.log", snapshot.EdgeCalls)
	// A call in the same file; a function passed by name is called.
	b.Edge(format+".capitalize", format+".title", snapshot.EdgeCalls)
	b.Edge(api+".register", api+".findUser", snapshot.EdgeCalls)
	b.Edge(api+".routes", api+".createUser", snapshot.EdgeCalls)
	// JSX: a component used is called, a handler passed by name too.
	b.Edge(card+".UserCard", card+".Avatar", snapshot.EdgeCalls)
	b.Edge(card+".UserCard", card+".track", snapshot.EdgeCalls)
	// A destructured parameter typed inline ({ user }: { user: User }).
	b.Edge(card+".UserCard", user+".User.displayName", snapshot.EdgeCalls)

	// Inheritance: extends, inherited and overridden methods; the
	// pre-class util.inherits form too.
	b.Edge(store+".UserStore", base+".BaseStore", snapshot.EdgeExtends)
	b.Edge(store+".UserStore", base+".BaseStore.find", snapshot.EdgeInherits)
	b.Edge(store+".UserStore.validate", base+".BaseStore.validate", snapshot.EdgeOverrides)
	b.Edge(legacy+".Bus", legacy+".Emitter", snapshot.EdgeExtends)
	b.Edge(legacy+".Bus.publish", legacy+".Emitter.emit", snapshot.EdgeCalls)

	// An interface and its implementation.
	b.Edge(user+".User", user+".Entity", snapshot.EdgeImplements)
	b.Edge(user+".User.save", user+".Entity.save", snapshot.EdgeOverrides)

	// Types in signatures and declarations.
	b.Edge(user+".User", api+".createUser", snapshot.EdgeTypeHintOf)
	b.Edge(order+".Order", order+".OrderLine", snapshot.EdgeReferences)

	// Tests: describe/it blocks are test functions named after their
	// description ("describe_" added where the name is the class tested).
	if n := b.Node(addTest); n.Kind != snapshot.KindFunction || n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("test block: %v %v", n.Kind, n.Flags)
	}
	b.Edge(addTest, store+".UserStore.add", snapshot.EdgeTests)
	b.Edge(store+".UserStore.add", addTest, snapshot.EdgeTestedBy)
	b.Edge(apiTest, api+".createUser", snapshot.EdgeTests)
	// Through the result type of an awaited call (createUser → Promise<User>).
	b.Edge(apiTest, user+".User.displayName", snapshot.EdgeTests)
	if n := b.Node(store + ".UserStore"); n.Flags&snapshot.FlagTest != 0 {
		t.Errorf("UserStore flagged test: %v", n.Flags)
	}

	// Imports link files to modules: relative, aliased, barrel targets.
	b.Edge("src/api/handlers.ts", store, snapshot.EdgeImports)
	b.Edge("src/api/handlers.ts", "src.models", snapshot.EdgeImports)
	b.Edge("src/api/handlers.ts", user, snapshot.EdgeImports)
	b.Edge("src/api/handlers.ts", legacy, snapshot.EdgeImports)

	// Not guessed: capitalize imported from an external package is not the
	// repository's capitalize; item.validate() on an untyped value is
	// ambiguous (Order, UserStore, BaseStore); a platform method
	// (s.charAt) is not a repository method.
	b.NoEdge(api+".findUser", format+".capitalize", snapshot.EdgeCalls)
	b.NoEdge(api+".checkout", order+".Order.validate", snapshot.EdgeCalls)
	b.NoEdge(api+".checkout", store+".UserStore.validate", snapshot.EdgeCalls)
	b.NoEdge(api+".createUser", user+".User.save", snapshot.EdgeCalls)
}

func TestPackageOf(t *testing.T) {
	for in, want := range map[string]string{
		"src/router/index.ts":     "src.router",
		"src/router.ts":           "src.router",
		"index.js":                "index",
		"lib/a.b.js":              "lib.a.b",
		"types/x.d.ts":            "types.x.d",
		"components/Button.tsx":   "components.Button",
		"pkg/main.mjs":            "pkg.main",
		"src/styles.css":          "src.styles.css",
		"packages/core/index.cjs": "packages.core",
	} {
		if got := PackageOf(in); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSDocType(t *testing.T) {
	for in, want := range map[string]string{
		"{Store} store":                    "Store",
		"{?Store} store":                   "Store",
		"{Store|null} s":                   "Store",
		"{Promise<Store>}":                 "Store",
		"{Array.<Item>} items":             "Item",
		"{Item[]} items":                   "Item",
		"{import('./store').Store=} other": "Store",
		"{string} name":                    "",
		"{Object} opts":                    "",
		"{Store|Other} s":                  "",
		"{function(string): void} cb":      "",
		"store without type":               "",
	} {
		if got, _ := jsdocType(in); got != want {
			t.Errorf("jsdocType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"adds a valid user":       "adds_a_valid_user",
		"GET /users/:id → 404":    "GET_users_id_404",
		"":                        "test",
		"handles `weird` 'input'": "handles_weird_input",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSummary(t *testing.T) {
	c := cacheFor(nil)
	s := &summary{}
	c.scan(s, "src/a.ts", []byte(`import { Impl } from "./impl"
import Def, { other as Other } from "./def"
export { Impl }
export { Local as Public }
export { x, y as z } from "./xy"
export {
  multi,
  type T,
} from "./multi"
export * from "./star"
export const own = 1
export default connect(mapState)(Widget);
`))
	if s.def != "Widget" {
		t.Errorf("default %q", s.def)
	}
	if r := s.imp["Impl"]; r.name != "Impl" || r.key != "src.impl" {
		t.Errorf("import Impl: %+v", r)
	}
	if r := s.imp["Other"]; r.name != "other" || s.imp["Def"].name != "default" {
		t.Errorf("imports: %+v", s.imp)
	}
	if s.local["Public"] != "Local" || !s.own["own"] || !s.own["Impl"] {
		t.Errorf("own %v local %v", s.own, s.local)
	}
	if r := s.re["z"]; r.name != "y" || r.key != "src.xy" {
		t.Errorf("re z: %+v", r)
	}
	if r := s.re["multi"]; r.key != "src.multi" || s.re["T"].key != "src.multi" {
		t.Errorf("multi-line re-export: %+v", s.re)
	}
	if len(s.star) != 1 || s.star[0].key != "src.star" {
		t.Errorf("star %+v", s.star)
	}
	for src, want := range map[string]string{
		"export default class Foo extends Bar {": "Foo",
		"export default class {":                 "a",
		"export default function* gen() {":       "gen",
		"export default async () => {}":          "a",
		"module.exports = Router;":               "Router",
		"module.exports = new Cache();":          "Cache",
		"export = Foo;":                          "Foo",
		"export default withRouter(Page)":        "Page",
		"export default {":                       "",
	} {
		s := &summary{}
		c.scan(s, "src/a.ts", []byte(src+"\n"))
		if s.def != want {
			t.Errorf("%q: default %q, want %q", src, s.def, want)
		}
	}
}

// TestMethodsOnObjects: methods put on a prototype through an alias
// (const proto = Clock.prototype; proto.m = …; Object.assign(proto, {…})),
// on a prototype or a parameter inside a plugin function, and the members
// of a module-level object literal are symbols with a container, and
// calls reach them.
func TestMethodsOnObjects(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/javascript")
	const (
		clock  = "src.time.clock"
		zone   = "src.time.plugin.zone"
		locale = "src.time.locale.de.locale"
	)
	// An alias of a prototype of the file's class: the class's methods.
	for _, m := range []string{"shift", "format", "hours"} {
		if n := b.Node(clock + ".Clock." + m); n.Kind != snapshot.KindMethod || n.Flags&snapshot.FlagExported == 0 {
			t.Errorf("Clock.%s: kind %v flags %v", m, n.Kind, n.Flags)
		}
	}
	if n := b.Node(clock + ".Clock.shift"); n.Doc != "shift returns a clock moved by some minutes." || n.StartLine != 11 {
		t.Errorf("Clock.shift: doc %q line %d", n.Doc, n.StartLine)
	}
	if ids := b.IDs(clock + ".proto"); len(ids) != 0 {
		t.Errorf("the alias proto is a symbol: %v", ids)
	}
	b.Edge(clock+".Clock", clock+".Clock.shift", snapshot.EdgeContains)
	// Object.assign(proto, {…}) puts methods on the prototype too.
	if n := b.Node(clock + ".Clock.minutesOfHour"); n.Kind != snapshot.KindMethod || n.Doc != "minutesOfHour is the minutes past the hour." {
		t.Errorf("Clock.minutesOfHour: kind %v doc %q", n.Kind, n.Doc)
	}
	b.Edge(clock+".Clock.minutesOfHour", clock+".Clock.hours", snapshot.EdgeCalls)
	b.Edge(clock+".Clock.format", clock+".Clock.hours", snapshot.EdgeCalls)

	// In a plugin, on the prototype of a class it receives (qualified by
	// the alias) and on the factory it receives.
	for _, q := range []string{zone + ".proto.tz", zone + ".proto.format", zone + ".proto.zoneName", zone + ".clock.tz"} {
		if n := b.Node(q); n.Kind != snapshot.KindFunction || n.Flags&snapshot.FlagExported == 0 {
			t.Errorf("%s: kind %v flags %v", q, n.Kind, n.Flags)
		}
	}
	if n := b.Node(zone + ".proto.tz"); n.Doc != "tz moves the clock to a time zone." || n.StartLine != 10 || n.EndLine != 12 {
		t.Errorf("proto.tz: doc %q lines %d-%d", n.Doc, n.StartLine, n.EndLine)
	}
	b.Edge(zone+".proto.tz", "src.time.plugin.zone.zoneOffset", snapshot.EdgeCalls)
	b.NoEdge(zone+".zone", "src.time.plugin.zone.zoneOffset", snapshot.EdgeCalls)

	// A locale object's functions and fields, reached through an import of
	// the object.
	if n := b.Node(locale + ".ordinal"); n.Kind != snapshot.KindFunction || n.Flags&snapshot.FlagExported == 0 ||
		n.Doc != "ordinal writes a day of the month as German does: 3." {
		t.Errorf("locale.ordinal: kind %v flags %v doc %q", n.Kind, n.Flags, n.Doc)
	}
	b.Node(locale + ".meridiem")
	for _, f := range []string{"name", "weekdays", "months", "relativeTime"} {
		if n := b.Node(locale + "." + f); n.Kind != snapshot.KindField {
			t.Errorf("locale.%s kind %v", f, n.Kind)
		}
	}
	b.Edge(locale, locale+".ordinal", snapshot.EdgeContains)
	b.Edge(clock+".Clock.format", locale+".ordinal", snapshot.EdgeCalls)
	// A string-keyed table's rows are no fields.
	if ids := b.IDs("src.api.handlers.routes./users"); len(ids) != 0 {
		t.Errorf("a route table's key is a field: %v", ids)
	}
}
