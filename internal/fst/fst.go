// Package fst reads FSTs in vellum's v1 encoding in place, without
// allocating and without trusting the bytes, and builds them (Builder)
// byte for byte as vellum does, without vellum's allocations: the
// snapshot's name indexes and the BM25 term dictionary are both written
// and read through it. snapshot/FORMAT.md ("FST encoding") specifies the
// bytes.
//
// It has no error sentinel of its own: every error about the bytes wraps
// the one its caller passes to New (snapshot.ErrCorrupt,
// bm25.ErrCorrupt), so that damage in an FST is the caller's corruption.
//
// It owns the FST encoding, its builder and its reader, and must not
// import any other package of this module; vellum itself appears only in
// its tests, which compare the bytes.
package fst

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// vellum defines the encoding, but at read time its iterator allocates on
// every Reset and its decoder indexes the bytes without bounds checks;
// this reader does neither.
// Every state is decoded through View.state, which checks each index it
// computes, and every transition is required to point strictly below the
// state it leaves (as the encoder always writes them), so no walk can
// cycle.

const (
	fstHeaderSize = 16 // version u64, type u64
	fstFooterSize = 16 // key count u64, root address u64
	fstEmptyAddr  = 0  // the final state with no transitions and no output

	fstOneTrans   = 0x80 // top byte: a state with exactly one transition
	fstNextFlag   = 0x40 // single: the target is the state just below
	fstFinalFlag  = 0x40 // multi: the state is final
	fstLow6       = 0x3f // single: common-byte code; multi: transition count
	fstMaxPackLen = 8
)

// View is a read-only view of one vellum v1 FST. The zero View is empty.
type View struct {
	data     []byte
	end      int // states lie in [fstHeaderSize, end)
	root     int
	count    uint64
	corrupt  error // the caller's sentinel, wrapped by every error
	errState error
}

// New checks the FST header and footer, O(1). Every error it and the
// View's methods return wraps corrupt, the caller's sentinel error.
func New(data []byte, corrupt error) (View, error) {
	if len(data) < fstHeaderSize+fstFooterSize {
		return View{}, fmt.Errorf("%w: FST of %d bytes is shorter than its header and footer", corrupt, len(data))
	}
	if v := binary.LittleEndian.Uint64(data); v != 1 {
		return View{}, fmt.Errorf("%w: FST encoding version %d (want 1)", corrupt, v)
	}
	end := len(data) - fstFooterSize
	count := binary.LittleEndian.Uint64(data[end:])
	root := binary.LittleEndian.Uint64(data[end+8:])
	if root != fstEmptyAddr && (root < fstHeaderSize || root >= uint64(end)) {
		return View{}, fmt.Errorf("%w: FST root %d outside [%d,%d)", corrupt, root, fstHeaderSize, end)
	}
	return View{data: data, end: end, root: int(root), count: count,
		corrupt: corrupt, errState: fmt.Errorf("%w: bad FST state", corrupt)}, nil
}

// Count is the number of keys the FST's footer records.
func (f *View) Count() uint64 { return f.count }

// Bytes is the FST's encoding, as given to New.
func (f *View) Bytes() []byte { return f.data }

// fstState is one decoded state. For a multi-transition state, transition i
// (in ascending byte order) is at position n-1-i of the keys, dests and outs
// arrays, which the encoder writes in reverse.
type fstState struct {
	final    bool
	single   bool
	n        int
	finalOut uint64

	// single transition
	sByte byte
	sDest int
	sOut  uint64

	// multiple transitions
	keys, dests, outs int // start of each array in data
	ts, os            int // packed sizes of a dest and of an output
	bottom            int // lowest byte of the state: dests are relative to it
}

// packSizes reads the byte below b that holds a state's transition and
// output pack sizes, and returns them with that byte's position; ok is
// false when the byte is outside the data or a size is out of range.
func (f *View) packSizes(b int) (ts, os, at int, ok bool) {
	b--
	if b < fstHeaderSize {
		return 0, 0, b, false
	}
	ts, os = int(f.data[b]>>4), int(f.data[b]&0x0f)
	return ts, os, b, ts <= fstMaxPackLen && os <= fstMaxPackLen
}

