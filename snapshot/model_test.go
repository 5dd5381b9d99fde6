package snapshot

import "testing"

// The enumerations' names round-trip, and values or names outside them
// read as the unknown value.
func TestEnumNames(t *testing.T) {
	for k := Kind(0); k < numKinds; k++ {
		if got := ParseKind(k.String()); got != k {
			t.Errorf("ParseKind(%q) = %d, want %d", k.String(), got, k)
		}
	}
	for l := Lang(0); l < numLangs; l++ {
		if got := ParseLang(l.String()); got != l {
			t.Errorf("ParseLang(%q) = %d, want %d", l.String(), got, l)
		}
	}
	for e := EdgeType(0); e < numEdgeTypes; e++ {
		if got := ParseEdgeType(e.String()); got != e {
			t.Errorf("ParseEdgeType(%q) = %d, want %d", e.String(), got, e)
		}
	}
	if KindMethod.String() != "method" || LangCPP.String() != "cpp" || EdgeCoChange.String() != "co_change" {
		t.Errorf("names: %s %s %s", KindMethod, LangCPP, EdgeCoChange)
	}
	if s := numKinds.String(); s != "unknown" {
		t.Errorf("Kind(%d).String() = %q", numKinds, s)
	}
	if s := Lang(255).String(); s != "unknown" {
		t.Errorf("Lang(255).String() = %q", s)
	}
	if s := numEdgeTypes.String(); s != "unknown" {
		t.Errorf("EdgeType(%d).String() = %q", numEdgeTypes, s)
	}
	if ParseKind("Method") != KindUnknown || ParseLang("") != LangUnknown || ParseEdgeType("calls ") != EdgeUnknown {
		t.Error("a name outside the enumeration parsed as a known value")
	}
}
