package snapshot

import (
	"fmt"
	mbits "math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/klauspost/compress/zstd"
)

// Cold data: signatures and docs, zstd-compressed in blocks and decoded on
// demand. A small direct-mapped cache of decoded blocks, shared by all
// goroutines, makes repeated reads of neighbouring nodes cheap; a decoded
// block is never modified once published.

const coldCacheSlots = 32

type coldCache struct {
	slot [coldCacheSlots]atomic.Pointer[coldBlock]
}

func (c *coldCache) clear() {
	for i := range c.slot {
		c.slot[i].Store(nil)
	}
}

// Parts of a cold block: its signatures and its docs are separate frames,
// so that reading a signature does not decompress docs.
const (
	partSig = 0
	partDoc = 1
)

// coldBlock is one decoded frame: raw as written (see coldWriter.flush),
// and start[j] the offset in raw of text j; start has one more element,
// the end.
type coldBlock struct {
	key   uint64 // block << 1 | part
	raw   []byte
	start []uint32
}

func (b *coldBlock) n() int { return len(b.start) - 1 }

func (b *coldBlock) text(j int) string {
	lo, hi := b.start[j], b.start[j+1]
	if lo == hi {
		return ""
	}
	return unsafe.String(&b.raw[lo], int(hi-lo))
}

var zdec struct {
	once sync.Once
	d    *zstd.Decoder
	err  error
}

// decoder is one zstd decoder shared by every snapshot: DecodeAll is safe
// for concurrent use and appends to the caller's buffer.
func decoder() (*zstd.Decoder, error) {
	zdec.once.Do(func() {
		n := runtime.GOMAXPROCS(0)
		if n > 4 {
			n = 4
		}
		zdec.d, zdec.err = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(n),
			zstd.WithDecoderMaxMemory(maxColdRaw),
			zstd.WithDecodeAllCapLimit(true))
	})
	return zdec.d, zdec.err
}

// coldEntry returns the number of node id's cold entry (its rank among
// the nodes that have one), or false when it has none.
func (s *Snapshot) coldEntry(id uint32) (uint32, bool, error) {
	g := uint64(id / 64)
	if uint64(id) >= uint64(s.nNodes) || (g+1)*coldRankSize > uint64(len(s.coldRanks)) {
		return 0, false, fmt.Errorf("snapshot: node %d out of range [0,%d)", id, s.nNodes)
	}
	e := s.coldRanks[g*coldRankSize:]
	bits, base := le.Uint64(e), le.Uint32(e[8:])
	if bits>>(id%64)&1 == 0 {
		return 0, false, nil
	}
	return base + uint32(mbits.OnesCount64(bits&(1<<(id%64)-1))), true, nil
}

// coldBlockOf finds the block holding cold entry k: the last block whose
// first entry is at most k.
func (s *Snapshot) coldBlockOf(k uint32) (blk uint32, slot int) {
	nb := len(s.coldIdx) / coldIdxSize
	lo, hi := 0, nb // the answer is below hi
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if le.Uint32(s.coldIdx[m*coldIdxSize+coldFirst:]) <= k {
			lo = m
		} else {
			hi = m
		}
	}
	first := uint32(0)
	if nb > 0 {
		first = le.Uint32(s.coldIdx[lo*coldIdxSize+coldFirst:])
	}
	return uint32(lo), int(k - first)
}

// coldPart returns node id's signature (part partSig) or doc (partDoc).
func (s *Snapshot) coldPart(id uint32, part int) (string, error) {
	k, ok, err := s.coldEntry(id)
	if !ok || err != nil {
		return "", err
	}
	blk, slot := s.coldBlockOf(k)
	b, err := s.coldBlock(blk, part)
	if err != nil {
		return "", err
	}
	if slot < 0 || slot >= b.n() {
		return "", corruptf("node %d: cold entry %d beyond its block", id, k)
	}
	return b.text(slot), nil
}

// coldText returns node id's signature and doc.
func (s *Snapshot) coldText(id uint32) (sig, doc string, err error) {
	if sig, err = s.coldPart(id, partSig); err != nil {
		return "", "", err
	}
	if doc, err = s.coldPart(id, partDoc); err != nil {
		return "", "", err
	}
	return sig, doc, nil
}

// coldBlock returns part of decoded block i, from the cache when it is
// there.
func (s *Snapshot) coldBlock(i uint32, part int) (*coldBlock, error) {
	key := uint64(i)<<1 | uint64(part)
	slot := &s.cold.slot[key%coldCacheSlots]
	if b := slot.Load(); b != nil && b.key == key {
		return b, nil
	}
	b, err := decodeColdBlock(s.coldIdx, s.coldData, i, part)
	if err != nil {
		return nil, err
	}
	slot.Store(b)
	return b, nil
}

// decodeColdBlock reads entry i of the cold index and decodes one part of
// its block.
func decodeColdBlock(idx, data []byte, i uint32, part int) (*coldBlock, error) {
	if uint64(i) >= uint64(len(idx)/coldIdxSize) {
		return nil, corruptf("cold block %d of %d", i, len(idx)/coldIdxSize)
	}
	e := idx[int(i)*coldIdxSize:]
	off, clen, rlen := le.Uint64(e), le.Uint32(e[8:]), le.Uint32(e[12:])
	if part == partDoc {
		off += uint64(clen)
		clen, rlen = le.Uint32(e[16:]), le.Uint32(e[20:])
	}
	if off > uint64(len(data)) || uint64(clen) > uint64(len(data))-off {
		return nil, corruptf("cold block %d (%d bytes at %d) outside its section", i, clen, off)
	}
	if rlen > maxColdRaw || rlen < 4 {
		return nil, corruptf("cold block %d: decoded size %d", i, rlen)
	}
	d, err := decoder()
	if err != nil {
		return nil, err
	}
	raw, err := zstdDecode(d, data[off:off+uint64(clen)], make([]byte, 0, rlen))
	if err != nil {
		return nil, corruptf("cold block %d: %v", i, err)
	}
	if len(raw) != int(rlen) {
		return nil, corruptf("cold block %d: %d bytes decoded, %d expected", i, len(raw), rlen)
	}
	n := uint64(le.Uint32(raw))
	if n == 0 || n > 1<<coldSlotBits || 4+4*n > uint64(len(raw)) {
		return nil, corruptf("cold block %d: %d entries", i, n)
	}
	start := make([]uint32, n+1)
	pos := 4 + 4*n
	for j := uint64(0); j < n; j++ {
		start[j] = uint32(pos)
		pos += uint64(le.Uint32(raw[4+4*j:]))
		if pos > uint64(len(raw)) {
			return nil, corruptf("cold block %d: texts overrun the block", i)
		}
	}
	if pos != uint64(len(raw)) {
		return nil, corruptf("cold block %d: %d stray bytes", i, uint64(len(raw))-pos)
	}
	start[n] = uint32(pos)
	return &coldBlock{key: uint64(i)<<1 | uint64(part), raw: raw, start: start}, nil
}

// zstdDecode guards the decoder against panics on garbage.
func zstdDecode(d *zstd.Decoder, src, dst []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("zstd: %v", r)
		}
	}()
	return d.DecodeAll(src, dst)
}
