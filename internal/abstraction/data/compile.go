package data

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"time"

	"birch/internal/abstraction/data/basl"
	"birch/internal/smt"
	"birch/internal/source"
)

// Config says how abstractions are checked and their tables synthesized.
// The zero value uses the embedded solver with DefaultSteps.
type Config struct {
	// Solver names the decision procedure (see package smt/solvers): ""
	// or "embedded" (the default), "z3", "cvc5".
	Solver string
	// Steps bounds the solver's work on each query; 0 means DefaultSteps.
	Steps int64
	// Context, when not nil, stops the solver's queries once it is done
	// (they answer unknown; z3 and cvc5 are killed): birch check's limits.
	Context context.Context
	// QueryTimeout bounds the wall-clock time of each query of z3 or cvc5;
	// 0 means DefaultQueryTimeout. The embedded solver is bounded by Steps
	// alone, which keeps its tables reproducible.
	QueryTimeout time.Duration
}

// DefaultQueryTimeout is the wall-clock bound of one query of an external
// solver. Steps (z3's rlimit) is the bound meant to decide; this is the
// backstop for a solver that does not check it often enough (z3 spent over
// 14 minutes on one nonlinear % query of modulo(4) with the rlimit set).
// A query it stops answers unknown: its tokens stay undecided, which is
// sound (an over-approximation), and the abstraction gets a warning.
const DefaultQueryTimeout = time.Minute

// maxValues is how many integers a token may stand for and still have
// them listed in Token.Values (and enumerated by the synthesis).
const maxValues = 64

// reserved names cannot be tokens: they mean something in tables.
var reserved = map[string]bool{"_": true, "T": true, "TRUE": true, "FALSE": true, "true": true, "false": true}

// integralTypes are the types an abstraction may abstract.
var integralTypes = map[string]bool{"int": true, "integral": true, "long": true, "short": true, "byte": true}

// ParseFile parses a BASL source and compiles every abstraction in it. The
// error, when not nil, is a sorted source.ErrorList; the abstractions that
// compiled are returned even then.
func ParseFile(fset *source.FileSet, filename string, src []byte, cfg Config) ([]*Abstraction, error) {
	f, err := basl.ParseFile(fset, filename, src, 0)
	if err != nil {
		return nil, err
	}
	var out []*Abstraction
	var errs source.ErrorList
	seen := map[string]source.Position{}
	for _, spec := range f.Abstractions {
		pos := fset.Position(spec.Name.Pos)
		if prev, dup := seen[spec.Name.Name]; dup {
			errs.Addf(pos, "abstraction %s already defined at %s", spec.Name.Name, prev)
			continue
		}
		seen[spec.Name.Name] = pos
		a, err := Compile(fset, spec, filename, cfg)
		if err != nil {
			if l, ok := err.(source.ErrorList); ok {
				errs = append(errs, l...)
			} else {
				errs.Add(pos, err.Error())
			}
			continue
		}
		out = append(out, a)
	}
	errs.Sort()
	return out, errs.Err()
}

// compiler holds the state of compiling one abstraction.
type compiler struct {
	fset   *source.FileSet
	spec   *basl.Abstraction
	a      *Abstraction
	errs   source.ErrorList
	consts map[string]*big.Int
	pr     *prover
	sample []*big.Int // an integer of each token
	cands  []*big.Int // small integers tried before the solver, in order
	tokOf  []int      // the token of each candidate
}

func (c *compiler) errorf(pos source.Pos, format string, args ...any) {
	c.errs.Addf(c.fset.Position(pos), format, args...)
}

func (c *compiler) warnf(pos source.Pos, format string, args ...any) {
	c.a.Warnings.Addf(c.fset.Position(pos), format, args...)
}

