package apf

import (
	"fmt"
	"os"
	"testing"

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
		name := fmt.Sprintf("pred$%d", i+1)
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
