package query

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

func TestTestPenaltyUnlessAboutTests(t *testing.T) {
	e := newShop().engine(t)
	plain := query(t, e, "HandleGet renders the item")
	tests := query(t, e, "add tests for HandleGet")
	if rankOf(plain, "server.TestHandleGet") != 0 {
		t.Errorf("a test returned for a task not about tests: %v", symbols(plain))
	}
	if rankOf(tests, "server.TestHandleGet") == 0 {
		t.Errorf("the test is missing when the task is about tests: %v", symbols(tests))
	}
}

// TestExamplePenaltyUnlessAboutExamples: code in an examples folder is
// scored like a test, below the code it demonstrates and never a seed,
// unless the task asks for an example.
func TestExamplePenaltyUnlessAboutExamples(t *testing.T) {
	sh := newShop()
	fi := int32(len(sh.g.Files))
	sh.g.Files = append(sh.g.Files, snapshot.File{Path: "examples/auth/main.go", Lang: snapshot.LangGo, Flags: snapshot.FlagExample})
	for _, q := range []string{"examples.auth.CheckAPIKeyDemo", "examples.auth.main"} {
		sh.ids[q] = uint32(len(sh.g.Nodes))
		sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: "shop/" + q,
			Kind: snapshot.KindFunction, Lang: snapshot.LangGo, Flags: snapshot.FlagExample, File: fi, StartLine: 1, EndLine: 9,
			Doc: "CheckAPIKeyDemo shows how to check the API key of a request."})
	}
	sh.g.Edges = append(sh.g.Edges,
		snapshot.Edge{From: sh.ids["examples.auth.CheckAPIKeyDemo"], To: sh.ids["server.CheckAPIKey"], Type: snapshot.EdgeCalls, Confidence: 0.9},
		snapshot.Edge{From: sh.ids["examples.auth.main"], To: sh.ids["examples.auth.CheckAPIKeyDemo"], Type: snapshot.EdgeCalls, Confidence: 0.9})
	e := sh.engine(t)

	plain := query(t, e, "check the api key of each request")
	real, demo := rankOf(plain, "server.CheckAPIKey"), rankOf(plain, "examples.auth.CheckAPIKeyDemo")
	if real == 0 || demo != 0 && demo < real {
		t.Errorf("the example ranks at %d, the code it demonstrates at %d: %v", demo, real, symbols(plain))
	}
	for _, it := range plain.Results {
		if strings.HasPrefix(it.Symbol, "shop/examples.") && it.Seed {
			t.Errorf("an example is a seed of a task not about examples: %s", it.Symbol)
		}
	}

	for _, task := range []string{"add an example that checks the api key", "check the api key in the demo app"} {
		r := query(t, e, task)
		if d := rankOf(r, "examples.auth.CheckAPIKeyDemo"); d == 0 || d > 2 {
			t.Errorf("%q: the example ranks at %d: %v", task, d, symbols(r))
		}
	}
	// "for example" is a figure of speech, not a request for examples.
	r := query(t, e, "check the api key, for example of each request")
	if d := rankOf(r, "examples.auth.CheckAPIKeyDemo"); d != 0 && d < rankOf(r, "server.CheckAPIKey") {
		t.Errorf("\"for example\" lifted the example penalty: %v", symbols(r))
	}
}

func TestValuesRankBelowTypesOnEqualEvidence(t *testing.T) {
	sh := newShop()
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	for _, q := range []string{"store.Item", "store.Item.Price"} {
		cd := ws.get(sh.ids[q])
		cd.fused, cd.walkP, cd.seed = 0.03, 0.01, true
	}
	kw := Keywords{}
	out := e.score(ws, &kw)
	if len(out) != 2 || e.s.Name(out[0].id) != "Item" || out[1].score >= out[0].score {
		t.Fatalf("the field did not rank below the type on equal evidence: %v %v", e.s.Name(out[0].id), out[0].score)
	}
}

