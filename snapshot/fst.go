package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/blevesearch/vellum"
)

// This file reads the vellum v1 FST encoding (vellum's docs/format.md) in
// place, without vellum's decoder. vellum builds the FSTs at write time, but
// at read time its iterator allocates on every Reset and its decoder indexes
// the bytes without bounds checks; this walker does neither. Every state is
// decoded through fstView.state, which checks each index it computes, and
// every transition is required to point strictly below the state it leaves
// (as the encoder always writes them), so no walk can cycle.

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

// fstView is a read-only view of one vellum v1 FST.
type fstView struct {
	data  []byte
	end   int // states lie in [fstHeaderSize, end)
	root  int
	count uint64
}

// newFSTView checks the FST header and footer: O(1).
func newFSTView(data []byte) (fstView, error) {
	if len(data) < fstHeaderSize+fstFooterSize {
		return fstView{}, fmt.Errorf("%w: FST of %d bytes is shorter than its header and footer", ErrCorrupt, len(data))
	}
	if v := binary.LittleEndian.Uint64(data); v != 1 {
		return fstView{}, fmt.Errorf("%w: FST encoding version %d (want 1)", ErrCorrupt, v)
	}
	end := len(data) - fstFooterSize
	count := binary.LittleEndian.Uint64(data[end:])
	root := binary.LittleEndian.Uint64(data[end+8:])
	if root != fstEmptyAddr && (root < fstHeaderSize || root >= uint64(end)) {
		return fstView{}, fmt.Errorf("%w: FST root %d outside [%d,%d)", ErrCorrupt, root, fstHeaderSize, end)
	}
	return fstView{data: data, end: end, root: int(root), count: count}, nil
}

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

var errFSTState = fmt.Errorf("%w: bad FST state", ErrCorrupt)

// state decodes the state at addr.
func (f *fstView) state(addr int, st *fstState) error {
	*st = fstState{}
	if addr == fstEmptyAddr {
		st.final = true
		return nil
	}
	if addr < fstHeaderSize || addr >= f.end {
		return errFSTState
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
				return errFSTState
			}
			st.sByte = d[b]
		} else {
			c, ok := decodeCommonByte(code)
			if !ok {
				return errFSTState
			}
			st.sByte = c
		}
		if top&fstNextFlag != 0 {
			st.sDest = b - 1
			return nil
		}
		b--
		if b < fstHeaderSize {
			return errFSTState
		}
		ts, os := int(d[b]>>4), int(d[b]&0x0f)
		if ts > fstMaxPackLen || os > fstMaxPackLen {
			return errFSTState
		}
		b -= ts
		if b < fstHeaderSize {
			return errFSTState
		}
		delta := readPacked(d[b : b+ts])
		if os > 0 {
			b -= os
			if b < fstHeaderSize {
				return errFSTState
			}
			st.sOut = readPacked(d[b : b+os])
		}
		if delta != 0 {
			if delta > uint64(b) {
				return errFSTState
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
			return errFSTState
		}
		n = int(d[b])
		if n == 1 {
			n = 256
		}
	}
	b--
	if b < fstHeaderSize {
		return errFSTState
	}
	ts, os := int(d[b]>>4), int(d[b]&0x0f)
	if ts > fstMaxPackLen || os > fstMaxPackLen {
		return errFSTState
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
		return errFSTState
	}
	if st.final && os > 0 {
		st.finalOut = readPacked(d[b : b+os])
	}
	st.n, st.ts, st.os, st.bottom = n, ts, os, b
	return nil
}

// trans returns transition i of st, in ascending byte order; i < st.n.
func (f *fstView) trans(st *fstState, i int) (c byte, dest int, out uint64, err error) {
	if st.single {
		return st.sByte, st.sDest, st.sOut, nil
	}
	return f.transAt(st, st.n-1-i)
}

// transAt returns the transition stored at position pos of st's arrays.
func (f *fstView) transAt(st *fstState, pos int) (c byte, dest int, out uint64, err error) {
	d := f.data
	c = d[st.keys+pos]
	at := st.dests + pos*st.ts
	delta := readPacked(d[at : at+st.ts])
	if delta != 0 {
		if delta > uint64(st.bottom) {
			return 0, 0, 0, errFSTState
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
func (f *fstView) find(st *fstState, c byte) (dest int, out uint64, ok bool, err error) {
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

// get looks a key up; it does not allocate.
func (f *fstView) get(key string) (uint64, bool, error) {
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

// fstWalk enumerates the keys under a prefix in ascending order. It reuses
// its stack and key buffer, so a walk allocates only while they grow.
type fstWalk struct {
	f      *fstView
	stack  []fstFrame
	key    []byte
	val    uint64
	prefix int
	err    error
}

// reset positions the walk before the first key starting with prefix.
func (w *fstWalk) reset(f *fstView, prefix string) {
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

// next advances to the next key; false at the end or on corrupt bytes.
func (w *fstWalk) next() bool {
	if w.f == nil || len(w.f.data) == 0 {
		return false
	}
	// A valid FST has no dead states, so one step needs at most two passes
	// over the depth of the key, itself below the size of the FST. The
	// budget stops walks through corrupt bytes that would wander for long.
	budget := 2*len(w.f.data) + 16
	for len(w.stack) > 0 {
		if budget--; budget < 0 {
			w.err = fmt.Errorf("%w: FST walk does not end", ErrCorrupt)
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

// The single-transition encoding stores the 63 most common key bytes in
// six bits. The mapping is vellum's; rather than restate it, it is read
// back from vellum's own encoder once: an FST of the keys {b, b} has a
// root with 256 transitions, and the child under b is a single-transition
// state whose top byte carries b's code.
var common struct {
	once sync.Once
	dec  [fstLow6 + 1]byte
	err  error
}

func decodeCommonByte(code byte) (byte, bool) {
	common.once.Do(learnCommonBytes)
	if common.err != nil {
		return 0, false
	}
	return common.dec[code], true
}

func learnCommonBytes() {
	common.err = func() error {
		var buf bytes.Buffer
		b, err := vellum.New(&buf, nil)
		if err != nil {
			return err
		}
		for i := 0; i < 256; i++ {
			if err := b.Insert([]byte{byte(i), byte(i)}, 0); err != nil {
				return err
			}
		}
		if err := b.Close(); err != nil {
			return err
		}
		f, err := newFSTView(buf.Bytes())
		if err != nil {
			return err
		}
		var root fstState
		if err := f.state(f.root, &root); err != nil || root.single || root.n != 256 {
			return errors.New("unexpected root")
		}
		var used [fstLow6 + 1]bool
		seen := 0
		for i := 0; i < 256; i++ {
			c, dest, _, err := f.trans(&root, i)
			if err != nil || int(c) != i || dest < fstHeaderSize || dest >= f.end {
				return errors.New("unexpected transition")
			}
			top := f.data[dest]
			if top&fstOneTrans == 0 {
				return errors.New("unexpected child")
			}
			if code := top & fstLow6; code != 0 {
				if used[code] {
					return errors.New("code used twice")
				}
				used[code] = true
				common.dec[code] = byte(i)
				seen++
			}
		}
		if seen != fstLow6 {
			return fmt.Errorf("%d common bytes, want %d", seen, fstLow6)
		}
		return nil
	}()
	if common.err != nil {
		common.err = fmt.Errorf("snapshot: cannot learn vellum's byte codes: %v", common.err)
	}
}
