package ruby_test

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestCorpusJekyll builds the jekyll checkout named by
// KNOWING_CORPUS_JEKYLL (skipped when unset) and checks the benchmark's
// ground-truth symbols.
func TestCorpusJekyll(t *testing.T) {
	b := extracttest.Corpus(t, "KNOWING_CORPUS_JEKYLL")
	b.ExpectNodes(
		"Jekyll.Filters", "Jekyll.Filters.markdownify", "Jekyll.Filters.slugify",
		"Jekyll.EntryFilter.filter", "Jekyll.EntryFilter.special?", "Jekyll.Excerpt.initialize",
		"Jekyll.Document.generate_excerpt", "Jekyll.Tags.HighlightBlock.render", "Jekyll.Page.url",
		"Jekyll.Page.permalink",
	)
}
