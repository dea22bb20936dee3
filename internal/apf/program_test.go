package apf

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// instrument instruments the model file with the predicates.
func instrument(t *testing.T, model, preds string) *Program {
	t.Helper()
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	return instrumentSource(t, model, string(src), preds)
}

func instrumentSource(t *testing.T, name, src, preds string) *Program {
	t.Helper()
	p, err := Instrument(source.NewFileSet(), name, []byte(src), "p.pred", []byte(preds))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// check parses and checks a model as the front end does.
func check(t *testing.T, name string, src []byte) *types.Program {
	t.Helper()
	p, err := parseCheck(source.NewFileSet(), name, src)
	if err != nil {
		t.Fatal(err)
	}
	return p.prog
}

const livePreds = "g > 0\n[thread M] x == g\n[record R] this.v < g\n[function inc] r > k\n"

// TestSlots: each predicate gets its hidden variable, range 0..2, in its
// context: a global, a local of its thread or function, a field of its
// record type and of each subtype at the same index.
func TestSlots(t *testing.T) {
	p := instrument(t, "testdata/live.bir", livePreds)
	prog := p.Prog
	want := []struct {
		ctx  Context
		proc string
		rec  string
		kind types.VarKind
	}{
		{Global, "", "", types.GlobalVar},
		{Thread, "M", "", types.LocalVar},
		{Record, "", "R", types.FieldVar},
		{Function, "inc", "", types.LocalVar},
	}
	if len(p.Slots) != len(want) {
		t.Fatalf("%d slots, want %d", len(p.Slots), len(want))
	}
	for i, w := range want {
		s := p.Slots[i]
		name := fmt.Sprintf("pred'%d", i+1)
		if s.Context != w.ctx || s.Var == nil || s.Var.Name() != name || s.Var.Kind != w.kind {
			t.Errorf("slot %d: %v %v, want %v %s", i, s.Context, s.Var, w.ctx, name)
			continue
		}
		if r, ok := s.Var.Type().Underlying().(*types.Range); !ok || r.Lo != 0 || r.Hi != 2 || r.Wrap {
			t.Errorf("slot %d: type %v, want range 0..2", i, s.Var.Type())
		}
		if (s.Proc == nil) != (w.proc == "") || s.Proc != nil && (s.Proc.Name() != w.proc || s.Var.Owner != s.Proc) {
			t.Errorf("slot %d: proc %v, want %s", i, s.Proc, w.proc)
		}
		if (s.Record == nil) != (w.rec == "") || s.Record != nil && s.Record.String() != w.rec {
			t.Errorf("slot %d: record %v, want %s", i, s.Record, w.rec)
		}
		if s.Proc != nil && s.Proc != p.Preds.Predicates[i].Proc {
			t.Errorf("slot %d: the slot's proc is not the predicate's", i)
		}
		if s.Record != nil && s.Record != p.Preds.Predicates[i].Record {
			t.Errorf("slot %d: the slot's record is not the predicate's", i)
		}
	}
	// the subtype S of R holds R's hidden field at the same index, with
	// R's fields as a prefix
	r := prog.Lookup("R").(*types.TypeName).Named().Underlying().(*types.Record)
	s := prog.Lookup("S").(*types.TypeName).Named().Underlying().(*types.Record)
	h := p.Slots[2].Var
	if r.Fields[h.Index] != h || s.Fields[h.Index].Name() != h.Name() || len(s.Fields) != len(r.Fields)+1 {
		t.Errorf("R %v, S %v", r, s)
	}
	if p.Abstracted[h] || p.Abstracted[s.Fields[h.Index]] {
		t.Error("a hidden field is abstracted")
	}
}

// TestHiddenLocalsLive: a hidden local is in every live set of its proc,
// so the model never resets it to unknown, while the model's own dead
// variables still are.
func TestHiddenLocalsLive(t *testing.T) {
	p := instrument(t, "testdata/live.bir", livePreds)
	hidden := p.Slots[1].Var
	m := p.Slots[1].Proc
	withLive := 0
	for _, l := range m.Locations {
		if !l.HasLive {
			continue
		}
		withLive++
		for _, v := range l.Dead() {
			if v == hidden {
				t.Errorf("%s: the hidden local is dead", l.Name())
			}
		}
	}
	if withLive != 4 {
		t.Errorf("%d locations with a live set, want 4", withLive)
	}
	// s3 has `live { }`: everything but the hidden local is reset there
	dead := m.Location("s3").Dead()
	if len(dead) != len(m.Vars())-1 {
		t.Errorf("s3: dead %v, want every variable but %s", dead, hidden.Name())
	}
}

// TestGroupsAgree: P′ has the transformations of the model in the same
// order, so model.Groups() of both agree index by index.
func TestGroupsAgree(t *testing.T) {
	for _, tc := range []struct{ model, preds string }{
		{"testdata/live.bir", livePreds},
		{"testdata/live.bir", ""},
		{"../../examples/heap-list.bir", "[record Node] this.val < 5\n[record BigNode] this.extra\n"},
		{"../../examples/predicates/partition.bir", "[thread Main] curr == null\n[thread Main] curr.val > v\n"},
	} {
		src, err := os.ReadFile(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		mo := model.Options{ChoiceValues: []int64{0}} // the models may choose unbounded values
		orig, err := model.New(check(t, tc.model, src), mo)
		if err != nil {
			t.Fatal(err)
		}
		p := instrumentSource(t, tc.model, string(src), tc.preds)
		inst, err := model.New(p.Prog, mo)
		if err != nil {
			t.Fatal(err)
		}
		a, b := orig.Groups(), inst.Groups()
		if len(a) != len(b) || len(a) == 0 {
			t.Fatalf("%s: %d groups, P′ %d", tc.model, len(a), len(b))
		}
		pos := func(m *model.Model, g model.Group) string {
			to := "return"
			if g.To != nil {
				to = g.To.Name()
			}
			return fmt.Sprintf("%d %s %s->%s %v %s", g.Index, g.Proc.Name(), g.From.Name(), to, g.Invisible,
				m.Program().Fset.Position(g.Decl.Pos()))
		}
		for i := range a {
			if x, y := pos(orig, a[i]), pos(inst, b[i]); x != y {
				t.Errorf("%s: group %d: %s, P′ %s", tc.model, i, x, y)
			}
		}
	}
}

// TestNameClash: the hidden variables have a quote ('), which no BIR name has,
// so a model whose names are what a naive scheme would pick keeps them,
// and its predicates read the model's variables, not the hidden ones.
func TestNameClash(t *testing.T) {
	model := `system S ()
R = record { pred1 : int; pred_2 : boolean; };
Rs : collection [1] of R;
pred : int;
pred1 : int;
pred_1 : boolean;
main thread M ()
  pred2 : int;
  pred_2 : boolean;
  loc s0: live { pred2 }
    when pred1 > 0 do { pred2 := pred1; } goto s0;
end M;
end S;
`
	p := instrumentSource(t, "model.bir", model, "pred1 > 0\n[thread M] pred2 == pred\n[record R] this.pred1 > pred1\n")
	user := map[string]bool{"pred": true, "pred1": true, "pred_1": true, "pred2": true, "pred_2": true}
	for i, s := range p.Slots {
		if user[s.Var.Name()] {
			t.Errorf("slot %d is the model's %s", i, s.Var.Name())
		}
	}
	// the predicates read the model's variables
	for i, pr := range p.Preds.Predicates {
		ast.Inspect(pr.Expr, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := p.Prog.Info.Uses[id].(*types.Var); ok && v.Kind != types.ThisVar && !user[v.Name()] {
					t.Errorf("predicate %d reads %s", i+1, v.Name())
				}
			}
			return true
		})
	}
	if v, ok := p.Prog.Lookup("pred1").(*types.Var); !ok || !p.Abstracted[v] {
		t.Errorf("pred1: %v, want the model's abstracted global", v)
	}
	// a model cannot spell a hidden name ($ is a letter of BIR's names)
	_, err := Instrument(source.NewFileSet(), "bad.bir", []byte("system S ()\npred'1 : int;\nmain thread M ()\n  loc s0:\nend M;\nend S;\n"), "p.pred", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "bad.bir:2:5:") {
		t.Errorf("a model with pred'1: %v, want an error at bad.bir:2:5", err)
	}
	p = instrumentSource(t, "model.bir", "system S ()\npred$1 : int;\nmain thread M ()\n  loc s0:\nend M;\nend S;\n", "pred$1 > 0\n")
	if user, _ := p.Prog.Lookup("pred$1").(*types.Var); user == nil || p.Slots[0].Var == user || !p.Abstracted[user] {
		t.Errorf("pred$1: the model's %v, the slot's %v", user, p.Slots[0].Var)
	}
}

