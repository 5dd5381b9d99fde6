package server

import (
	"testing"

	"example.com/shop/store"
)

func TestServer_HandleGet(t *testing.T) {
	s := New(store.NewMemoryStore())
	if got := s.HandleGet("missing"); got != "" {
		t.Fatalf("got %q", got)
	}
}
