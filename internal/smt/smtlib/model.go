package smtlib

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"birch/internal/smt"
)

// ReadModel reads a solver's answer to get-model — a list of define-fun
// (optionally headed by the symbol model, as older solvers print it) — and
// returns the model it gives to the symbols e knows (e.Symbols).
//
// It understands what z3 and cvc5 print: abstract values declared in the
// model (z3: (declare-fun U!val!0 () U)) or written (as @U_0 U) (cvc5);
// auxiliary functions such as z3's div0 and k!3, which are expanded where
// they are used; arrays given as (_ as-array k!3) when k!3 is a table;
// comments and cardinality constraints, which are skipped. e is not
// modified.
func ReadModel(e *Elaborator, text string) (*smt.Model, error) {
	nodes, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if len(nodes) != 1 || nodes[0].Kind != List {
		return nil, fmt.Errorf("smt: malformed model: %.80s", text)
	}
	items := nodes[0].Kids
	if len(items) > 0 && items[0].IsSymbol("model") {
		items = items[1:]
	}
	tm := e.TM
	me := &Elaborator{TM: tm, Symbols: e.Symbols, Sorts: e.Sorts, Defs: map[string]*Def{}}
	values := map[string]*smt.Term{}
	next := map[*smt.Sort]int{}
	me.Atom = func(name string) *smt.Term {
		if v, ok := values[name]; ok {
			return v
		}
		// z3 names abstract values U!val!3 and does not always declare them.
		if i := strings.LastIndex(name, "!val!"); i > 0 {
			if s, ok := e.Sorts[name[:i]]; ok {
				if k, err := strconv.Atoi(name[i+5:]); err == nil && k >= 0 {
					return tm.Value(s, k)
				}
			}
		}
		return nil
	}
	type fun struct {
		node   *Node
		params []*smt.Sort
		names  []string
		result *smt.Sort
		body   *Node
	}
	var user, aux []*fun
	for _, it := range items {
		switch it.Head() {
		case "declare-fun":
			// An abstract value: (declare-fun U!val!0 () U).
			if len(it.Kids) != 4 || it.Kids[1].Kind != Symbol || it.Kids[2].Kind != List || len(it.Kids[2].Kids) != 0 {
				continue
			}
			s, err := me.Sort(it.Kids[3])
			if err != nil || s.Kind() != smt.KindUninterpreted {
				continue
			}
			name := it.Kids[1].Text
			k := -1
			if i := strings.LastIndex(name, "!val!"); i >= 0 {
				if n, err := strconv.Atoi(name[i+5:]); err == nil {
					k = n
				}
			}
			if k < 0 {
				k = 1<<20 + next[s]
				next[s]++
			}
			values[name] = tm.Value(s, k)
		case "define-fun":
			if len(it.Kids) != 5 || it.Kids[1].Kind != Symbol || it.Kids[2].Kind != List {
				return nil, errorAt(it, "malformed define-fun in model")
			}
			f := &fun{node: it, body: it.Kids[4]}
			var err error
			if f.result, err = me.Sort(it.Kids[3]); err != nil {
				return nil, err
			}
			for _, p := range it.Kids[2].Kids {
				if p.Kind != List || len(p.Kids) != 2 || p.Kids[0].Kind != Symbol {
					return nil, errorAt(p, "malformed parameter in model")
				}
				s, err := me.Sort(p.Kids[1])
				if err != nil {
					return nil, err
				}
				f.params = append(f.params, s)
				f.names = append(f.names, p.Kids[0].Text)
			}
			if _, ok := e.Symbols[it.Kids[1].Text]; ok {
				user = append(user, f)
			} else {
				aux = append(aux, f)
			}
		}
	}
	elabBody := func(f *fun) (*smt.Term, error) {
		env := map[string]*smt.Term{}
		for i, name := range f.names {
			env[name] = tm.Bound(i, f.params[i])
		}
		if f.body.Head() == "_" && len(f.body.Kids) == 3 && f.body.Kids[1].IsSymbol("as-array") {
			d, ok := me.Defs[f.body.Kids[2].Text]
			if !ok || !f.result.IsArray() {
				return nil, errorAt(f.body, "cannot read array %s", f.body)
			}
			return arrayFromFunc(tm, f.result, d.Body)
		}
		if f.body.Head() == "lambda" && len(f.body.Kids) == 3 && f.result.IsArray() {
			ps := f.body.Kids[1]
			if ps.Kind != List || len(ps.Kids) != 1 || ps.Kids[0].Kind != List || len(ps.Kids[0].Kids) != 2 {
				return nil, errorAt(ps, "malformed lambda")
			}
			body, err := me.Term(f.body.Kids[2], map[string]*smt.Term{ps.Kids[0].Kids[0].Text: tm.Bound(0, f.result.Index())})
			if err != nil {
				return nil, err
			}
			return arrayFromFunc(tm, f.result, body)
		}
		t, err := me.Term(f.body, env)
		if err != nil {
			return nil, err
		}
		if t.Sort() != f.result {
			return nil, errorAt(f.body, "value of sort %s, expected %s", t.Sort(), f.result)
		}
		return t, nil
	}
	// Auxiliary definitions may refer to each other in any order: elaborate
	// until no more succeed. Those that never do are left out; a user
	// symbol that needs one fails below.
	for progress := true; progress; {
		progress = false
		rest := aux[:0]
		for _, f := range aux {
			body, err := elabBody(f)
			if err != nil {
				rest = append(rest, f)
				continue
			}
			me.Defs[f.node.Kids[1].Text] = &Def{Name: f.node.Kids[1].Text, Params: f.params, Result: f.result, Body: body}
			progress = true
		}
		aux = rest
	}
	m := smt.NewModel(tm)
	for _, f := range user {
		sym := e.Symbols[f.node.Kids[1].Text]
		if len(sym.Params()) != len(f.params) || sym.Result() != f.result {
			return nil, errorAt(f.node, "model gives %s another sort", sym)
		}
		body, err := elabBody(f)
		if err != nil {
			return nil, err
		}
		if len(f.params) == 0 {
			if err := m.SetConst(sym, body); err != nil {
				return nil, err
			}
			continue
		}
		m.SetFunc(sym, &smt.FuncValue{Body: body})
	}
	return m, nil
}

