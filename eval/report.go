package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes fixed-width tables: per fixture (id, tier, P@10, R@10,
// MRR, NDCG, ms), per tier, per repository and overall, then any retriever
// errors. Metrics are fractions in [0, 1] with three decimals.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "matcher: %s  k: %d  fixtures: %d  zero-hit: %d  errors: %d\n\n",
		r.Matcher, r.K, r.Overall.Count, r.Overall.ZeroHits, r.Overall.Errors)

	idw := len("FIXTURE")
	tierw := len("TIER")
	for _, f := range r.Fixtures {
		idw = max(idw, len(f.ID))
		tierw = max(tierw, len(f.Tier))
	}
	fmt.Fprintf(bw, "%-*s  %-*s  %6s  %6s  %6s  %6s  %9s\n", idw, "FIXTURE", tierw, "TIER", "P@10", "R@10", "MRR", "NDCG", "MS")
	for _, f := range r.Fixtures {
		fmt.Fprintf(bw, "%-*s  %-*s  %6.3f  %6.3f  %6.3f  %6.3f  %9.1f\n", idw, f.ID, tierw, f.Tier, f.P10, f.R10, f.MRR, f.NDCG, f.LatencyMS)
	}

	namew := len("OVERALL")
	for _, s := range r.Tiers {
		namew = max(namew, len(s.Name))
	}
	for _, s := range r.Repos {
		namew = max(namew, len(s.Name))
	}
	table := func(title string, rows []Summary) {
		fmt.Fprintf(bw, "\n%-*s  %4s  %4s  %6s  %6s  %6s  %6s  %9s  %9s\n", namew, title, "N", "ZERO", "P@10", "R@10", "MRR", "NDCG", "P50 MS", "P99 MS")
		for _, s := range rows {
			summaryLine(bw, namew, s.Name, s)
		}
	}
	table("TIER", r.Tiers)
	table("REPO", r.Repos)
	fmt.Fprintln(bw)
	summaryLine(bw, namew, "OVERALL", r.Overall)
	r.writeBugText(bw)

	if r.Overall.Errors > 0 {
		fmt.Fprintln(bw, "\nerrors:")
		for _, f := range r.Fixtures {
			if f.Error != "" {
				fmt.Fprintf(bw, "  %s: %s\n", f.ID, f.Error)
			}
		}
	}
	return bw.Flush()
}

// writeBugText writes, when the report has bug-report fixtures, their
// strict Acc@k, R@10 and MRR per tier, per repository and overall.
func (r *Report) writeBugText(w io.Writer) {
	if r.BugOverall == nil {
		return
	}
	var tiers []Summary
	for _, s := range r.Tiers {
		if IsBugTier(s.Name) {
			tiers = append(tiers, s)
		}
	}
	namew := len("OVERALL")
	for _, s := range append(tiers, r.BugRepos...) {
		namew = max(namew, len(s.Name))
	}
	fmt.Fprintf(w, "\nbug reports and mined commits (Acc@k: every ground-truth symbol within the top k)\n")
	table := func(title string, rows []Summary) {
		fmt.Fprintf(w, "\n%-*s  %4s  %6s  %6s  %6s  %6s  %6s\n", namew, title, "N", "ACC@1", "ACC@5", "ACC@10", "R@10", "MRR")
		for _, s := range rows {
			bugLine(w, namew, s.Name, s)
		}
	}
	table("TIER", tiers)
	table("REPO", r.BugRepos)
	fmt.Fprintln(w)
	bugLine(w, namew, "OVERALL", *r.BugOverall)
}

func bugLine(w io.Writer, namew int, name string, s Summary) {
	fmt.Fprintf(w, "%-*s  %4d  %6.3f  %6.3f  %6.3f  %6.3f  %6.3f\n", namew, name, s.Count, s.Acc1, s.Acc5, s.Acc10, s.R10, s.MRR)
}

func summaryLine(w io.Writer, namew int, name string, s Summary) {
	fmt.Fprintf(w, "%-*s  %4d  %4d  %6.3f  %6.3f  %6.3f  %6.3f  %9.1f  %9.1f\n", namew, name, s.Count, s.ZeroHits, s.P10, s.R10, s.MRR, s.NDCG, s.LatencyP50MS, s.LatencyP99MS)
}

