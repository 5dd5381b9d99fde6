package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// bodyRepo is a small Go package whose functions are named for what they
// are, not for the messages and variables their bodies use.
const bodyRepo = `package billing

import (
	"fmt"
	"math/rand"
	"time"
)

// Customer is a billed account.
type Customer struct {
	name        string
	used, limit int
}

// Charge bills a customer.
func Charge(c *Customer, cents int) error {
	if err := checkQuota(c); err != nil {
		return err
	}
	return post(c, cents)
}

func checkQuota(c *Customer) error {
	if c.used > c.limit {
		return fmt.Errorf("spending allowance exhausted for tenant %s", c.name)
	}
	return nil
}

func schedule(c *Customer) time.Duration {
	retryBackoffJitter := rand.Int63n(100)
	return time.Duration(retryBackoffJitter) * time.Millisecond
}

func post(c *Customer, cents int) error {
	c.used += cents
	return nil
}

// Refund returns money to a customer.
func Refund(c *Customer, cents int) error {
	c.used -= cents
	return nil
}

// Report describes a customer's usage of the tenant quota.
func Report(c *Customer) string {
	return fmt.Sprintf("%s: %d of %d", c.name, c.used, c.limit)
}
`

// bodySnapshot builds bodyRepo into a snapshot in a temporary folder.
func bodySnapshot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/billing\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "billing.go"), []byte(bodyRepo), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "b.snap")
	if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", repo, snap); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	return snap
}

// TestBodyEvidence finds a function by the error message it formats and
// by a variable only its body uses: words its name, signature and doc do
// not have.
func TestBodyEvidence(t *testing.T) {
	snap := bodySnapshot(t)
	first := func(task string) string {
		t.Helper()
		code, out, errs := knowing(t, "", "query", "--json", snap, task)
		if code != 0 {
			t.Fatalf("query %q: %s", task, errs)
		}
		var r struct {
			Results []struct{ Symbol string } `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 {
			return ""
		}
		return r.Results[0].Symbol
	}
	// A quoted error message: the body index ranks the function that
	// formats it first, and so does fusion.
	msg := `Error: "spending allowance exhausted for tenant acme"`
	code, out, errs := knowing(t, "", "why", "--json", snap, msg, "example.com/billing.checkQuota")
	if code != 0 {
		t.Fatalf("why: %s", errs)
	}
	var why struct {
		Explanations []struct {
			Channels []struct {
				Channel string
				Rank    int
			}
			FusedRank int `json:"fused_rank"`
		}
	}
	if err := json.Unmarshal([]byte(out), &why); err != nil || len(why.Explanations) != 1 {
		t.Fatalf("why --json: %v\n%s", err, out)
	}
	body := 0
	for _, c := range why.Explanations[0].Channels {
		if c.Channel == "body" {
			body = c.Rank
		}
	}
	if body != 1 || why.Explanations[0].FusedRank != 1 {
		t.Errorf("checkQuota for the message it formats: body channel rank %d, fused rank %d; want 1 and 1", body, why.Explanations[0].FusedRank)
	}

	// The same message quoted at the end of a long report, past the
	// words the name channels read: its words are searched as a message,
	// and the body channel ranks checkQuota first (without the message
	// reading, fourth).
	long := "Our nightly invoices run stopped working after the upgrade to the new release of the payment " +
		"provider, customers in three regions saw failed renewals, support tickets piled up over the weekend, " +
		"the dashboard showed nothing unusual and the operators restarted the workers twice before noticing " +
		`the log line "spending allowance exhausted for tenant acme"`
	bodyRank := func() int {
		t.Helper()
		code, out, errs := knowing(t, "", "why", "--json", snap, long, "example.com/billing.checkQuota")
		if code != 0 {
			t.Fatalf("why: %s", errs)
		}
		why.Explanations = nil
		if err := json.Unmarshal([]byte(out), &why); err != nil || len(why.Explanations) != 1 {
			t.Fatalf("why --json: %v\n%s", err, out)
		}
		for _, c := range why.Explanations[0].Channels {
			if c.Channel == "body" {
				return c.Rank
			}
		}
		return 0
	}
	if r := bodyRank(); r != 1 {
		t.Errorf("a long report quoting the message: body channel ranks checkQuota %d, want 1", r)
	}
	t.Setenv("KNOWING_TUNE", "bodyQuote=0")
	if r := bodyRank(); r == 1 {
		t.Errorf("without reading the message: body channel ranks checkQuota %d, want it lower (else the test shows nothing)", r)
	}
	t.Setenv("KNOWING_TUNE", "")

	// A variable only a body uses: the body channel finds the function,
	// and nothing else does.
	task := "the retry backoff jitter is far too large"
	if got := first(task); got != "example.com/billing.schedule" {
		t.Errorf("%q: first result %q, want example.com/billing.schedule", task, got)
	}
	t.Setenv("KNOWING_TUNE", "body=0")
	if got := first(task); got != "" {
		t.Errorf("%q without the body channel: first result %q, want none", task, got)
	}
}
