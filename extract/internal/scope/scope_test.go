package scope

import "testing"

func TestTypeParams(t *testing.T) {
	var p TypeParams
	p = append(p, "T")
	mark := len(p)
	p = append(p, "K", "V")
	if !p.Has("T") || !p.Has("V") || p.Has("U") {
		t.Errorf("Has: %v", p)
	}
	p.Cut(mark)
	if p.Has("K") || !p.Has("T") {
		t.Errorf("after Cut: %v", p)
	}
}

func TestClassesInnermostFirst(t *testing.T) {
	var cs Classes[string]
	if cs.Top() != nil {
		t.Fatal("Top of no classes")
	}
	if _, ok := cs.Field("x"); ok {
		t.Fatal("a field outside any class")
	}
	outer := &Class[string]{Name: "Outer", Fields: map[string]string{"x": "Outer.X", "y": "Y"}}
	inner := &Class[string]{Name: "Inner", Fields: map[string]string{"x": "Inner.X"}}
	cs = append(cs, outer, inner)
	if cs.Top() != inner {
		t.Errorf("Top is %s", cs.Top().Name)
	}
	if v, _ := cs.Field("x"); v != "Inner.X" {
		t.Errorf("x is %q, want the inner class's", v)
	}
	if v, ok := cs.Field("y"); !ok || v != "Y" {
		t.Errorf("y is %q %v, want the outer class's", v, ok)
	}
	cs.Pop()
	if v, _ := cs.Field("x"); v != "Outer.X" || cs.Top() != outer {
		t.Errorf("after Pop: x is %q", v)
	}
}
