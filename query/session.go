package query

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/knowing-dev/knowing/snapshot"
)

// Session remembers the symbols earlier answers of one working session
// returned (an MCP server's lifetime, an eval replay) and raises them
// when a later query meets them again: step 7b, after scoring and before
// packing (Engine.sessionBoost). Each return adds 1 to a symbol's
// strength, which halves every half-life and is capped at SessionCap; a
// ranked candidate's score is multiplied by
//
//	1 + weight × strength / SessionCap
//
// so a symbol returned once just now gains weight/2, one returned again
// and again at most weight. Only candidates the query found on its own
// are raised: the session adds no symbol to an answer.
//
// Entries hold node ids of one snapshot, and the qualified names that
// find them again in another: a query on an engine over a different
// snapshot (the repository rebuilt) first maps the entries by qualified
// name, dropping the symbols the new snapshot lacks. A Session is safe
// for concurrent use; a query with a session allocates nothing unless
// it maps the session to a new snapshot.
type Session struct {
	half   float64 // half-life in seconds
	weight float64

	mu      sync.Mutex
	snap    *snapshot.Snapshot // the snapshot the entries' ids are of
	at      map[uint32]int32   // node id → index in ents
	ents    []sessionEntry
	pruneAt int
	ids     []uint32 // scratch of rebind
}

// sessionEntry is one remembered symbol.
type sessionEntry struct {
	id          uint32
	strength    float64 // at time t
	t           int64   // Unix nanoseconds of the last return
	qname, name string  // to find the symbol in another snapshot
}

const (
	// SessionCap caps a symbol's strength: returned twice just now, or
	// often a while ago, it gets the whole weight.
	SessionCap = 2
	// sessionForget drops an entry whose strength fell below it (about
	// 6.6 half-lives after a single return).
	sessionForget = 0.01
	// DefaultSessionHalfLife and DefaultSessionWeight are the decay and
	// the weight an MCP server uses unless told otherwise.
	DefaultSessionHalfLife = 3 * time.Minute
	DefaultSessionWeight   = 0.5
)

// NewSession makes an empty session whose strengths halve every
// halfLife (at least a millisecond) and whose full strength multiplies a
// score by 1 + weight.
func NewSession(halfLife time.Duration, weight float64) *Session {
	return &Session{half: max(halfLife, time.Millisecond).Seconds(), weight: weight, at: map[uint32]int32{}, pruneAt: 64}
}

// HalfLife is the session's half-life.
func (s *Session) HalfLife() time.Duration { return time.Duration(s.half * float64(time.Second)) }

// Weight is the session's weight.
func (s *Session) Weight() float64 { return s.weight }

// Len is how many symbols the session remembers.
func (s *Session) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ents)
}

// decayed is e's strength at time now (Unix nanoseconds); an earlier now
// counts as e's own time.
func (s *Session) decayed(e *sessionEntry, now int64) float64 {
	if now <= e.t {
		return e.strength
	}
	return e.strength * math.Exp2(-float64(now-e.t)/1e9/s.half)
}

// Strength is the strength of node id of snap at time at, in [0,
// SessionCap]: 0 for a symbol the session does not hold.
func (s *Session) Strength(snap *snapshot.Snapshot, id uint32, at time.Time) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bind(snap)
	i, ok := s.at[id]
	if !ok {
		return 0
	}
	return s.decayed(&s.ents[i], at.UnixNano())
}

// Record notes that node id of snap was returned at time at.
func (s *Session) Record(snap *snapshot.Snapshot, id uint32, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bind(snap)
	s.record(snap, id, at.UnixNano())
}

// RecordItems notes that the items, answers from snap, were returned at
// time at.
func (s *Session) RecordItems(snap *snapshot.Snapshot, items []Item, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bind(snap)
	for i := range items {
		s.record(snap, items[i].ID, at.UnixNano())
	}
}