// WriteMarkdown writes a FINDINGS.md-style document: summary tables
// (overall, per tier, per repository), a per-fixture table, and for each
// zero-hit fixture its description, ground truth and top five returned
// names.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Retrieval eval\n\n")
	fmt.Fprintf(bw, "Matcher: `%s` · K = %d · %d fixtures · %d zero-hit · %d errors\n\n",
		r.Matcher, r.K, r.Overall.Count, r.Overall.ZeroHits, r.Overall.Errors)
	fmt.Fprintf(bw, "Metrics are means over fixtures, as fractions; latency percentiles are nearest-rank, in milliseconds.\n\n")

	head := "| %s | n | zero-hit | P@10 | R@10 | MRR | NDCG@10 | p50 ms | p99 ms |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n"
	row := func(s Summary) {
		fmt.Fprintf(bw, "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f |\n",
			mdCell(s.Name), s.Count, s.ZeroHits, s.P10, s.R10, s.MRR, s.NDCG, s.LatencyP50MS, s.LatencyP99MS)
	}
	fmt.Fprintf(bw, "## Summary\n\n")
	fmt.Fprintf(bw, head, "scope")
	row(r.Overall)
	fmt.Fprintf(bw, "\n## Per tier\n\n")
	fmt.Fprintf(bw, head, "tier")
	for _, s := range r.Tiers {
		row(s)
	}
	fmt.Fprintf(bw, "\n## Per repository\n\n")
	fmt.Fprintf(bw, head, "repo")
	for _, s := range r.Repos {
		row(s)
	}

	if r.BugOverall != nil {
		fmt.Fprintf(bw, "\n## Bug reports and mined commits\n\n")
		fmt.Fprintf(bw, "Strict Acc@k: the share of fixtures with every ground-truth symbol within the top k.\n\n")
		fmt.Fprintf(bw, "| scope | n | Acc@1 | Acc@5 | Acc@10 | R@10 | MRR |\n|---|--:|--:|--:|--:|--:|--:|\n")
		bugRow := func(s Summary) {
			fmt.Fprintf(bw, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", mdCell(s.Name), s.Count, s.Acc1, s.Acc5, s.Acc10, s.R10, s.MRR)
		}
		for _, s := range r.Tiers {
			if IsBugTier(s.Name) {
				bugRow(s)
			}
		}
		for _, s := range r.BugRepos {
			bugRow(s)
		}
		bugRow(*r.BugOverall)
	}

	fmt.Fprintf(bw, "\n## Per fixture\n\n")
	fmt.Fprintf(bw, "| id | repo | tier | P@10 | R@10 | MRR | NDCG@10 | found | ms |\n|---|---|---|--:|--:|--:|--:|--:|--:|\n")
	for _, f := range r.Fixtures {
		fmt.Fprintf(bw, "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %d/%d | %.1f |\n",
			mdCell(f.ID), mdCell(f.Repo), mdCell(f.Tier), f.P10, f.R10, f.MRR, f.NDCG, len(f.Found), len(f.GroundTruth), f.LatencyMS)
	}

	fmt.Fprintf(bw, "\n## Zero-hit fixtures\n\n")
	zero := 0
	for _, f := range r.Fixtures {
		if !f.ZeroHit {
			continue
		}
		zero++
		fmt.Fprintf(bw, "### %s (%s, %s)\n\n", f.ID, f.Repo, f.Tier)
		fmt.Fprintf(bw, "> %s\n\n", strings.Join(strings.Fields(f.Description), " "))
		if f.Error != "" {
			fmt.Fprintf(bw, "Error: %s\n\n", mdCode(f.Error))
		}
		fmt.Fprintf(bw, "Ground truth:\n\n")
		for _, g := range f.GroundTruth {
			fmt.Fprintf(bw, "- %s\n", mdCode(g))
		}
		fmt.Fprintf(bw, "\nTop 5 returned (of %d):\n\n", f.Returned)
		if len(f.Top) == 0 {
			fmt.Fprintf(bw, "(nothing returned)\n")
		}
		for i, h := range f.Top {
			if i == 5 {
				break
			}
			fmt.Fprintf(bw, "%d. %s\n", h.Rank, mdCode(h.Name))
		}
		fmt.Fprintln(bw)
	}
	if zero == 0 {
		fmt.Fprintf(bw, "None.\n")
	}
	return bw.Flush()
}

// mdCode renders s as an inline code span.
func mdCode(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return "`` " + s + " ``"
}

// mdCell escapes s for a table cell.
func mdCell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// WriteJSON writes the report as indented JSON. The field names are the
// struct tags of Report, FixtureResult, Hit and Summary, all snake_case,
// and are stable: metrics are p_at_10, r_at_10, mrr, ndcg_at_10 (fractions
// in [0, 1]); latencies are latency_ms, latency_p50_ms, latency_p99_ms
// (milliseconds). Lists are never null.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("eval: reading report: %w", err)
	}
	return &r, nil
}
