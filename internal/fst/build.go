package fst

import (
	"encoding/binary"
	"errors"
)

// Builder compiles keys, added in increasing byte order, with uint64
// values into an FST in vellum's v1 encoding. The bytes are exactly those
// vellum's Builder writes with its default options (the tests compare
// them), so vellum and View read them alike; what differs is the cost.
// vellum allocates a node for every state it compiles and a node pool
// that grows with the key count (8 MB of the 29 MB that writing caddy's
// snapshot allocated went to its three FSTs). This builder keeps the
// states under construction in a stack whose memory is reused from key to
// key, and its registry of compiled states holds addresses only: a
// candidate is compared with a registered state by decoding that state
// from the output.
//
// A Builder is reusable: Reset starts a new FST in the same memory. It is
// not safe for concurrent use.
type Builder struct {
	out      []byte
	stack    []pending // stack[:depth] are the states of the last key's path
	depth    int
	reg      []regCell // regTable buckets of regMRU cells, most recent first
	last     []byte
	count    uint64
	started  bool // a key was inserted
	lastAddr int  // the state written last, for the "next" encoding
	view     View // over out, to decode registered states
	err      error
}

// Vellum's default registry: 10000 buckets of two cells. Keeping its
// shape keeps its (lossy) choice of which equal states get merged, and so
// its bytes.
const (
	regTable = 10000
	regMRU   = 2
)

// noneAddr is vellum's "no state compiled yet" address; emptyAddr (0) is
// the final state without transitions or output, never written.
const noneAddr = 1

type transition struct {
	out  uint64
	addr int
	in   byte
}

// pending is a state whose transitions are still being added: the ones
// already frozen, and the last one, whose target is not compiled yet.
type pending struct {
	trans    []transition
	finalOut uint64
	final    bool
	hasLast  bool
	lastIn   byte
	lastOut  uint64
}

// regCell is a registered state: its address (0: empty cell).
type regCell struct{ addr int }

// ErrOutOfOrder is returned by Insert for a key not greater than the one
// before.
var ErrOutOfOrder = errors.New("fst: keys must be inserted in increasing order")

// NewBuilder returns an empty builder; sizeHint is the expected size of
// the FST in bytes (0 if unknown), reserved at once.
func NewBuilder(sizeHint int) *Builder {
	b := &Builder{reg: make([]regCell, regTable*regMRU)}
	b.view.errState = errors.New("fst: unreadable state")
	b.out = make([]byte, 0, max(sizeHint, 64))
	b.Reset(sizeHint)
	return b
}

// Reset discards the FST being built and starts another in the same
// memory, the output's included: the bytes Bytes returned before are
// overwritten, so copy them first if they are still needed.
func (b *Builder) Reset(sizeHint int) {
	if cap(b.out) < sizeHint {
		b.out = make([]byte, 0, sizeHint)
	}
	b.out = binary.LittleEndian.AppendUint64(b.out[:0], 1) // version
	b.out = binary.LittleEndian.AppendUint64(b.out, 0)     // type
	clear(b.reg)
	for i := range b.stack {
		b.stack[i].reset()
	}
	b.depth = 0
	b.push(false)
	b.last = b.last[:0]
	b.count, b.started, b.lastAddr, b.err = 0, false, noneAddr, nil
}

func (p *pending) reset() {
	*p = pending{trans: p.trans[:0]}
}

// push adds an empty state to the stack.
func (b *Builder) push(final bool) *pending {
	if b.depth == len(b.stack) {
		b.stack = append(b.stack, pending{})
	}
	p := &b.stack[b.depth]
	p.reset()
	p.final = final
	b.depth++
	return p
}

// freezeLast gives p's last transition its compiled target.
func (p *pending) freezeLast(addr int) {
	if p.hasLast {
		p.trans = append(p.trans, transition{in: p.lastIn, out: p.lastOut, addr: addr})
		p.hasLast, p.lastOut = false, 0
	}
}

