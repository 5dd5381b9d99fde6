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

func TestVarLocalsFirst(t *testing.T) {
	cs := Classes[string]{{Name: "C", Fields: map[string]string{"a": "field", "b": "field"}}}
	locals := map[string]string{"a": "local"}
	if v, _ := Var(locals, cs, "a"); v != "local" {
		t.Errorf("a is the %s, want the local", v)
	}
	if v, ok := Var(locals, cs, "b"); !ok || v != "field" {
		t.Errorf("b is %q %v, want the field", v, ok)
	}
	if _, ok := Var[string](nil, nil, "a"); ok {
		t.Error("a variable in no scope")
	}
}
