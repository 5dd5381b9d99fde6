package main

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// replay is eval --replay: the fixtures of each repository, in the order
// the run answers them, are one working session, as an agent working
// through related tasks with one MCP server would have: each task's
// answer (or, with feed "truth", its ground truth: the symbols the agent
// ended up reading) feeds the repository's session, and the next task is
// asked gap later with that session.
type replay struct {
	half, gap time.Duration
	weight    float64
	feed      string // "shown" or "truth"
	top       int    // with feed "shown", how many of the top results (0: all)
	repos     map[string]*replayClock
}

// replayClock is one repository's session and simulated clock.
type replayClock struct {
	s  *query.Session
	at time.Time
}

// replayFlags are eval's replay flags; on turns them into a *replay (nil
// without --replay).
type replayFlags struct {
	on        *bool
	half, gap *time.Duration
	weight    *float64
	feed      *string
}

func replayFlagsOf(fs *flag.FlagSet) replayFlags {
	return replayFlags{
		on:     fs.Bool("replay", false, "answer each repository's fixtures in order as one session: each answer feeds the session of the later ones (see --session-half-life)"),
		half:   fs.Duration("session-half-life", query.DefaultSessionHalfLife, "with --replay: the `duration` over which a returned symbol's boost halves"),
		weight: fs.Float64("session-weight", query.DefaultSessionWeight, "with --replay: a fully boosted symbol's score is multiplied by 1 + this `weight`"),
		gap:    fs.Duration("replay-gap", time.Minute, "with --replay: simulated `time` between two tasks"),
		feed:   fs.String("replay-feed", "shown", "with --replay: what feeds the session: shown (each task's top results), shown:N (its top N) or truth (its ground truth)"),
	}
}

func (f replayFlags) replay() (*replay, error) {
	if !*f.on {
		return nil, nil
	}
	if *f.half <= 0 || *f.gap < 0 || *f.weight < 0 {
		return nil, usagef("--session-half-life must be above 0, --replay-gap and --session-weight 0 or more")
	}
	feed, top := *f.feed, 0
	if n, ok := strings.CutPrefix(feed, "shown:"); ok {
		var err error
		if top, err = strconv.Atoi(n); err != nil || top <= 0 {
			return nil, usagef("--replay-feed shown:N needs a count above 0 (got %q)", n)
		}
		feed = "shown"
	}
	if feed != "shown" && feed != "truth" {
		return nil, usagef("unknown --replay-feed %q: shown, shown:N or truth", feed)
	}
	return &replay{half: *f.half, gap: *f.gap, weight: *f.weight, feed: feed, top: top, repos: map[string]*replayClock{}}, nil
}

// replayEpoch is the simulated time of each repository's first task.
var replayEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// next returns the session and time fixture f is asked with.
func (r *replay) next(f eval.Fixture) (*query.Session, time.Time) {
	c := r.repos[f.Repo]
	if c == nil {
		c = &replayClock{s: query.NewSession(r.half, r.weight), at: replayEpoch}
		r.repos[f.Repo] = c
	} else {
		c.at = c.at.Add(r.gap)
	}
	return c.s, c.at
}

// fed records in sess what f's task left the agent with, at time at:
// the answer items from snap, or f's ground truth.
func (r *replay) fed(sess *query.Session, snap *snapshot.Snapshot, f eval.Fixture, items []query.Item, at time.Time) {
	if r.feed == "truth" {
		for _, g := range f.GroundTruth {
			sess.RecordName(snap, g, at)
		}
		return
	}
	if r.top > 0 && len(items) > r.top {
		items = items[:r.top]
	}
	sess.RecordItems(snap, items, at)
}

func (r *replay) String() string {
	return fmt.Sprintf("replay: half-life %s, weight %g, %s between tasks, feed %s", r.half, r.weight, r.gap, r.feed)
}

// inCommitOrder sorts mined fixtures by the committer time of their
// commit in repo (oldest first), the order their fixes were made in;
// a commit git cannot date goes last, fixtures of equal time keep their
// order.
func inCommitOrder(repo string, fx []eval.Fixture) {
	commit := func(f eval.Fixture) string {
		if f.Commit != "" {
			return f.Commit
		}
		return f.BaseCommit
	}
	when := make(map[string]int64, len(fx))
	for _, f := range fx {
		c := commit(f)
		if _, ok := when[c]; ok {
			continue
		}
		when[c] = 1<<62 - 1
		if b, err := git(repo, nil, nil, "show", "-s", "--format=%ct", c+"^{commit}"); err == nil {
			if t, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
				when[c] = t
			}
		}
	}
	slices.SortStableFunc(fx, func(a, b eval.Fixture) int {
		return cmp.Compare(when[commit(a)], when[commit(b)])
	})
}
