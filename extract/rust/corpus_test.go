package rust

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

// TestCorpusCargo builds the cargo checkout named by KNOWING_CORPUS_CARGO
// (skipped when unset) and checks the benchmark's ground-truth symbols.
func TestCorpusCargo(t *testing.T) {
	b := extracttest.Corpus(t, "KNOWING_CORPUS_CARGO")
	b.ExpectNodes(
		"cargo.util.context.GlobalContext", "cargo.util.context.GlobalContext.get_list",
		"cargo.core.compiler.build_config.BuildConfig", "cargo.core.compiler.custom_build.BuildOutput.parse",
		"cargo.sources.path.PathSource.read_package", "cargo.core.source_id.SourceId",
		"cargo.core.resolver.features.FeatureResolver.resolve", "cargo.bin.cargo.cli.expand_aliases",
	)
}
