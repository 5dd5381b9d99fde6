// Package scope keeps what the Java and C# extractors know of the names
// in scope while they walk a file: the type parameters of the enclosing
// declarations and the enclosing classes with the static types of their
// fields, under the local variables of the code. Both languages declare fields in class bodies and type
// parameters on classes and methods, and look names up the same way,
// innermost first; what a type is (T) is each extractor's own.
//
// It imports only the standard library; only the Java and C# extractors use
// it.
package scope

// TypeParams are the type parameters in scope, innermost last. An
// extractor appends a declaration's own and cuts them off when the
// declaration ends:
//
//	mark := len(x.tparams)
//	x.tparams = append(x.tparams, "T")
//	defer x.tparams.Cut(mark)
type TypeParams []string

// Has reports whether name is a type parameter in scope.
func (p TypeParams) Has(name string) bool {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == name {
			return true
		}
	}
	return false
}

// Cut drops the type parameters past mark, a length p had before.
func (p *TypeParams) Cut(mark int) { *p = (*p)[:mark] }

// Class is a class (struct, record, interface, enum) while its members are
// extracted.
type Class[T any] struct {
	Sym    int32        // its symbol
	Name   string       // its name
	Base   string       // its base class as written, or ""
	Fields map[string]T // the static types of its fields (and C# properties)
}

// Classes are the classes enclosing the code being extracted, innermost
// last.
type Classes[T any] []*Class[T]

// Top is the innermost class, or nil outside any.
func (cs Classes[T]) Top() *Class[T] {
	if len(cs) == 0 {
		return nil
	}
	return cs[len(cs)-1]
}

// Field is the type of the field name of an enclosing class, innermost
// first, and whether there is one.
func (cs Classes[T]) Field(name string) (T, bool) {
	for i := len(cs) - 1; i >= 0; i-- {
		if v, ok := cs[i].Fields[name]; ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// Var is the type of the variable name where code is: a local variable
// of locals, else a field of an enclosing class, innermost first.
func Var[T any](locals map[string]T, cs Classes[T], name string) (T, bool) {
	if v, ok := locals[name]; ok {
		return v, true
	}
	return cs.Field(name)
}

// Pop drops the innermost class.
func (cs *Classes[T]) Pop() { *cs = (*cs)[:len(*cs)-1] }
