package java_test

import (
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestSparkCorpus builds the spark-java checkout named by
// KNOWING_CORPUS_SPARK and checks the symbols the benchmark's ground truth
// names. It is skipped when the variable is unset.
func TestSparkCorpus(t *testing.T) {
	b := extracttest.Corpus(t, "KNOWING_CORPUS_SPARK")
	b.ExpectNodes(
		"spark.Routable.after", "spark.Filter.handle", "spark.http.matching.AfterFilters.execute",
		"spark.Response.header", "spark.Spark.after", "spark.http.matching.BeforeFilters.execute",
		"spark.FilterImpl.FilterImpl", "spark.Routable.before", "spark.route.Routes.add",
		"spark.route.HttpMethod", "spark.HaltException.getStatusCode", "spark.http.matching.Halt.modify",
		"spark.Request.queryParams", "spark.QueryParamsMap.value",
	)
	// Service declares no before(): it inherits Routable's.
	b.Edge("spark.Service", "spark.Routable.before", snapshot.EdgeInherits)
}
