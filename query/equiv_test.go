package query

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// bruteConcepts is matchConcepts without the word index: every phrase of
// every concept searched for in the task.
func bruteConcepts(lower string) []conceptMatch {
	var out []conceptMatch
	for i := range concepts {
		c := &concepts[i]
		n, multi := 0, false
		for _, p := range c.phrases {
			if containsWords(lower, p) {
				n++
				if strings.Contains(p, " ") {
					multi = true
				}
			}
		}
		if n > 0 {
			out = append(out, conceptMatch{c: c, strong: n >= 2 || multi, count: n})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].strong != out[b].strong {
			return out[a].strong
		}
		return out[a].count > out[b].count
	})
	return out
}

// TestMatchConceptsIndexed: looking phrases up by their first word finds
// exactly what searching for every phrase finds.
func TestMatchConceptsIndexed(t *testing.T) {
	var words []string
	var tasks []string
	for _, c := range concepts {
		for _, p := range c.phrases {
			tasks = append(tasks, p, p+"s", "use the "+p+" here", "x"+p, p+"x", strings.ToUpper(p[:1])+p[1:])
			words = append(words, strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '-' })...)
		}
	}
	words = append(words, "the", "a", "request", "add", "fix", "(", ")", "_", "-", ",", "s")
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := 1 + r.IntN(12); n > 0; n-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString([]string{" ", " ", "s ", "-", ", ", "_", ""}[r.IntN(7)])
		}
		tasks = append(tasks, b.String())
	}
	for _, task := range tasks {
		lower := strings.ToLower(task)
		if got, want := matchConcepts(lower), bruteConcepts(lower); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: indexed %v, searched %v", lower, got, want)
		}
	}
}

// TestProgrammingConcepts: a task that names a data structure or a
// routine task in words finds the symbols standard libraries give it,
// though no word of the task is in their names or docs.
func TestProgrammingConcepts(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "sched/sched.go", Lang: snapshot.LangGo}, snapshot.File{Path: "fsutil/fs.go", Lang: snapshot.LangGo},
		snapshot.File{Path: "container/heap.go", Lang: snapshot.LangGo})
	add("container.Heap", snapshot.KindStruct, 2, "Heap keeps the smallest element first.")
	add("sched.Runner", snapshot.KindStruct, 0, "Runner runs jobs.")
	add("sched.Job", snapshot.KindStruct, 0, "Job is one unit of work.")
	add("fsutil.WalkDir", snapshot.KindFunction, 1, "WalkDir calls fn for every entry under root.")
	add("fsutil.Stat", snapshot.KindFunction, 1, "Stat describes one entry.")
	e := s.engine(t)
	for _, c := range []struct {
		task, want string
		found      bool
	}{
		{"implement a priority queue of jobs", "container.Heap", true},
		{"implement a stack of jobs", "container.Heap", false},
		{"traverse a directory, skipping hidden ones", "fsutil.WalkDir", true},
		{"traverse a list, skipping hidden ones", "fsutil.WalkDir", false},
	} {
		if got := rankOf(query(t, e, c.task), c.want) > 0; got != c.found {
			t.Errorf("%q: %s found %v, want %v", c.task, c.want, got, c.found)
		}
	}
}