// Compile checks one parsed abstraction — names, the abstraction function
// (with the solver: it must map every integer to exactly one token), the
// given tables (complete and sound) — and synthesizes the operators and
// tests it leaves out. Errors are a sorted source.ErrorList.
func Compile(fset *source.FileSet, spec *basl.Abstraction, origin string, cfg Config) (*Abstraction, error) {
	c := &compiler{fset: fset, spec: spec, consts: map[string]*big.Int{}}
	c.a = &Abstraction{Name: spec.Name.Name, Origin: origin, Default: -1}
	c.resolve()
	if c.errs.Err() != nil {
		c.errs.Sort()
		return nil, c.errs
	}
	pr, err := newProver(c.a, cfg)
	if err != nil {
		return nil, err
	}
	defer pr.close()
	c.pr = pr
	c.checkFunction()
	if c.errs.Err() == nil {
		c.tokenFacts()
	}
	if c.errs.Err() == nil {
		c.tables()
	}
	c.a.queries = pr.queries
	if pr.failed != nil {
		c.warnf(spec.Pos, "the solver failed: %v (its questions were treated as undecided)", pr.failed)
	}
	if c.errs.Err() != nil {
		c.errs.Sort()
		return nil, c.errs
	}
	c.a.Warnings.Sort()
	return c.a, nil
}

// resolve checks names: the heading, the tokens, DEFAULT, ONE2ONE and the
// abstraction function's conditions, which it compiles.
func (c *compiler) resolve() {
	spec, a := c.spec, c.a
	if !integralTypes[spec.Type.Name] {
		c.errorf(spec.Type.Pos, "cannot abstract %s: only integral types (int, integral) can be abstracted", spec.Type.Name)
	}
	if !spec.TokensPos.IsValid() {
		c.errorf(spec.Name.Pos, "abstraction %s has no TOKENS", spec.Name.Name)
	}
	index := map[string]int{}
	for _, t := range spec.Tokens {
		switch {
		case reserved[t.Name]:
			c.errorf(t.Pos, "%s cannot be a token: it is reserved", t.Name)
		case index[t.Name] > 0:
			c.errorf(t.Pos, "token %s declared twice", t.Name)
		default:
			a.Tokens = append(a.Tokens, Token{Name: t.Name})
			index[t.Name] = len(a.Tokens)
		}
	}
	if spec.TokensPos.IsValid() && len(spec.Tokens) == 0 {
		c.errorf(spec.TokensPos, "TOKENS is empty")
	}
	if len(a.Tokens) > MaxTokens {
		c.errorf(spec.TokensPos, "too many tokens: %d (at most %d)", len(a.Tokens), MaxTokens)
		return
	}
	token := func(id *basl.Ident) int {
		if i := index[id.Name]; i > 0 {
			return i - 1
		}
		c.errorf(id.Pos, "undefined token %s", id.Name)
		return -1
	}
	if spec.Default != nil {
		a.Default = token(spec.Default)
	}
	for _, id := range spec.One2One {
		if k := token(id); k >= 0 {
			a.One2One = a.One2One.With(k)
		}
	}
	if spec.Func == nil {
		c.errorf(spec.Name.Pos, "abstraction %s has no abstraction function (abstract(n) begin … end)", spec.Name.Name)
		return
	}
	a.Param = spec.Func.Param.Name
	cc := &condCompiler{fset: c.fset, param: a.Param, errs: &c.errs, moduli: map[int64]bool{}, consts: c.consts}
	for _, r := range spec.Func.Rules {
		e := cc.compileBool(r.Cond)
		k := token(r.Token)
		if e == nil || k < 0 {
			continue
		}
		a.Rules = append(a.Rules, Rule{Cond: basl.ExprString(r.Cond), Token: k, Pos: c.fset.Position(r.Cond.Position()), cond: e})
	}
	if len(spec.Func.Rules) == 0 {
		c.errorf(spec.Func.Pos, "the abstraction function has no rules")
	}
	for m := range cc.moduli {
		if m <= 32 {
			a.moduli = append(a.moduli, m)
		}
	}
	sort.Slice(a.moduli, func(i, j int) bool { return a.moduli[i] < a.moduli[j] })
}

