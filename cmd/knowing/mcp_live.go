//go:build cgo

package main

import (
	"context"
	"time"
)

// mcpState is the server's live snapshot and the watch that feeds it.
type mcpState struct {
	l        *live
	watching bool
	stop     context.CancelFunc
	done     chan struct{}
}

// mcpStaleBudget bounds the stamp check of a call when the repository
// cannot be watched.
const mcpStaleBudget = 20 * time.Millisecond

// acquire returns the snapshot to answer a call from, with a reference
// the caller releases: on the first call, the snapshot built or brought
// up to date, and the watch started; on later ones, rebuilt first when
// the repository changed since. When a rebuild fails the previous
// snapshot answers (the failure is logged).
func (k *mcpServer) acquire(ctx context.Context) (*liveSnap, error) {
	k.mu.Lock()
	if k.st.l == nil {
		l, err := newLive(k.repo, k.snap, k.log)
		if err != nil {
			k.mu.Unlock()
			return nil, err
		}
		if _, err := l.start(ctx); err != nil {
			l.close()
			k.mu.Unlock()
			return nil, err
		}
		k.st.l = l
		if wt, err := newWatcher(l); err != nil {
			k.logf("knowing: cannot watch %s (%v); each call checks the files' stamps instead\n", l.repo, err)
		} else {
			wt.sync()
			wctx, stop := context.WithCancel(context.Background())
			k.st.watching, k.st.stop, k.st.done = true, stop, make(chan struct{})
			go func() {
				defer close(k.st.done)
				defer wt.close()
				wt.run(wctx, 200*time.Millisecond, 2*time.Second, func(rep *rebuildReport, err error) {
					if err != nil {
						k.logf("knowing: rebuild failed, the previous snapshot stays: %v\n", err)
					} else if !rep.unchanged {
						k.logf("knowing: rebuilt %s: %s\n", k.snap, rep)
					}
				})
			}()
		}
	}
	l, watching := k.st.l, k.st.watching
	k.mu.Unlock()
	ls, err := l.fresh(ctx, watching, mcpStaleBudget)
	if err != nil && ls != nil {
		k.logf("knowing: rebuild failed, answering from the previous snapshot: %v\n", err)
		err = nil
	}
	return ls, err
}

// close stops the watch and drops the server's snapshot.
func (k *mcpServer) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st.stop != nil {
		k.st.stop()
		<-k.st.done
		k.st.stop = nil
	}
	if k.st.l != nil {
		k.st.l.close()
		k.st.l = nil
	}
}

// checkCacheLimit refuses a malformed KNOWING_CACHE_LIMIT before the
// server starts: its first call's build would refuse it, and every call
// after that.
func checkCacheLimit() error {
	_, err := priorCacheLimit()
	return err
}
