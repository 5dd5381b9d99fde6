package store

// MemoryStore keeps items in a map; it implements Store.
type MemoryStore struct {
	items map[string]*Item
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{items: map[string]*Item{}}
}

// Get looks an item up by id.
func (m *MemoryStore) Get(id string) (*Item, error) {
	it, ok := m.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return it, nil
}

// Put stores an item.
func (m *MemoryStore) Put(it *Item) error {
	m.items[it.ID] = it
	return nil
}
