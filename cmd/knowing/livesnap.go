package main

import (
	"sync/atomic"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// liveSnap is an open snapshot and its engine, shared by the readers
// holding a reference; the mapping is unmapped when the last reference
// goes (the owner's own, while the snapshot is current, counts as one).
type liveSnap struct {
	s    *snapshot.Snapshot
	e    *query.Engine
	refs atomic.Int64
}

// newLiveSnap makes a liveSnap holding one reference, its owner's.
func newLiveSnap(s *snapshot.Snapshot, e *query.Engine) *liveSnap {
	ls := &liveSnap{s: s, e: e}
	ls.refs.Store(1)
	return ls
}

// release drops a reference; the last one closes the snapshot.
func (ls *liveSnap) release() {
	if ls.refs.Add(-1) == 0 {
		ls.s.Close()
	}
}
