package snapshot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenChecked: a damaged byte anywhere is refused, an intact file is
// stamped once and then opened without the pass, and any write to the
// file brings the pass back.
func TestOpenChecked(t *testing.T) {
	stamps := t.TempDir()
	defer func(f func() string) { stampDir = f }(stampDir)
	stampDir = func() string { return stamps }

	img := smallImage(t)
	path := filepath.Join(t.TempDir(), "x.snap")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenChecked(path)
	if err != nil {
		t.Fatalf("intact file refused: %v", err)
	}
	s.Close()
	if n := countStamps(t, stamps); n != 1 {
		t.Fatalf("want one stamp, have %d", n)
	}

	// A change anywhere is refused by Open or by the checksum pass, never
	// answered from: every byte of the header and section table, and a
	// spread of bytes over the rest, each through a file; then every byte
	// in memory.
	for off := 0; off < len(img); off += 1 + 60*min(off/512, 1) {
		bad := append([]byte{}, img...)
		bad[off] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenChecked(path)
		if err == nil {
			s.Close()
			t.Fatalf("byte %d flipped: opened", off)
		}
	}
	bad := append([]byte{}, img...)
	for off := range bad {
		bad[off] ^= 0x10
		if s, err := openBytes(bad); err == nil && s.VerifyChecksums() == nil {
			t.Fatalf("byte %d flipped: passes", off)
		}
		bad[off] ^= 0x10
	}

	// The stamp is what skips the pass: damage that keeps the file's
	// identity (same inode, size and time) is not seen...
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := OpenChecked(path); err != nil {
		t.Fatal(err)
	} else {
		s.Close()
	}
	st, _ := os.Stat(path)
	bad = append([]byte{}, img...)
	bad[len(bad)/2] ^= 0x10
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	f.WriteAt(bad[len(bad)/2:len(bad)/2+1], int64(len(bad)/2))
	f.Close()
	os.Chtimes(path, st.ModTime(), st.ModTime())
	if s, err := OpenChecked(path); err != nil {
		t.Errorf("a stamped file is checked again: %v", err)
	} else {
		s.Close()
	}
	// ...while a write that moves the time brings the pass back.
	later := st.ModTime().Add(time.Second)
	os.Chtimes(path, later, later)
	if _, err := OpenChecked(path); err == nil || !errors.As(err, new(*ChecksumError)) {
		t.Errorf("damaged file after a write: %v, want a checksum error", err)
	}
}

// TestMarkChecked: a file the writer just wrote is stamped, so the first
// query after a build makes no pass.
func TestMarkChecked(t *testing.T) {
	stamps := t.TempDir()
	defer func(f func() string) { stampDir = f }(stampDir)
	stampDir = func() string { return stamps }
	path := filepath.Join(t.TempDir(), "x.snap")
	if err := os.WriteFile(path, smallImage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	MarkChecked(path)
	if err := hasStamp(path); err != nil {
		t.Error(err)
	}
}

// hasStamp reports why the snapshot at path has no stamp matching it, or
// nil when it has one.
func hasStamp(path string) error {
	s, err := Open(path)
	if err != nil {
		return err
	}
	defer s.Close()
	key, ident := stampOf(path, s)
	if b, err := os.ReadFile(key); err != nil || string(b) != ident {
		return fmt.Errorf("stamp %q, %v; want %q", b, err, ident)
	}
	return nil
}

// TestStampsBounded: the stamp folder keeps the most recently used
// maxStamps stamps; the one just written always stays.
func TestStampsBounded(t *testing.T) {
	stamps := t.TempDir()
	defer func(f func() string) { stampDir = f }(stampDir)
	stampDir = func() string { return stamps }
	old := time.Now().Add(-48 * time.Hour)
	for i := range maxStamps + 20 {
		p := filepath.Join(stamps, fmt.Sprintf("%024x", i))
		if err := os.WriteFile(p, []byte("stale\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// Stamp i was last used i minutes after old: 0 is the oldest.
		when := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "x.snap")
	if err := os.WriteFile(path, smallImage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	MarkChecked(path)
	if n := countStamps(t, stamps); n != maxStamps {
		t.Fatalf("%d stamps left, want %d", n, maxStamps)
	}
	for i := range 21 { // the 21 oldest made room for the new one
		if _, err := os.Stat(filepath.Join(stamps, fmt.Sprintf("%024x", i))); err == nil {
			t.Fatalf("stamp %d, among the oldest, is still there", i)
		}
	}
	if err := hasStamp(path); err != nil {
		t.Fatalf("the new stamp: %v", err)
	}
}

// countStamps counts the stamps in dir (the trim's mark is not one).
func countStamps(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}