// addOutputPrefix adds prefix to every output leaving p.
func (p *pending) addOutputPrefix(prefix uint64) {
	if p.final {
		p.finalOut += prefix
	}
	for i := range p.trans {
		p.trans[i].out += prefix
	}
	if p.hasLast {
		p.lastOut += prefix
	}
}

// Insert adds key with value val. Keys must come in strictly increasing
// byte order; the empty key may only come first.
func (b *Builder) Insert(key string, val uint64) error {
	if b.err != nil {
		return b.err
	}
	if b.started && key <= string(b.last) {
		return ErrOutOfOrder
	}
	b.started = true
	if len(key) == 0 {
		b.count = 1
		b.stack[0].final, b.stack[0].finalOut = true, val
		return nil
	}
	// Walk the shared prefix, moving output toward the leaves: each
	// transition keeps the smaller of its output and what is left of val.
	out := val
	i := 0
	for i < len(key) && i < b.depth {
		p := &b.stack[i]
		if !p.hasLast || p.lastIn != key[i] {
			break
		}
		common := min(p.lastOut, out)
		rest := p.lastOut - common
		out -= common
		p.lastOut = common
		i++
		if rest != 0 {
			b.stack[i].addOutputPrefix(rest)
		}
	}
	b.count++
	b.compileFrom(i)
	b.last = append(b.last[:0], key...)
	// The new suffix: a pending transition from the state at the end of
	// the shared prefix, then one state per byte, then the final state.
	suffix := key[i:]
	top := &b.stack[b.depth-1]
	top.hasLast, top.lastIn, top.lastOut = true, suffix[0], out
	for j := 1; j < len(suffix); j++ { // bytes, not runes
		p := b.push(false)
		p.hasLast, p.lastIn = true, suffix[j]
	}
	b.push(true)
	return b.err
}

// compileFrom compiles the states deeper than depth keep, bottom up, and
// freezes the last transition of the state left on top.
func (b *Builder) compileFrom(keep int) {
	addr := noneAddr
	for keep+1 < b.depth {
		p := &b.stack[b.depth-1]
		if addr != noneAddr {
			p.freezeLast(addr)
		}
		b.depth--
		addr = b.compile(p)
	}
	b.stack[b.depth-1].freezeLast(addr)
}

// Close compiles what is left and writes the footer.
func (b *Builder) Close() error {
	if b.err != nil {
		return b.err
	}
	b.compileFrom(0)
	b.depth = 0
	root := b.compile(&b.stack[0])
	b.out = binary.LittleEndian.AppendUint64(b.out, b.count)
	b.out = binary.LittleEndian.AppendUint64(b.out, uint64(root))
	return b.err
}

// Bytes returns the FST after Close. It is b's memory: see Reset.
func (b *Builder) Bytes() []byte { return b.out }

// compile returns the address of a state equal to p, writing p unless the
// registry finds one.
func (b *Builder) compile(p *pending) int {
	if p.final && len(p.trans) == 0 && p.finalOut == 0 {
		return 0
	}
	h := b.hash(p)
	bucket := b.reg[regMRU*h : regMRU*h+regMRU]
	for i := range bucket {
		if a := bucket[i].addr; a != 0 && b.equal(a, p) {
			copy(bucket[1:i+1], bucket[:i]) // most recent first
			bucket[0].addr = a
			return a
		}
	}
	addr := b.write(p)
	b.lastAddr = addr
	copy(bucket[1:], bucket[:len(bucket)-1]) // the oldest falls out
	bucket[0].addr = addr
	return addr
}

// hash is vellum's: FNV-1a-like over the state's fields, modulo the table.
func (b *Builder) hash(p *pending) int {
	const prime = 1099511628211
	var final uint64
	if p.final {
		final = 1
	}
	h := uint64(14695981039346656037)
	h = (h ^ final) * prime
	h = (h ^ p.finalOut) * prime
	for _, t := range p.trans {
		h = (h ^ uint64(t.in)) * prime
		h = (h ^ t.out) * prime
		h = (h ^ uint64(t.addr)) * prime
	}
	return int(h % regTable)
}

