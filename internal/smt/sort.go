package smt

// SortKind classifies sorts.
type SortKind uint8

const (
	KindBool          SortKind = iota + 1 // Bool
	KindInt                               // Int: the mathematical integers
	KindArray                             // (Array Index Elem)
	KindUninterpreted                     // a sort declared with declare-sort, arity 0
)

// A Sort is the type of a term. Sorts are interned: within one TermManager
// two sorts are equal exactly when their pointers are equal. BoolSort and
// IntSort are shared by every manager.
type Sort struct {
	kind        SortKind
	name        string // uninterpreted sorts: the declared name
	index, elem *Sort  // arrays
	id          int    // uninterpreted sorts: creation order within the manager
}

// The built-in sorts. They are immutable and shared by all managers.
var (
	BoolSort = &Sort{kind: KindBool}
	IntSort  = &Sort{kind: KindInt}
)

// Kind reports what kind of sort s is.
func (s *Sort) Kind() SortKind { return s.kind }

// IsBool reports whether s is Bool.
func (s *Sort) IsBool() bool { return s.kind == KindBool }

// IsInt reports whether s is Int.
func (s *Sort) IsInt() bool { return s.kind == KindInt }

// IsArray reports whether s is an array sort.
func (s *Sort) IsArray() bool { return s.kind == KindArray }

// Index returns the index sort of an array sort, nil otherwise.
func (s *Sort) Index() *Sort { return s.index }

// Elem returns the element sort of an array sort, nil otherwise.
func (s *Sort) Elem() *Sort { return s.elem }

// Name returns the name of an uninterpreted sort, "" otherwise.
func (s *Sort) Name() string { return s.name }

// String returns the sort in SMT-LIB2 syntax: Bool, Int, (Array Int Int), U.
func (s *Sort) String() string {
	switch s.kind {
	case KindBool:
		return "Bool"
	case KindInt:
		return "Int"
	case KindArray:
		return "(Array " + s.index.String() + " " + s.elem.String() + ")"
	case KindUninterpreted:
		return quoteSymbol(s.name)
	}
	return "?sort"
}

// ArraySort returns the interned sort (Array index elem).
func (tm *TermManager) ArraySort(index, elem *Sort) *Sort {
	k := [2]*Sort{index, elem}
	if s, ok := tm.arraySorts[k]; ok {
		return s
	}
	s := &Sort{kind: KindArray, index: index, elem: elem}
	tm.arraySorts[k] = s
	return s
}

// UninterpretedSort returns the uninterpreted sort called name, creating it
// on first use. Its values are abstract elements, printed (as @name_N name).
func (tm *TermManager) UninterpretedSort(name string) *Sort {
	if s, ok := tm.usorts[name]; ok {
		return s
	}
	s := &Sort{kind: KindUninterpreted, name: name, id: len(tm.usorts)}
	tm.usorts[name] = s
	return s
}

// LookupSort returns the uninterpreted sort called name, or nil.
func (tm *TermManager) LookupSort(name string) *Sort { return tm.usorts[name] }