// setCandidates computes the small integers tried before asking the
// solver: around zero, around every constant of the conditions (and its
// negation) and, once known, around every token's bounds and values. They
// are ordered by absolute value, positive first, so that witnesses in
// messages are the simplest ones.
func (c *compiler) setCandidates() {
	set := map[int64]bool{}
	add := func(v *big.Int, spread int64) {
		if !v.IsInt64() {
			return
		}
		x := v.Int64()
		if x > 1<<40 || x < -(1<<40) {
			return
		}
		for d := -spread; d <= spread; d++ {
			set[x+d] = true
		}
	}
	add(big.NewInt(0), 8)
	for _, k := range c.consts {
		add(k, 2)
		add(new(big.Int).Neg(k), 2)
		add(new(big.Int).Mul(k, big.NewInt(2)), 1)
		add(new(big.Int).Mul(k, big.NewInt(-2)), 1)
	}
	for _, t := range c.a.Tokens {
		if t.Lo != nil {
			add(t.Lo, 1)
		}
		if t.Hi != nil {
			add(t.Hi, 1)
		}
		for i, v := range t.Values {
			if i == 8 {
				break
			}
			add(v, 0)
		}
	}
	vals := make([]int64, 0, len(set))
	for v := range set {
		vals = append(vals, v)
	}
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	sort.Slice(vals, func(i, j int) bool {
		if abs(vals[i]) != abs(vals[j]) {
			return abs(vals[i]) < abs(vals[j])
		}
		return vals[i] > vals[j]
	})
	if len(vals) > 160 {
		vals = vals[:160]
	}
	c.cands = c.cands[:0]
	c.tokOf = c.tokOf[:0]
	for _, v := range vals {
		b := big.NewInt(v)
		c.cands = append(c.cands, b)
		c.tokOf = append(c.tokOf, c.a.Abstract(b))
	}
}

// checkFunction checks that the rules of different tokens never overlap,
// that every integer has a rule and that every token stands for some
// integer, with a witness for each failure: a small candidate when one
// shows it, a model of the solver otherwise.
func (c *compiler) checkFunction() {
	a, pr, tm := c.a, c.pr, c.pr.tm
	c.setCandidates()
	n := pr.v("n")
	rules := c.spec.Func.Rules
	// Overlaps, between rules of different tokens.
	for j := range a.Rules {
		for i := range j {
			ri, rj := &a.Rules[i], &a.Rules[j]
			if ri.Token == rj.Token {
				continue
			}
			var w *big.Int
			for _, v := range c.cands {
				if ri.cond.holds(v) && rj.cond.holds(v) {
					w = v
					break
				}
			}
			if w == nil {
				r, vals := pr.splitCheck([]string{"n"}, []int{-1}, func(rs []*residue) []*smt.Term {
					return []*smt.Term{pr.ruleRes(i, n, rs[0]), pr.ruleRes(j, n, rs[0])}
				})
				switch r {
				case smt.Unsat:
					continue
				case smt.Unknown:
					c.errorf(rules[j].Cond.Position(), "cannot decide whether this condition overlaps the one at line %d (the solver answered unknown)", ri.Pos.Line)
					continue
				}
				w = vals[0]
			}
			c.errorf(rules[j].Cond.Position(), "conditions overlap: %s = %s satisfies this one (%s) and the one at line %d (%s)",
				a.Param, w, a.Tokens[rj.Token].Name, ri.Pos.Line, a.Tokens[ri.Token].Name)
		}
	}
	// Exhaustiveness.
	var w *big.Int
	for i, v := range c.cands {
		if c.tokOf[i] < 0 {
			w = v
			break
		}
	}
	if w == nil {
		r, vals := pr.splitCheck([]string{"n"}, []int{-1}, func(rs []*residue) []*smt.Term {
			var any []*smt.Term
			for i := range a.Rules {
				any = append(any, pr.ruleRes(i, n, rs[0]))
			}
			return []*smt.Term{tm.Not(tm.Or(any...))}
		})
		switch r {
		case smt.Sat:
			w = vals[0]
		case smt.Unknown:
			c.errorf(c.spec.Func.Pos, "cannot decide whether the abstraction function covers every integer (the solver answered unknown)")
		}
	}
	if w != nil {
		c.errorf(c.spec.Func.Pos, "the abstraction function is not exhaustive: no rule applies to %s = %s", a.Param, w)
	}
	// Tokens without integers.
	c.sample = make([]*big.Int, len(a.Tokens))
	for k := range a.Tokens {
		pos := c.spec.Tokens[k].Pos
		hasRule := false
		for _, r := range a.Rules {
			hasRule = hasRule || r.Token == k
		}
		if !hasRule {
			c.errorf(pos, "token %s has no rule in the abstraction function", a.Tokens[k].Name)
			continue
		}
		var v *big.Int
		for i, x := range c.cands {
			if c.tokOf[i] == k {
				v = x
				break
			}
		}
		if v == nil {
			r, vals := pr.splitCheck([]string{"n"}, []int{k}, func(rs []*residue) []*smt.Term {
				return []*smt.Term{pr.phiRes(k, n, rs[0])}
			})
			switch r {
			case smt.Unsat:
				c.errorf(pos, "token %s stands for no integer: its conditions are unsatisfiable", a.Tokens[k].Name)
				continue
			case smt.Unknown:
				c.errorf(pos, "cannot decide whether token %s stands for any integer (the solver answered unknown)", a.Tokens[k].Name)
				continue
			default:
				v = vals[0]
			}
		}
		c.sample[k] = v
	}
}

