package server

import (
	"fmt"

	"example.com/shop/store"
)

// Server answers catalogue requests over HTTP.
type Server struct {
	*Base
	store store.Store
}

// New makes a server over a store.
func New(s store.Store) *Server {
	return &Server{Base: &Base{name: "shop"}, store: s}
}

// HandleGet fetches one item and reports it.
func (s *Server) HandleGet(id string) string {
	it, err := s.store.Get(id)
	if err != nil {
		s.logf("get %s: %v", id, err)
		return ""
	}
	return render(it)
}

func (s *Server) logf(format string, args ...any) {
	fmt.Printf(format, args...)
}

func render(it *store.Item) string {
	return fmt.Sprintf("%s: %d", it.ID, it.Price)
}