func TestDetailsRankBelowPeersOnEqualEvidence(t *testing.T) {
	sh := newShop()
	n := uint32(len(sh.g.Nodes))
	add := func(q string, k snapshot.Kind, lang snapshot.Lang) {
		sh.ids[q] = uint32(len(sh.g.Nodes))
		sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: q[strings.LastIndexByte(q, '.')+1:], QName: "shop/" + q,
			Kind: k, Lang: lang, File: 3, StartLine: 1, EndLine: 2})
	}
	add("server.Server.HandleGet.wrap", snapshot.KindFunction, snapshot.LangGo) // a closure
	add("server.Handler", snapshot.KindTypeAlias, snapshot.LangPython)          // an alias, no members
	add("server.Status", snapshot.KindTypeAlias, snapshot.LangGo)               // a Go defined type
	add("server.helper", snapshot.KindFunction, snapshot.LangGo)                // top-level, no edges
	sh.g.Edges = append(sh.g.Edges,
		snapshot.Edge{From: sh.ids["server.Server.HandleGet"], To: n, Type: snapshot.EdgeContains, Confidence: 1},
		snapshot.Edge{From: n, To: sh.ids["server.Server.HandleGet"], Type: snapshot.EdgeMemberOf, Confidence: 1})
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	set := []string{"server.helper", "server.Server.HandleGet.wrap", "server.Handler", "server.Status"}
	for _, q := range set {
		cd := ws.get(sh.ids[q])
		cd.fused, cd.walkP, cd.seed = 0.03, 0.01, true
	}
	score := map[string]float64{}
	for _, cd := range e.score(ws, &Keywords{}) {
		score[strings.TrimPrefix(e.s.QName(cd.id), "shop/")] = cd.score
	}
	if !(score["server.Server.HandleGet.wrap"] < score["server.helper"]) {
		t.Errorf("a nested function scored %v, a top-level one %v", score["server.Server.HandleGet.wrap"], score["server.helper"])
	}
	if !(score["server.Handler"] < score["server.Status"]) {
		t.Errorf("a member-less alias scored %v, a Go defined type %v", score["server.Handler"], score["server.Status"])
	}
}

// TestTypeRisesTowardItsMember: a type whose member matches the task gains
// from it, but never passes that member.
func TestTypeRisesTowardItsMember(t *testing.T) {
	sh := newShop()
	e := sh.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	run := func(memberFused float64) map[string]float64 {
		ws.reset()
		for q, f := range map[string]float64{"server.Server.HandleGet": memberFused, "server.Server": 0.005, "store.Item": 0.005} {
			cd := ws.get(sh.ids[q])
			cd.fused, cd.walkP, cd.seed = f, 0.01, true
		}
		score := map[string]float64{}
		for _, cd := range e.score(ws, &Keywords{}) {
			score[strings.TrimPrefix(e.s.QName(cd.id), "shop/")] = cd.score
		}
		return score
	}
	s := run(0.05)
	if !(s["server.Server"] > s["store.Item"]) {
		t.Errorf("the type of a strongly matched method (%v) did not rise above an equal type (%v)", s["server.Server"], s["store.Item"])
	}
	// A member barely above its type: the type catches up, no further.
	s = run(0.0055)
	if !(s["server.Server"] <= s["server.Server.HandleGet"]) {
		t.Errorf("the type (%v) passed its matched member (%v)", s["server.Server"], s["server.Server.HandleGet"])
	}
}

// An enum scores below a struct with the same evidence: enums are mostly
// vocabularies of values.
func TestEnumPenalty(t *testing.T) {
	// The same evidence but for the kind; ties go to the enum, added first.
	s, add := tinyShop(snapshot.File{Path: "cfg/jobs.rs", Lang: snapshot.LangRust}, snapshot.File{Path: "opt/jobs.rs", Lang: snapshot.LangRust})
	add("cfg.Jobs", snapshot.KindEnum, 0, "Jobs says how many jobs run in parallel.")
	add("opt.Jobs", snapshot.KindStruct, 1, "Jobs says how many jobs run in parallel.")
	e := s.engine(t)
	task := "limit how many jobs run in parallel"
	res := query(t, e, task)
	if en, st := rankOf(res, "cfg.Jobs"), rankOf(res, "opt.Jobs"); st == 0 || en != 0 && en < st {
		t.Errorf("%q: the enum ranks %d, the struct %d; want the struct first", task, en, st)
	}
	flat := DefaultTuning()
	flat.EnumPenalty = 1
	res = query(t, s.engine(t, WithTuning(flat)), task)
	if en, st := rankOf(res, "cfg.Jobs"), rankOf(res, "opt.Jobs"); en == 0 || en > st {
		t.Errorf("%q without the penalty: the enum ranks %d, the struct %d; the test proves nothing unless the enum leads", task, en, st)
	}
}
