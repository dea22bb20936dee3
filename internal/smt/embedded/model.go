package embedded

import (
	"cmp"
	"errors"
	"slices"

	"birch/internal/smt"
	"birch/internal/smt/lia"
)

// Model returns a model of the assertions after Sat.
func (s *Solver) Model() (*smt.Model, error) {
	if s.status != smt.Sat {
		return nil, errors.New("embedded: no model: the last check did not answer sat")
	}
	if s.model != nil {
		return s.model, nil
	}
	b := &modelBuilder{s: s, m: smt.NewModel(s.tm)}
	if err := b.build(); err != nil {
		return nil, err
	}
	s.model = b.m
	return b.m, nil
}

// modelBuilder turns the SAT and simplex assignment into an smt.Model.
type modelBuilder struct {
	s *Solver
	m *smt.Model
	// abstract values of the uninterpreted sorts: integer -> index
	uvals map[*smt.Sort]map[string]int
}

// value converts the integer q (floored: variables in no asserted bound
// may keep a fractional value, and any value does for them) to a value of
// sort srt: an integer, or an abstract value of an uninterpreted sort.
func (b *modelBuilder) value(srt *smt.Sort, q lia.Q) *smt.Term {
	q = q.Floor()
	if srt.Kind() != smt.KindUninterpreted {
		return b.s.tm.BigInt(q.Num())
	}
	if b.uvals == nil {
		b.uvals = map[*smt.Sort]map[string]int{}
	}
	vs := b.uvals[srt]
	if vs == nil {
		vs = map[string]int{}
		b.uvals[srt] = vs
	}
	k := q.String()
	i, ok := vs[k]
	if !ok {
		i = len(vs)
		vs[k] = i
	}
	return b.s.tm.Value(srt, i)
}

func (b *modelBuilder) linValue(l *lin) lia.Q {
	v := l.c
	for _, t := range l.ts {
		v = v.Add(t.C.Mul(b.s.th.lp.Value(t.V)))
	}
	return v
}

func (b *modelBuilder) elemValue(a *arrTerm, e elemVal) *smt.Term {
	if a.boolElem {
		return b.s.tm.Bool(b.s.sat.ModelLit(e.lit))
	}
	return b.value(a.t.Sort().Elem(), b.linValue(e.l))
}

func (b *modelBuilder) build() error {
	s, m, tm := b.s, b.m, b.s.tm
	var syms []*smt.Symbol
	for sym := range s.bvars {
		syms = append(syms, sym)
	}
	for sym := range s.ivars {
		syms = append(syms, sym)
	}
	slices.SortFunc(syms, func(x, y *smt.Symbol) int { return cmp.Compare(x.ID(), y.ID()) })
	for _, sym := range syms {
		var v *smt.Term
		if x, ok := s.bvars[sym]; ok {
			v = tm.Bool(s.sat.ModelValue(x))
		} else {
			v = b.value(sym.Result(), s.th.lp.Value(s.ivars[sym]))
		}
		if err := m.SetConst(sym, v); err != nil {
			return err
		}
	}

	// Arrays: each active base array maps the value of each active index
	// to its element there, and the other indices to its element at ω (or
	// to the default). Index terms and function applications are evaluated
	// innermost first, so that each sees the tables built so far.
	as := &s.ar
	cur := map[*arrTerm]*smt.Term{}
	readers := map[*idxTerm][]*arrTerm{}
	for _, a := range as.actArrs {
		if a.kind != arrBase {
			continue
		}
		srt := a.t.Sort()
		def := tm.Default(srt.Elem())
		if a.om != nil {
			def = b.elemValue(a, s.elem(a, a.om))
		}
		cur[a] = tm.ConstArray(srt, def)
		if err := m.SetConst(a.t.Symbol(), cur[a]); err != nil {
			return err
		}
		for _, j := range a.rd {
			readers[j] = append(readers[j], a)
		}
	}
	setIndex := func(j *idxTerm, val *smt.Term) error {
		for _, a := range readers[j] {
			cur[a] = tm.Store(cur[a], val, b.elemValue(a, s.elem(a, j)))
			if err := m.SetConst(a.t.Symbol(), cur[a]); err != nil {
				return err
			}
		}
		return nil
	}
	type event struct {
		id  uint32
		app *app
		idx *idxTerm
	}
	var evs []event
	for _, j := range as.actIdxs {
		if j.t == nil { // witnesses and ω: fresh integers
			if err := setIndex(j, b.value(j.sort, b.linValue(j.l))); err != nil {
				return err
			}
			continue
		}
		evs = append(evs, event{id: j.t.ID(), idx: j})
	}
	for _, a := range s.appList {
		if a.t.IsBool() {
			if s.relMark[a.lit.Var()] != s.relGen {
				continue
			}
		} else if int(a.x) >= len(s.relLia) || s.relLia[a.x] != s.relGen {
			continue
		}
		evs = append(evs, event{id: a.t.ID(), app: a})
	}
	// by term, and an application before its use as an index
	slices.SortFunc(evs, func(x, y event) int {
		if c := cmp.Compare(x.id, y.id); c != 0 {
			return c
		}
		switch {
		case x.app != nil && y.app == nil:
			return -1
		case x.app == nil && y.app != nil:
			return 1
		}
		return 0
	})
	tables := map[*smt.Symbol]*smt.FuncValue{}
	for _, ev := range evs {
		if j := ev.idx; j != nil {
			val, err := m.Eval(j.t)
			if err != nil {
				return err
			}
			if err := setIndex(j, val); err != nil {
				return err
			}
			continue
		}
		a := ev.app
		var res *smt.Term
		if a.t.IsBool() {
			res = tm.Bool(s.sat.ModelLit(a.lit))
		} else {
			res = b.value(a.t.Sort(), s.th.lp.Value(a.x))
		}
		args := make([]*smt.Term, a.t.NumArgs())
		for i, x := range a.t.Args() {
			v, err := m.Eval(x)
			if err != nil {
				return err
			}
			args[i] = v
		}
		sym := a.t.Symbol()
		fv := tables[sym]
		if fv == nil {
			fv = &smt.FuncValue{}
			tables[sym] = fv
			m.SetFunc(sym, fv)
		}
		if !slices.ContainsFunc(fv.Entries, func(e smt.FuncEntry) bool { return slices.Equal(e.Args, args) }) {
			fv.Entries = append(fv.Entries, smt.FuncEntry{Args: args, Value: res})
		}
	}
	return nil
}
