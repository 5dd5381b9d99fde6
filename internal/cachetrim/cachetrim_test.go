package cachetrim

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// put writes name in dir with size bytes, last modified age before t0.
func put(t *testing.T, dir, name string, size int, age time.Duration) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, t0.Add(-age), t0.Add(-age)); err != nil {
		t.Fatal(err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// A prior cache: entries a (newest) to d (oldest), each a .prior and a
// .memo, the .memo written last.
func priors(t *testing.T) string {
	dir := t.TempDir()
	for i, id := range []string{"a", "b", "c", "d"} {
		age := time.Duration(i) * 24 * time.Hour
		put(t, dir, id+".prior", 100, age+time.Minute)
		put(t, dir, id+".memo", 10, age)
	}
	return dir
}

func TestTrimBytesLeastRecentlyUsedFirst(t *testing.T) {
	dir := priors(t)
	res, err := Trim(dir, Policy{MaxBytes: 250, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.memo", "a.prior", "b.memo", "b.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
	if res.Entries != 2 || res.Files != 4 || res.Bytes != 220 || res.Kept != 2 || res.KeptBytes != 220 {
		t.Fatalf("result %+v", res)
	}
}

func TestTrimStopsAtTheFirstEntryOverTheBound(t *testing.T) {
	dir := priors(t)
	put(t, dir, "b.prior", 1000, 24*time.Hour) // b is now too big to keep
	if _, err := Trim(dir, Policy{MaxBytes: 500, Now: t0}); err != nil {
		t.Fatal(err)
	}
	// c and d would fit beside a, but were used before b: they go too.
	want := []string{"a.memo", "a.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
}

func TestTrimKeepsTheEntryJustWritten(t *testing.T) {
	dir := priors(t)
	// d is the oldest and alone over the bound, but it was just written.
	if _, err := Trim(dir, Policy{MaxBytes: 50, Keep: "d", Now: t0}); err != nil {
		t.Fatal(err)
	}
	want := []string{"d.memo", "d.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
}

func TestTrimAgeAndCount(t *testing.T) {
	dir := priors(t)
	if _, err := Trim(dir, Policy{MaxAge: 36 * time.Hour, Now: t0}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a.memo", "a.prior", "b.memo", "b.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("by age: left %v, want %v", got, want)
	}
	if _, err := Trim(dir, Policy{MaxEntries: 1, Now: t0}); err != nil {
		t.Fatal(err)
	}
	want = []string{"a.memo", "a.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("by count: left %v, want %v", got, want)
	}
}

func TestTrimEmpty(t *testing.T) {
	dir := priors(t)
	put(t, dir, ".e.prior.tmp-1", 100, time.Minute) // being written
	if _, err := Trim(dir, Policy{Empty: true, Keep: "c", Now: t0}); err != nil {
		t.Fatal(err)
	}
	want := []string{".e.prior.tmp-1", "c.memo", "c.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
	if _, err := Trim(dir, Policy{Empty: true, Now: t0}); err != nil {
		t.Fatal(err)
	}
	want = []string{".e.prior.tmp-1"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
}

// TestTrimSparesAnEntryWrittenMeanwhile: an entry another process
// writes (or uses) after the listing, which found it the least recently
// used, stays whole.
func TestTrimSparesAnEntryWrittenMeanwhile(t *testing.T) {
	dir := priors(t)
	defer func() { listed = func() {} }()
	listed = func() { put(t, dir, "d.prior", 100, 0) } // d saved again, now
	if _, err := Trim(dir, Policy{MaxEntries: 1, Now: t0}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a.memo", "a.prior", "d.memo", "d.prior"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left %v, want %v", got, want)
	}
}

func TestTrimNoBoundRemovesNothing(t *testing.T) {
	dir := priors(t)
	res, err := Trim(dir, Policy{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if len(names(t, dir)) != 8 || res.Kept != 4 || res.Entries != 0 {
		t.Fatalf("left %v, result %+v", names(t, dir), res)
	}
}

func TestTrimRemovesDeadTemporaryFilesOnly(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, ".a.prior.tmp-123", 100, 2*time.Hour) // dead writer
	put(t, dir, ".b.prior.tmp-456", 100, time.Minute) // being written
	put(t, dir, ".hidden", 100, 48*time.Hour)         // not a temporary file
	put(t, dir, "a.prior", 10, 0)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := Trim(dir, Policy{MaxAge: time.Hour, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".b.prior.tmp-456", ".hidden", "a.prior", "sub"}
	if got := names(t, dir); !slices.Equal(got, want) || res.Temps != 1 {
		t.Fatalf("left %v (temps removed %d), want %v", got, res.Temps, want)
	}
}

func TestTouchMarksUseAtMostHourly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.prior")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	Touch(p)
	st, _ := os.Stat(p)
	if time.Since(st.ModTime()) > time.Minute {
		t.Fatalf("Touch left the mark at %v", st.ModTime())
	}
	recent := time.Now().Add(-10 * time.Minute)
	if err := os.Chtimes(p, recent, recent); err != nil {
		t.Fatal(err)
	}
	Touch(p)
	st, _ = os.Stat(p)
	if !st.ModTime().Equal(recent) {
		t.Fatalf("Touch wrote a mark less than an hour old: %v, was %v", st.ModTime(), recent)
	}
	Touch(filepath.Join(dir, "missing")) // no panic, nothing made
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("Touch made a file")
	}
}

func TestDueOncePerPeriod(t *testing.T) {
	dir := t.TempDir()
	if !Due(dir, time.Hour) {
		t.Fatal("a folder never trimmed is not due")
	}
	if Due(dir, time.Hour) {
		t.Fatal("due again at once")
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".trimmed"), old, old); err != nil {
		t.Fatal(err)
	}
	if !Due(dir, time.Hour) || Due(dir, time.Hour) {
		t.Fatal("not due once after the period")
	}
	// A mark from the future (a clock set wrong once) would hold trims
	// off until that date: it counts as due.
	future := time.Now().Add(365 * 24 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".trimmed"), future, future); err != nil {
		t.Fatal(err)
	}
	if !Due(dir, time.Hour) || Due(dir, time.Hour) {
		t.Fatal("a mark from the future: not due once")
	}
	// The mark is not an entry: a trim leaves it.
	if _, err := Trim(dir, Policy{MaxEntries: 1, MaxAge: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".trimmed")); err != nil {
		t.Fatal("Trim removed the mark")
	}
	if Due(filepath.Join(dir, "missing"), time.Hour) {
		t.Fatal("due where no mark can be kept")
	}
}
