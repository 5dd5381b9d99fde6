package bm25

import (
	"encoding/binary"
	"math/bits"
)

// roaringHeader is the parsed preamble of a portable-format roaring bitmap
// (https://github.com/RoaringBitmap/RoaringFormatSpec):
//
//	cookie uint32: 12346, then uint32 container count; or
//	               12347 | (count-1)<<16, then ceil(count/8) run-flag bytes
//	count × (key uint16, cardinality-1 uint16)
//	count × uint32 container offsets, absent when cookie 12347 and count < 4
//	containers, in key order: run (uint16 n, n × (start, length-1) uint16
//	pairs), array (cardinality ≤ 4096: sorted uint16 values) or bitmap
//	(1024 uint64 words, bit v of the container set when v is present)
type roaringHeader struct {
	size int    // containers
	runs []byte // run-flag bitset, nil without runs
	keys []byte // descriptive header, 4 bytes per container
	body int    // offset of the first container
}

func parseRoaring(r []byte) (h roaringHeader, ok bool) {
	le := binary.LittleEndian
	if len(r) < 4 {
		return h, false
	}
	cookie := le.Uint32(r)
	pos := 0
	switch {
	case cookie&0xffff == roaringCookieRun:
		h.size = int(cookie>>16) + 1
		pos = 4 + (h.size+7)/8
		if pos > len(r) {
			return h, false
		}
		h.runs = r[4:pos]
	case cookie == roaringCookieNoRun:
		if len(r) < 8 {
			return h, false
		}
		n := le.Uint32(r[4:])
		if n > 1<<16 {
			return h, false
		}
		h.size, pos = int(n), 8
	default:
		return h, false
	}
	if pos+4*h.size > len(r) {
		return h, false
	}
	h.keys = r[pos : pos+4*h.size]
	pos += 4 * h.size
	if h.runs == nil || h.size >= roaringNoOffsetLimit {
		pos += 4 * h.size
	}
	if pos > len(r) {
		return h, false
	}
	h.body = pos
	return h, true
}

func (h *roaringHeader) isRun(c int) bool {
	return h.runs != nil && h.runs[c>>3]>>(c&7)&1 != 0
}

func (h *roaringHeader) container(c int) (key uint32, card int) {
	return uint32(binary.LittleEndian.Uint16(h.keys[4*c:])) << 16,
		int(binary.LittleEndian.Uint16(h.keys[4*c+2:])) + 1
}

// Container kinds.
const (
	containerRun = iota
	containerArray
	containerBitmap
)

// frame reads the header of container c, which starts at r[pos:], and
// checks that its content fits in r. key is its first document id, card
// its declared cardinality; body is its content: for a run container the
// runs, 4 bytes each (start, length-1 as uint16), after their count; for
// an array its values, 2 bytes each; for a bitmap its 1,024 words. next
// is the offset after the container. It is the framing that Search's
// loops and the strict walkRoaring share; each checks the values itself.
func (h *roaringHeader) frame(r []byte, c, pos int) (key uint32, card, kind int, body []byte, next int, ok bool) {
	key, card = h.container(c)
	n := 0 // bytes of content after pos
	switch {
	case h.isRun(c):
		if len(r)-pos < 2 {
			return key, card, containerRun, nil, pos, false
		}
		kind, n = containerRun, 4*int(binary.LittleEndian.Uint16(r[pos:]))
		pos += 2
	case card <= roaringArrayMax:
		kind, n = containerArray, 2*card
	default:
		kind, n = containerBitmap, roaringBitmapBytes
	}
	if len(r)-pos < n {
		return key, card, kind, nil, pos, false
	}
	return key, card, kind, r[pos : pos+n], pos + n, true
}

// walkRoaring calls fn for every value of the bitmap r in order and checks
// it strictly: containers and values strictly increasing, cardinalities as
// declared, no bytes left over. It is the checker behind Verify; Search uses
// the faster, allocation-free loop in Searcher.addList.
func walkRoaring(r []byte, fn func(uint32)) bool {
	h, ok := parseRoaring(r)
	if !ok {
		return false
	}
	le := binary.LittleEndian
	pos := h.body
	prevKey := -1
	for c := 0; c < h.size; c++ {
		key, card, kind, body, next, ok := h.frame(r, c, pos)
		if !ok || int(key>>16) <= prevKey {
			return false
		}
		pos = next
		prevKey = int(key >> 16)
		n := 0
		prev := -1
		emit := func(v int) bool {
			if v <= prev || v > 0xffff {
				return false
			}
			prev = v
			n++
			fn(key | uint32(v))
			return true
		}
		switch kind {
		case containerRun:
			for j := 0; j < len(body); j += 4 {
				start, length := int(le.Uint16(body[j:])), int(le.Uint16(body[j+2:]))
				if start <= prev && prev >= 0 || start+length > 0xffff {
					return false
				}
				for v := start; v <= start+length; v++ {
					if !emit(v) {
						return false
					}
				}
			}
		case containerArray:
			for j := 0; j < len(body); j += 2 {
				if !emit(int(le.Uint16(body[j:]))) {
					return false
				}
			}
		default:
			for w := 0; w < roaringBitmapBytes/8; w++ {
				word := le.Uint64(body[8*w:])
				for word != 0 {
					if !emit(w<<6 | bits.TrailingZeros64(word)) {
						return false
					}
					word &= word - 1
				}
			}
		}
		if n != card {
			return false
		}
	}
	return pos == len(r)
}
