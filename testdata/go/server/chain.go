package server

import (
	"strings"

	"example.com/shop/store"
)

// Query builds a lookup step by step; each step returns the query.
type Query struct {
	id    string
	limit int
}

// NewQuery starts a query.
func NewQuery(id string) *Query { return &Query{id: id, limit: 1} }

// Limit caps the results.
func (q *Query) Limit(n int) *Query {
	q.limit = n
	return q
}

// Run performs the lookup.
func (q *Query) Run(s store.Store) (*store.Item, error) { return s.Get(q.id) }

// Len is a function of this package that only shares a method's name.
func Len(s string) int { return len(s) }

// Lookup chains the builder, calls a method through a type assertion, and
// calls a method of a library's result, which no function here may claim.
func Lookup(s store.Store, v any, id string) int {
	it, _ := NewQuery(id).Limit(2).Run(s)
	_ = it
	v.(store.Store).Put(nil)
	return strings.NewReader(id).Len()
}
