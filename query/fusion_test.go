package query

import "testing"

func TestInterfaceImplementorsSeeded(t *testing.T) {
	e := newShop().engine(t)
	r := query(t, e, "change the Store interface")
	if rankOf(r, "store.Store") == 0 || rankOf(r, "store.MemoryStore") == 0 {
		t.Errorf("interface or its implementation missing: %v", symbols(r))
	}
}