// equal reports whether the state written at addr is p.
func (b *Builder) equal(addr int, p *pending) bool {
	b.view.data, b.view.end = b.out, len(b.out)
	var st fstState
	if b.view.state(addr, &st) != nil {
		return false
	}
	if st.final != p.final || st.finalOut != p.finalOut || st.n != len(p.trans) {
		return false
	}
	for i := range p.trans {
		c, dest, out, err := b.view.trans(&st, i)
		if err != nil || c != p.trans[i].in || dest != p.trans[i].addr || out != p.trans[i].out {
			return false
		}
	}
	return true
}

// write encodes p after the states written so far and returns its
// address, the position of its last byte.
func (b *Builder) write(p *pending) int {
	if len(p.trans) == 1 && !p.final {
		t := p.trans[0]
		if t.out == 0 && t.addr == b.lastAddr {
			return b.writeOneEnd(t.in, fstNextFlag)
		}
		start := len(b.out)
		osz := 0
		if t.out != 0 {
			osz = packedSize(t.out)
			b.out = appendPacked(b.out, t.out, osz)
		}
		delta := deltaAddr(start, t.addr)
		tsz := packedSize(delta)
		b.out = appendPacked(b.out, delta, tsz)
		b.out = append(b.out, byte(tsz<<4|osz))
		return b.writeOneEnd(t.in, 0)
	}
	start := len(b.out)
	tsz, osz := 0, packedSize(p.finalOut)
	anyOut := p.finalOut != 0
	for _, t := range p.trans {
		tsz = max(tsz, packedSize(deltaAddr(start, t.addr)))
		osz = max(osz, packedSize(t.out))
		anyOut = anyOut || t.out != 0
	}
	if anyOut {
		if p.final {
			b.out = appendPacked(b.out, p.finalOut, osz)
		}
		for j := len(p.trans) - 1; j >= 0; j-- {
			b.out = appendPacked(b.out, p.trans[j].out, osz)
		}
	} else {
		osz = 0
	}
	for j := len(p.trans) - 1; j >= 0; j-- {
		b.out = appendPacked(b.out, deltaAddr(start, p.trans[j].addr), tsz)
	}
	for j := len(p.trans) - 1; j >= 0; j-- {
		b.out = append(b.out, p.trans[j].in)
	}
	b.out = append(b.out, byte(tsz<<4|osz))
	n := len(p.trans)
	top := byte(0)
	if n <= fstLow6 && n > 0 {
		top = byte(n)
	} else {
		// The count does not fit the top byte: it follows in its own,
		// where 256 (which would not fit) is written as 1, a count the
		// top byte always holds itself.
		if n == 256 {
			b.out = append(b.out, 1)
		} else {
			b.out = append(b.out, byte(n))
		}
	}
	if p.final {
		top |= fstFinalFlag
	}
	b.out = append(b.out, top)
	return len(b.out) - 1
}

// writeOneEnd writes the key byte (unless its common code stands for it)
// and the top byte of a single-transition state.
func (b *Builder) writeOneEnd(in byte, next byte) int {
	code := commonCode[in]
	if code == 0 {
		b.out = append(b.out, in)
	}
	b.out = append(b.out, fstOneTrans|next|code)
	return len(b.out) - 1
}

func deltaAddr(start, addr int) uint64 {
	if addr == 0 {
		return 0
	}
	return uint64(start - addr)
}

func packedSize(v uint64) int {
	n := 1
	for v >= 1<<8 && n < 8 {
		v >>= 8
		n++
	}
	return n
}

func appendPacked(dst []byte, v uint64, n int) []byte {
	for i := 0; i < n; i++ {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}
