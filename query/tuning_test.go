package query

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

func TestTuningStringRoundTrips(t *testing.T) {
	def := DefaultTuning()
	if n := len(def.fields()); n != reflect.TypeOf(def).NumField() {
		t.Fatalf("fields names %d weights, Tuning has %d", n, reflect.TypeOf(def).NumField())
	}
	got, err := ParseTuning(def.String(), Tuning{})
	if err != nil || got != def {
		t.Errorf("ParseTuning(%q) = %+v, %v; want the defaults", def.String(), got, err)
	}
	// The names are the JSON names.
	typ := reflect.TypeOf(def)
	for i, f := range def.fields() {
		if tag := typ.Field(i).Tag.Get("json"); tag != f.name {
			t.Errorf("field %s: name %q, JSON name %q", typ.Field(i).Name, f.name, tag)
		}
	}
}

func TestParseTuning(t *testing.T) {
	def := DefaultTuning()
	got, err := ParseTuning(" match=0.5, HITSSEED = 0.25 ,,", def)
	if err != nil {
		t.Fatal(err)
	}
	want := def
	want.Match, want.HitsSeed = 0.5, 0.25
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got, err := ParseTuning("", def); err != nil || got != def {
		t.Errorf("an empty spec: %+v, %v", got, err)
	}
	for _, bad := range []string{"mach=0.3", "match", "match=high", "match=0.3,blast"} {
		got, err := ParseTuning(bad, def)
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
		if got != def {
			t.Errorf("%q: the error came with changed weights %+v", bad, got)
		}
	}
	if _, err := ParseTuning("mach=0.3", def); err == nil || !strings.Contains(err.Error(), "mach") {
		t.Errorf("the error does not name the unknown weight: %v", err)
	}
}

// TestTuningIsPerEngine checks that engines over one snapshot rank with
// their own weights, side by side, and explain with them.
func TestTuningIsPerEngine(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "cfg/jobs.rs", Lang: snapshot.LangRust}, snapshot.File{Path: "opt/jobs.rs", Lang: snapshot.LangRust})
	add("cfg.Jobs", snapshot.KindEnum, 0, "Jobs says how many jobs run in parallel.")
	add("opt.Jobs", snapshot.KindStruct, 1, "Jobs says how many jobs run in parallel.")
	flat := DefaultTuning()
	flat.EnumPenalty, flat.Match = 1, 0.5
	def, tuned := s.engine(t), s.engine(t, WithTuning(flat))
	if def.Tuning() != DefaultTuning() || tuned.Tuning() != flat {
		t.Fatalf("Tuning() = %+v and %+v", def.Tuning(), tuned.Tuning())
	}
	task := "limit how many jobs run in parallel"
	for i := 0; i < 2; i++ {
		if r := query(t, def, task); rankOf(r, "opt.Jobs") != 1 {
			t.Errorf("default weights: %v, want the struct first", symbols(r))
		}
		if r := query(t, tuned, task); rankOf(r, "cfg.Jobs") != 1 {
			t.Errorf("no enum penalty: %v, want the enum first", symbols(r))
		}
	}
	ex, err := tuned.Why(context.Background(), task, "opt.Jobs", Options{})
	if err != nil || len(ex) != 1 {
		t.Fatalf("why: %v %v", ex, err)
	}
	if ex[0].Weights.Match != 0.5 {
		t.Errorf("why explains with match weight %v, the engine's is 0.5", ex[0].Weights.Match)
	}
}