// arrayFromFunc turns a one-parameter function body into an array value,
// when the body looks at its parameter x!0 only through equalities with
// literals c1 … cn: then the array stores the body's value at each ci over
// the constant array of its value elsewhere. That covers z3's tables
// (ite (= x!0 1) 9 …) and lambdas such as (lambda ((x Int)) (= x 3)).
func arrayFromFunc(tm *smt.TermManager, s *smt.Sort, body *smt.Term) (*smt.Term, error) {
	if len(smt.Symbols(body)) > 0 {
		return nil, fmt.Errorf("smt: cannot read array from %s", body)
	}
	var points []*smt.Term
	seen := map[*smt.Term]bool{}
	ok := true
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if seen[t] || !ok {
			return
		}
		seen[t] = true
		if t.Op() == smt.OpBound {
			ok = false // a use other than (= x!0 c)
			return
		}
		if t.Op() == smt.OpEq {
			a, b := t.Arg(0), t.Arg(1)
			if b.Op() == smt.OpBound {
				a, b = b, a
			}
			if a.Op() == smt.OpBound {
				if a.Index() != 0 || !b.IsConst() {
					ok = false
					return
				}
				points = append(points, b)
				return
			}
		}
		for _, a := range t.Args() {
			walk(a)
		}
	}
	walk(body)
	if !ok {
		return nil, fmt.Errorf("smt: cannot read array from %s", body)
	}
	// A point different from every ci.
	var fresh *smt.Term
	switch idx := s.Index(); idx.Kind() {
	case smt.KindInt:
		max := big.NewInt(0)
		for _, p := range points {
			if v := p.BigInt(); v.Cmp(max) > 0 {
				max = v
			}
		}
		fresh = tm.BigInt(max.Add(max, big.NewInt(1)))
	case smt.KindUninterpreted:
		k := 0
		for _, p := range points {
			if p.Index() >= k {
				k = p.Index() + 1
			}
		}
		fresh = tm.Value(idx, k)
	case smt.KindBool:
		points = []*smt.Term{tm.False(), tm.True()}
	default:
		return nil, fmt.Errorf("smt: cannot read array of sort %s", s)
	}
	empty := smt.NewModel(tm)
	at := func(i *smt.Term) (*smt.Term, error) { return empty.Eval(tm.SubstituteBound(body, []*smt.Term{i})) }
	def := tm.Default(s.Elem())
	if fresh != nil {
		var err error
		if def, err = at(fresh); err != nil {
			return nil, err
		}
	}
	arr := tm.ConstArray(s, def)
	for _, p := range points {
		v, err := at(p)
		if err != nil {
			return nil, err
		}
		arr = tm.Store(arr, p, v)
	}
	return empty.Eval(arr)
}