// tokenFacts finds for each token an integer it stands for, its bounds
// and, when they are few, all its integers; it checks ONE2ONE and fills in
// DEFAULT.
func (c *compiler) tokenFacts() {
	a, pr := c.a, c.pr
	for k := range a.Tokens {
		t := &a.Tokens[k]
		v := c.sample[k]
		if lo, err := pr.bound(k, v, true); err == nil {
			t.Lo = lo
		}
		if hi, err := pr.bound(k, v, false); err == nil {
			t.Hi = hi
		}
		if t.Lo != nil && t.Hi != nil && new(big.Int).Sub(t.Hi, t.Lo).Cmp(big.NewInt(maxValues)) < 0 {
			for x := new(big.Int).Set(t.Lo); x.Cmp(t.Hi) <= 0; x = new(big.Int).Add(x, big.NewInt(1)) {
				if a.Abstract(x) == k {
					t.Values = append(t.Values, x)
				}
			}
		}
	}
	if c.errs.Err() != nil {
		return
	}
	for k := range a.Tokens {
		if !a.One2One.Has(k) {
			continue
		}
		t := &a.Tokens[k]
		if t.Single() {
			continue
		}
		var pos source.Pos
		for _, id := range c.spec.One2One {
			if id.Name == t.Name {
				pos = id.Pos
			}
		}
		switch {
		case len(t.Values) > 1:
			c.errorf(pos, "ONE2ONE token %s stands for more than one integer (%s and %s)", t.Name, t.Values[0], t.Values[1])
		case t.Lo != nil:
			c.errorf(pos, "ONE2ONE token %s stands for more than one integer (%s and more)", t.Name, t.Lo)
		case t.Hi != nil:
			c.errorf(pos, "ONE2ONE token %s stands for more than one integer (%s and more)", t.Name, t.Hi)
		default:
			c.errorf(pos, "ONE2ONE token %s stands for infinitely many integers", t.Name)
		}
	}
	if a.Default < 0 {
		a.Default = a.Abstract(new(big.Int))
	}
	c.setCandidates()
}

func (c *compiler) tables() {
	c.givenTables()
	if c.errs.Err() != nil {
		return
	}
	s := &synth{c: c}
	for op := range NumOps {
		if c.a.Ops[op] == nil {
			c.a.Ops[op] = s.operator(Op(op))
		}
	}
	for t := range NumTests {
		if c.a.Tests[t] == nil {
			c.a.Tests[t] = s.test(Test(t))
		}
	}
}

var opOfKind = map[basl.Kind]Op{basl.ADD: Add, basl.SUB: Sub, basl.MUL: Mul, basl.QUO: Div, basl.REM: Rem}
var testOfKind = map[basl.Kind]Test{basl.EQL: Eq, basl.NEQ: Ne, basl.LSS: Lt, basl.LEQ: Le, basl.GTR: Gt, basl.GEQ: Ge}

func tableTitle(t *basl.Table) string {
	kw := "operator"
	if t.Test {
		kw = "test"
	}
	s := kw + " " + t.Op.String()
	if t.Name != nil {
		s += " " + t.Name.Name
	}
	return s
}

