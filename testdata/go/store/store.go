// Package store keeps catalogue items.
package store

import "errors"

// ErrNotFound is returned when an item does not exist.
var ErrNotFound = errors.New("not found")

// Item is one catalogue entry.
type Item struct {
	ID    string
	Price int
}

// Store persists items.
type Store interface {
	Get(id string) (*Item, error)
	Put(it *Item) error
}
