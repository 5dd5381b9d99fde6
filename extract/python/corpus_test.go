package python

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestFlaskCorpus builds the Flask checkout named by KNOWING_CORPUS_FLASK
// (skipped when unset) and checks the symbols retrieval benchmarks expect.
func TestFlaskCorpus(t *testing.T) {
	b := extracttest.Corpus(t, "KNOWING_CORPUS_FLASK")
	b.ExpectNodes(
		"flask.sansio.scaffold.Scaffold.before_request",
		"flask.app.Flask.preprocess_request",
		"flask.app.Flask.full_dispatch_request",
		"flask.sansio.blueprints.Blueprint.before_app_request",
		"flask.cli.FlaskGroup",
		"flask.cli.AppGroup",
		"flask.cli.with_appcontext",
		"flask.sansio.app.App.add_url_rule",
		"flask.helpers.url_for",
		"flask.config.Config",
	)
}
