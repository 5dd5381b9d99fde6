package csharp_test

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestCorpus builds the C# repository named by KNOWING_CORPUS_CSHARP (an
// Ocelot checkout, say) and reports what the extractor finds. It is
// skipped when the variable is unset.
func TestCorpus(t *testing.T) {
	b := extracttest.Corpus(t, "KNOWING_CORPUS_CSHARP")
	b.ExpectNodes(
		"Ocelot.Authentication.AuthenticationMiddleware.Invoke",
		"Ocelot.Middleware.OcelotMiddleware.Logger",
	)
}