// TestRecordFields: a record predicate's hidden field goes after its
// type's fields and at the same index in every subtype, splitting a
// subtype's declaration of several fields where the index falls inside it;
// supertypes' hidden fields come first.
func TestRecordFields(t *testing.T) {
	model := `system S ()
T = record { v : int; };
S = record { v, w : int; };
U = record { v, w : int; x : boolean; };
S extends T;
U extends S;
Ts : collection [1] of T;
Us : collection [1] of U;
main thread M ()
  p : ref T;
  loc s0:
    when true do { p := new Us; p.v := 2; } goto s1;
  loc s1:
end M;
end S;
`
	p := instrumentSource(t, "model.bir", model, "[record S] this.w > 0\n[record T] this.v > 0\n[record U] this.x\n")
	fields := func(name string) string {
		r := p.Prog.Lookup(name).(*types.TypeName).Named().Underlying().(*types.Record)
		var out []string
		for i, f := range r.Fields {
			if f.Index != i {
				t.Errorf("%s.%s: index %d at %d", name, f.Name(), f.Index, i)
			}
			out = append(out, f.Name())
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{
		"T": "v pred'2",
		"S": "v pred'2 w pred'1",
		"U": "v pred'2 w pred'1 x pred'3",
	} {
		if got := fields(name); got != want {
			t.Errorf("%s: fields %s, want %s", name, got, want)
		}
	}
	for i, want := range []string{"S", "T", "U"} {
		if s := p.Slots[i]; s.Context != Record || s.Record.String() != want {
			t.Errorf("slot %d: %v %v, want record %s", i, s.Context, s.Record, want)
		}
	}
}

// TestInstrumentErrors: a model or predicate file that does not check is
// a positioned error, in its own file.
func TestInstrumentErrors(t *testing.T) {
	model := "system S ()\nR = record { v : int; };\nRs : collection [1] of R;\ng : int;\nmain thread M ()\n  loc s0:\nend M;\nend S;\n"
	for _, tc := range []struct{ model, preds, want string }{
		{model, "g > 0\n[record R] this.w > 0\n", "p.pred:2:17: R has no field w"},
		{model, "[record Q] this == null\n", "p.pred:1:9: undefined record type Q"},
		{model, "[record R] v > 0\n", "p.pred:1:12: undefined: v"},
		{model, "[thread M] this == null\n", "p.pred:1:12: undefined: this"},
		{"system S ()\ng : int\nend S;\n", "g > 0\n", "model.bir:2:8: expected ';', found keyword end"},
		{"system S ()\ng : int := true;\nmain thread M ()\n  loc s0:\nend M;\nend S;\n", "g > 0\n", "model.bir:2:12: "},
	} {
		_, err := Instrument(source.NewFileSet(), "model.bir", []byte(tc.model), "p.pred", []byte(tc.preds))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s", tc.preds, err, tc.want)
		}
	}
}