// RecordName notes the symbols of snap whose qualified name is qname as
// returned at time at, and reports whether there was one.
func (s *Session) RecordName(snap *snapshot.Snapshot, qname string, at time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bind(snap)
	s.ids = lookupQName(snap, qname, shortName(qname), s.ids[:0])
	for _, id := range s.ids {
		s.record(snap, id, at.UnixNano())
	}
	return len(s.ids) > 0
}

// record adds a return of id at now; s.mu is held and s bound to snap.
func (s *Session) record(snap *snapshot.Snapshot, id uint32, now int64) {
	if int(id) >= snap.NumNodes() {
		return
	}
	if i, ok := s.at[id]; ok {
		e := &s.ents[i]
		e.strength = min(SessionCap, s.decayed(e, now)+1)
		e.t = max(e.t, now)
		return
	}
	if len(s.ents) >= s.pruneAt {
		s.prune(now)
	}
	s.at[id] = int32(len(s.ents))
	s.ents = append(s.ents, sessionEntry{id: id, strength: 1, t: now,
		qname: strings.Clone(snap.QName(id)), name: strings.ToLower(strings.Clone(snap.Name(id)))})
}

// prune forgets the entries too weak to matter at now.
func (s *Session) prune(now int64) {
	s.ents = slices.DeleteFunc(s.ents, func(e sessionEntry) bool { return s.decayed(&e, now) < sessionForget })
	clear(s.at)
	for i := range s.ents {
		s.at[s.ents[i].id] = int32(i)
	}
	s.pruneAt = max(64, 2*len(s.ents))
}

// bind maps the entries to snap's node ids by qualified name when they
// are of another snapshot; s.mu is held.
func (s *Session) bind(snap *snapshot.Snapshot) {
	if s.snap == snap {
		return
	}
	old := s.ents
	s.snap = snap
	s.ents = make([]sessionEntry, 0, len(old))
	clear(s.at)
	for _, e := range old {
		s.ids = lookupQName(snap, e.qname, e.name, s.ids[:0])
		for _, id := range s.ids {
			if _, dup := s.at[id]; dup {
				continue
			}
			e.id = id
			s.at[id] = int32(len(s.ents))
			s.ents = append(s.ents, e)
		}
	}
}

// lookupQName appends to dst the nodes of snap named lowerName whose
// qualified name is qname.
func lookupQName(snap *snapshot.Snapshot, qname, lowerName string, dst []uint32) []uint32 {
	n := len(dst)
	dst = snap.LookupName(lowerName, dst)
	keep := n
	for _, id := range dst[n:] {
		if snap.QName(id) == qname {
			dst[keep] = id
			keep++
		}
	}
	return dst[:keep]
}

// shortName is the lower-cased last part of a qualified name: what
// follows its last '.', '/', ':' or '#'.
func shortName(qname string) string {
	return strings.ToLower(qname[strings.LastIndexAny(qname, ".:/#")+1:])
}

// sessionBoost is step 7b: it multiplies the score of each ranked
// candidate opt.Session holds by 1 + weight × strength / SessionCap at
// opt.At (zero: the clock), and sorts the candidates again.
func (e *Engine) sessionBoost(ws *workspace, ranked []*candidate, opt *Options) []*candidate {
	s := opt.Session
	if s == nil {
		return ranked
	}
	at := opt.At
	if at.IsZero() {
		at = time.Now()
	}
	now := at.UnixNano()
	s.mu.Lock()
	s.bind(e.s)
	moved := false
	for i := range s.ents {
		en := &s.ents[i]
		cd := ws.lookup(en.id)
		// Only ranked candidates have a score: the rest stay out.
		if cd == nil || cd.score <= 0 {
			continue
		}
		if st := s.decayed(en, now); st >= sessionForget {
			cd.score *= 1 + s.weight*min(st, SessionCap)/SessionCap
			cd.parts.Final = cd.score
			moved = true
		}
	}
	s.mu.Unlock()
	if moved {
		slices.SortFunc(ranked, byScore)
	}
	return ranked
}
