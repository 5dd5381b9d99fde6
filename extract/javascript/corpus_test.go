package javascript

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestCorpus builds the JavaScript or TypeScript repository named by
// KNOWING_CORPUS_JS (skipped when unset) and reports what it finds;
// KNOWING_EXPECT lists qualified names that must exist.
func TestCorpus(t *testing.T) {
	extracttest.Corpus(t, "KNOWING_CORPUS_JS")
}