// givenTables resolves the operators and tests written in the
// specification: every pair of tokens must be matched by a case (the first
// that matches applies), and every entry must be sound.
func (c *compiler) givenTables() {
	a := c.a
	k := len(a.Tokens)
	s := &synth{c: c}
	for _, t := range append(append([]*basl.Table(nil), c.spec.Operators...), c.spec.Tests...) {
		title := tableTitle(t)
		if t.Test && a.Tests[testOfKind[t.Op]] != nil || !t.Test && a.Ops[opOfKind[t.Op]] != nil {
			c.errorf(t.Pos, "%s defined twice", title)
			continue
		}
		// Resolve the cases.
		type rcase struct {
			pats   [2]int // token, or -1 for any
			result Set    // tokens, or outcomes for tests
		}
		var cases []rcase
		caseOf := make([]int, k*k)
		ok := true
		for _, cs := range t.Cases {
			if len(cs.Args) != 2 {
				c.errorf(cs.Pos, "%s: a case has 2 arguments, not %d", title, len(cs.Args))
				ok = false
				continue
			}
			var rc rcase
			for i, p := range cs.Args {
				rc.pats[i] = -1
				if p.Name == "_" || p.Name == "T" {
					continue
				}
				if rc.pats[i] = a.TokenIndex(p.Name); rc.pats[i] < 0 {
					c.errorf(p.Pos, "undefined token %s", p.Name)
					ok = false
				}
			}
			if cs.Result.All {
				rc.result = All(k)
				if t.Test {
					rc.result = Set(Both)
				}
			}
			for _, id := range cs.Result.Names {
				if t.Test {
					switch id.Name {
					case "TRUE", "true":
						rc.result |= Set(True)
					case "FALSE", "false":
						rc.result |= Set(False)
					default:
						c.errorf(id.Pos, "a test yields TRUE or FALSE, not %s", id.Name)
						ok = false
					}
					continue
				}
				if i := a.TokenIndex(id.Name); i >= 0 {
					rc.result = rc.result.With(i)
				} else {
					c.errorf(id.Pos, "undefined token %s", id.Name)
					ok = false
				}
			}
			cases = append(cases, rc)
		}
		if !ok {
			continue
		}
		var missing []string
		for x := range k {
			for y := range k {
				caseOf[x*k+y] = -1
				for i, rc := range cases {
					if (rc.pats[0] < 0 || rc.pats[0] == x) && (rc.pats[1] < 0 || rc.pats[1] == y) {
						caseOf[x*k+y] = i
						break
					}
				}
				if caseOf[x*k+y] < 0 {
					missing = append(missing, fmt.Sprintf("(%s, %s)", a.Tokens[x].Name, a.Tokens[y].Name))
				}
			}
		}
		if len(missing) > 0 {
			more := ""
			if len(missing) > 1 {
				more = fmt.Sprintf(" and %d more", len(missing)-1)
			}
			c.errorf(t.Pos, "%s: no case covers %s%s", title, missing[0], more)
			continue
		}
		reported := map[int]bool{} // one unsoundness report per case
		if t.Test {
			tt := &TestTable{Test: testOfKind[t.Op], Given: true, Cells: make([]TestCell, k*k)}
			for i := range tt.Cells {
				tt.Cells[i].Outcomes = Outcomes(cases[caseOf[i]].result)
			}
			for i := range tt.Cells {
				if reported[caseOf[i]] {
					continue
				}
				if msg, sound := s.checkTestCell(tt.Test, i/k, i%k, tt.Cells[i].Outcomes); !sound {
					reported[caseOf[i]] = true
					c.errorf(t.Cases[caseOf[i]].Pos, "%s: %s", title, msg)
				} else if msg != "" {
					c.warnf(t.Cases[caseOf[i]].Pos, "%s: %s", title, msg)
				}
			}
			a.Tests[tt.Test] = tt
			continue
		}
		ot := &OpTable{Op: opOfKind[t.Op], Given: true, Cells: make([]Cell, k*k)}
		zero := a.Abstract(new(big.Int))
		for i := range ot.Cells {
			ot.Cells[i].Tokens = cases[caseOf[i]].result
			ot.Cells[i].Error = (ot.Op == Div || ot.Op == Rem) && i%k == zero
		}
		for i := range ot.Cells {
			if reported[caseOf[i]] {
				continue
			}
			if msg, sound := s.checkOpCell(ot.Op, i/k, i%k, ot.Cells[i].Tokens); !sound {
				reported[caseOf[i]] = true
				c.errorf(t.Cases[caseOf[i]].Pos, "%s: %s", title, msg)
			} else if msg != "" {
				c.warnf(t.Cases[caseOf[i]].Pos, "%s: %s", title, msg)
			}
		}
		a.Ops[ot.Op] = ot
	}
}