// state decodes the state at addr.
func (f *View) state(addr int, st *fstState) error {
	*st = fstState{}
	if addr == fstEmptyAddr {
		st.final = true
		return nil
	}
	if addr < fstHeaderSize || addr >= f.end {
		return f.errState
	}
	d := f.data
	top := d[addr]
	b := addr
	if top&fstOneTrans != 0 {
		st.single, st.n = true, 1
		code := top & fstLow6
		if code == 0 {
			b--
			if b < fstHeaderSize {
				return f.errState
			}
			st.sByte = d[b]
		} else {
			c, ok := decodeCommonByte(code)
			if !ok {
				return f.errState
			}
			st.sByte = c
		}
		if top&fstNextFlag != 0 {
			st.sDest = b - 1
			return nil
		}
		ts, os, b, ok := f.packSizes(b)
		if !ok {
			return f.errState
		}
		b -= ts
		if b < fstHeaderSize {
			return f.errState
		}
		delta := readPacked(d[b : b+ts])
		if os > 0 {
			b -= os
			if b < fstHeaderSize {
				return f.errState
			}
			st.sOut = readPacked(d[b : b+os])
		}
		if delta != 0 {
			if delta > uint64(b) {
				return f.errState
			}
			st.sDest = b - int(delta)
		}
		return nil
	}
	st.final = top&fstFinalFlag != 0
	n := int(top & fstLow6)
	if n == 0 {
		b--
		if b < fstHeaderSize {
			return f.errState
		}
		n = int(d[b])
		if n == 1 {
			n = 256
		}
	}
	ts, os, b, ok := f.packSizes(b)
	if !ok {
		return f.errState
	}
	b -= n
	st.keys = b
	b -= n * ts
	st.dests = b
	if os > 0 {
		b -= n * os
		st.outs = b
		if st.final {
			b -= os
		}
	}
	if b < fstHeaderSize {
		return f.errState
	}
	if st.final && os > 0 {
		st.finalOut = readPacked(d[b : b+os])
	}
	st.n, st.ts, st.os, st.bottom = n, ts, os, b
	return nil
}

// trans returns transition i of st, in ascending byte order; i < st.n.
func (f *View) trans(st *fstState, i int) (c byte, dest int, out uint64, err error) {
	if st.single {
		return st.sByte, st.sDest, st.sOut, nil
	}
	return f.transAt(st, st.n-1-i)
}

// transAt returns the transition stored at position pos of st's arrays.
func (f *View) transAt(st *fstState, pos int) (c byte, dest int, out uint64, err error) {
	d := f.data
	c = d[st.keys+pos]
	at := st.dests + pos*st.ts
	delta := readPacked(d[at : at+st.ts])
	if delta != 0 {
		if delta > uint64(st.bottom) {
			return 0, 0, 0, f.errState
		}
		dest = st.bottom - int(delta)
	}
	if st.os > 0 {
		at = st.outs + pos*st.os
		out = readPacked(d[at : at+st.os])
	}
	return c, dest, out, nil
}

// find follows the transition on byte c; ok is false when there is none.
func (f *View) find(st *fstState, c byte) (dest int, out uint64, ok bool, err error) {
	if st.single {
		if st.sByte != c {
			return 0, 0, false, nil
		}
		return st.sDest, st.sOut, true, nil
	}
	if st.n == 0 {
		return 0, 0, false, nil
	}
	pos := bytes.IndexByte(f.data[st.keys:st.keys+st.n], c)
	if pos < 0 {
		return 0, 0, false, nil
	}
	_, dest, out, err = f.transAt(st, pos)
	return dest, out, err == nil, err
}

// Get looks a key up; it does not allocate.
func (f *View) Get(key string) (uint64, bool, error) { return get(f, key) }

// GetBytes is Get for a key held in bytes.
func (f *View) GetBytes(key []byte) (uint64, bool, error) { return get(f, key) }

func get[K string | []byte](f *View, key K) (uint64, bool, error) {
	if f.data == nil {
		return 0, false, nil
	}
	var st fstState
	if err := f.state(f.root, &st); err != nil {
		return 0, false, err
	}
	var total uint64
	for i := 0; i < len(key); i++ {
		dest, out, ok, err := f.find(&st, key[i])
		if err != nil || !ok {
			return 0, false, err
		}
		total += out
		if err := f.state(dest, &st); err != nil {
			return 0, false, err
		}
	}
	if !st.final {
		return 0, false, nil
	}
	return total + st.finalOut, true, nil
}

