package server

// Base holds what every service shares.
type Base struct {
	name string
}

// Close releases the service.
func (b *Base) Close() error { return nil }