func TestVerbBases(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string
	}{
		{"opened", []string{"open", "opene"}},
		{"parsed", []string{"pars", "parse"}},
		{"stopped", []string{"stopp", "stoppe", "stop"}},
		{"copied", []string{"copy"}},
		{"reading", []string{"read", "reade"}},
		{"running", []string{"runn", "runne", "run"}},
		{"timing", []string{"time"}},
		{"string", []string{"stre"}},
		{"called", []string{"call", "calle"}}, // no "cal": l doubles in base forms
		{"red", nil},
		{"king", nil},
		{"open", nil},
	} {
		if got := verbBases(c.word, nil); !slices.Equal(got, c.want) {
			t.Errorf("verbBases(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

// A task's inflected verb finds the symbol named by its base form, which
// shares no other word with the task.
func TestVerbBaseFindsSymbol(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "db/conn.go", Lang: snapshot.LangGo}, snapshot.File{Path: "db/rows.go", Lang: snapshot.LangGo})
	add("db.Open", snapshot.KindFunction, 0, "Open returns a handle on a data source.")
	add("db.Conn", snapshot.KindStruct, 0, "Conn is one session with the server.")
	add("db.Rows", snapshot.KindStruct, 1, "Rows iterates over a result.")
	add("db.Rows.Next", snapshot.KindMethod, 1, "Next advances to the following row.")
	add("db.Rows.Scan", snapshot.KindMethod, 1, "Scan copies the columns of the current row.")
	e := s.engine(t)
	task := "the pool is opened twice at startup"
	if rankOf(query(t, e, task), "db.Open") == 0 {
		t.Errorf("%q did not find db.Open", task)
	}
	noBase := DefaultTuning()
	noBase.Base = 0
	if rankOf(query(t, s.engine(t, WithTuning(noBase)), task), "db.Open") != 0 {
		t.Errorf("%q found db.Open without base forms: the test proves nothing", task)
	}
}

// JavaScript's concepts hold for TypeScript code, and for no other
// language's.
func TestConceptLanguageFamily(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "web/src/hooks.ts", Lang: snapshot.LangTypeScript},
		snapshot.File{Path: "py/hooks.py", Lang: snapshot.LangPython}, snapshot.File{Path: "web/src/list.ts", Lang: snapshot.LangTypeScript})
	add("web.useEffect", snapshot.KindFunction, 0, "useEffect schedules a callback after rendering.")
	add("py.useEffect", snapshot.KindFunction, 1, "useEffect schedules a callback after rendering.")
	add("web.List", snapshot.KindClass, 2, "List shows rows.")
	add("web.List.size", snapshot.KindMethod, 2, "size counts rows.")
	e := s.engine(t)
	res := query(t, e, "run code once the react component is on screen")
	if rankOf(res, "web.useEffect") == 0 {
		t.Error("the React concept did not reach TypeScript's useEffect")
	}
	if rankOf(res, "py.useEffect") != 0 {
		t.Error("the React concept reached Python code")
	}
}

// A task's words spelled out find code named by their acronym, and only
// acronyms the index has join the keywords.
func TestAcronymFindsSymbol(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "stream/push.go", Lang: snapshot.LangGo}, snapshot.File{Path: "stream/conn.go", Lang: snapshot.LangGo})
	add("stream.Conn", snapshot.KindStruct, 1, "Conn is a client connection that pushes data.")
	add("stream.Conn.Close", snapshot.KindMethod, 1, "Close hangs up.")
	add("stream.Conn.Push", snapshot.KindMethod, 1, "Push sends data to the page.")
	add("stream.SSEWriter", snapshot.KindStruct, 0, "SSEWriter frames each message.")
	add("stream.WriteSSE", snapshot.KindFunction, 0, "WriteSSE flushes one frame.")
	e := s.engine(t)
	res := query(t, e, "push server-sent notifications to the page")
	if slices.Contains(res.Stats.Keywords, "ssn") {
		t.Errorf("keywords %v hold an acronym the index lacks", res.Stats.Keywords)
	}
	res = query(t, e, "push server-sent events to the page")
	if !slices.Contains(res.Stats.Keywords, "sse") {
		t.Errorf("keywords %v lack sse", res.Stats.Keywords)
	}
	if r1, r2, rc := rankOf(res, "stream.SSEWriter"), rankOf(res, "stream.WriteSSE"), rankOf(res, "stream.Conn"); r1 != 1 || r2 == 0 || rc != 0 && r2 > rc {
		t.Errorf("server-sent events did not find the SSE code: %v", symbols(res))
	}
}