func readPacked(b []byte) uint64 {
	var v uint64
	for i, c := range b {
		v |= uint64(c) << (8 * uint(i))
	}
	return v
}

// fstFrame is one level of a prefix walk: a state, the next transition to
// try, and the output accumulated on the way in.
type fstFrame struct {
	st      fstState
	next    int
	out     uint64
	visited bool // the state's own final value was considered
}

// Walk enumerates the keys under a prefix in ascending order. It reuses
// its stack and key buffer, so a walk allocates only while they grow. It
// belongs to one goroutine.
type Walk struct {
	f      *View
	stack  []fstFrame
	key    []byte
	val    uint64
	prefix int
	err    error
}

// Reset positions the walk before the first key starting with prefix.
func (w *Walk) Reset(f *View, prefix string) {
	w.f, w.err, w.val = f, nil, 0
	w.stack = w.stack[:0]
	w.key = append(w.key[:0], prefix...)
	w.prefix = len(prefix)
	if f.data == nil {
		return
	}
	var st fstState
	if err := f.state(f.root, &st); err != nil {
		w.err = err
		return
	}
	var total uint64
	for i := 0; i < len(prefix); i++ {
		dest, out, ok, err := f.find(&st, prefix[i])
		if err != nil {
			w.err = err
			return
		}
		if !ok {
			return
		}
		total += out
		if err := f.state(dest, &st); err != nil {
			w.err = err
			return
		}
	}
	w.stack = append(w.stack, fstFrame{st: st, out: total})
}

// Next advances to the next key; false at the end or on corrupt bytes
// (then Err says so).
func (w *Walk) Next() bool {
	if w.f == nil || len(w.f.data) == 0 {
		return false
	}
	// A valid FST has no dead states, so one step needs at most two passes
	// over the depth of the key, itself below the size of the FST. The
	// budget stops walks through corrupt bytes that would wander for long.
	budget := 2*len(w.f.data) + 16
	for len(w.stack) > 0 {
		if budget--; budget < 0 {
			w.err = fmt.Errorf("%w: FST walk does not end", w.f.corrupt)
			w.stack = w.stack[:0]
			return false
		}
		top := &w.stack[len(w.stack)-1]
		if !top.visited {
			top.visited = true
			if top.st.final {
				w.val = top.out + top.st.finalOut
				return true
			}
		}
		if top.next < top.st.n {
			c, dest, out, err := w.f.trans(&top.st, top.next)
			top.next++
			if err == nil {
				w.stack = append(w.stack, fstFrame{out: top.out + out})
				child := &w.stack[len(w.stack)-1]
				err = w.f.state(dest, &child.st)
			}
			if err != nil {
				w.err = err
				w.stack = w.stack[:0]
				return false
			}
			w.key = append(w.key, c)
			continue
		}
		w.stack = w.stack[:len(w.stack)-1]
		if len(w.key) > w.prefix {
			w.key = w.key[:len(w.key)-1]
		}
	}
	return false
}

// Key is the current key, valid until the next Next or Reset.
func (w *Walk) Key() []byte { return w.key }

// Value is the current key's output.
func (w *Walk) Value() uint64 { return w.val }

// Err reports corruption met by the last Reset or Next.
func (w *Walk) Err() error { return w.err }

// The single-transition encoding stores the 63 most common key bytes in
// six bits: code c (1 … 63) stands for commonBytes[c-1]. The order is
// vellum's (its commonInputs table); TestCommonBytesAreVellums reads it
// back from vellum's own encoder. It is a constant rather than learned at
// run time: learning it built a vellum FST, whose registry cost every
// process 2–4 ms of page faults.
const commonBytes = "te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHG"

// commonCode maps a byte to its code, 0 for the bytes without one.
var commonCode = func() (enc [256]byte) {
	for i := 0; i < len(commonBytes); i++ {
		enc[commonBytes[i]] = byte(i + 1)
	}
	return enc
}()

// decodeCommonByte is the byte of a non-zero six-bit code.
func decodeCommonByte(code byte) (byte, bool) {
	if code == 0 || int(code) > len(commonBytes) {
		return 0, false
	}
	return commonBytes[code-1], true
}
