package ltl

import (
	"strings"
	"testing"
)

// published are the LTL mappings of the pattern catalogue of Dwyer,
// Avrunin and Corbett as published on the Specification Patterns site
// (patterns.projects.cis.ksu.edu), in its notation: & and | for and and or.
// (The site's formulas for "existence after Q" and "response after Q until
// R" have an unbalanced parenthesis; it is balanced here.)
var published = map[string][5]string{
	"absence": {
		"[](!P)",
		"<>R -> (!P U R)",
		"[](Q -> [](!P))",
		"[]((Q & !R & <>R) -> (!P U R))",
		"[](Q & !R -> (!P W R))",
	},
	"existence": {
		"<>(P)",
		"!R W (P & !R)",
		"[](!Q) | <>(Q & <>P)",
		"[](Q & !R -> (!R W (P & !R)))",
		"[](Q & !R -> (!R U (P & !R)))",
	},
	"universality": {
		"[](P)",
		"<>R -> (P U R)",
		"[](Q -> [](P))",
		"[]((Q & !R & <>R) -> (P U R))",
		"[](Q & !R -> (P W R))",
	},
	"precedence": { // S precedes P
		"!P W S",
		"<>R -> (!P U (S | R))",
		"[]!Q | <>(Q & (!P W S))",
		"[]((Q & !R & <>R) -> (!P U (S | R)))",
		"[](Q & !R -> (!P W (S | R)))",
	},
	"response": { // S responds to P
		"[](P -> <>S)",
		"<>R -> (P -> (!R U (S & !R))) U R",
		"[](Q -> [](P -> <>S))",
		"[]((Q & !R & <>R) -> (P -> (!R U (S & !R))) U R)",
		"[](Q & !R -> ((P -> (!R U (S & !R))) W R))",
	},
}

// fromCatalogue turns the catalogue's notation into BIR's.
func fromCatalogue(s string) string {
	return strings.NewReplacer("&", " && ", "|", " || ").Replace(s)
}

// parseOver parses a formula and renumbers its propositions by name, so
// that formulas parsed separately can be compared.
func parseOver(t *testing.T, src string, names []string) *Formula {
	t.Helper()
	s, err := Parse("f", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	num := map[string]int{}
	for i, n := range names {
		num[n] = i
	}
	var re func(*Formula) *Formula
	re = func(f *Formula) *Formula {
		if f == nil {
			return nil
		}
		if f.Op == Atom {
			i, ok := num[s.Props[f.Atom].Text]
			if !ok {
				t.Fatalf("%s: unexpected proposition %s", src, s.Props[f.Atom].Text)
			}
			return Prop(i)
		}
		return &Formula{Op: f.Op, L: re(f.L), R: re(f.R)}
	}
	return re(s.Formula)
}

// Every pattern and scope expands to the published formula.
func TestPatternsMatchCatalogue(t *testing.T) {
	names := []string{"P", "S", "Q", "R"}
	if len(Patterns()) != len(published) {
		t.Fatalf("%d patterns, the catalogue has %d", len(Patterns()), len(published))
	}
	for _, info := range Patterns() {
		pub, ok := published[info.Name]
		if !ok {
			t.Fatalf("pattern %s is not in the catalogue", info.Name)
		}
		for i := range Scopes {
			got := Instantiate(info.Formulas[i], info.Params, info.Params, "Q", "R")
			want := fromCatalogue(pub[i])
			if g, w := parseOver(t, got, names), parseOver(t, want, names); !Equal(g, w) {
				t.Errorf("%s %s: %s, the catalogue has %s", info.Name, ScopeSyntax[i], got, pub[i])
			}
		}
	}
}

func TestParsePattern(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"response(p, q) globally", "[] ((p) -> <> (q))"},
		{"response(p,q)", "[] ((p) -> <> (q))"},
		{"Response(p, q)globally", "[] ((p) -> <> (q))"},
		{"absence(x > f(1, 2)) before done", "<> (done) -> (!(x > f(1, 2)) U (done))"},
		{"absence(p) before(r)", "<> (r) -> (!(p) U (r))"},
		{"universality(p) after q", "[] ((q) -> [] ((p)))"},
		{"universality(p) after(q)", "[] ((q) -> [] ((p)))"},
		{"existence(p) between a && b and c", "[] ((a && b) && !(c) -> (!(c) W ((p) && !(c))))"},
		{"existence(p) between(a, c)", "[] ((a) && !(c) -> (!(c) W ((p) && !(c))))"},
		{"precedence(s, p) after q until r", "[] ((q) && !(r) -> (!(p) W ((s) || (r))))"},
		{"precedence(s, p) after-until(q, r)", "[] ((q) && !(r) -> (!(p) W ((s) || (r))))"},
		{"precedence(s, p) after_until(q, r)", "[] ((q) && !(r) -> (!(p) W ((s) || (r))))"},
		{"absence(T[e] @ l) after (a[1])", "[] ((a[1]) -> [] (!(T[e] @ l)))"},
	} {
		p, err := ParsePattern(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if got := p.Formula(); got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
		// the printed instance reads back to the same formula
		q, err := ParsePattern(p.String())
		if err != nil || q.Formula() != p.Formula() {
			t.Errorf("%q printed as %q, which reads back as %v (%v)", c.src, p.String(), q, err)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"response(p)", "response takes 2 arguments (P, S), not 1"},
		{"nothing(p)", `unknown pattern "nothing"`},
		{"absence(p) sometimes", `unknown scope "sometimes"`},
		{"absence(p) between q", "want between Q and R"},
		{"absence(p", "missing )"},
		{"absence(p,)", "empty argument"},
		{"absence", "want NAME(ARGUMENTS) SCOPE"},
		{"absence(p) before(q, r)", "scope before takes 1 argument, not 2"},
	} {
		_, err := ParsePattern(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// The expansions mean what the pattern says, on a few hand-made words.
func TestPatternMeaning(t *testing.T) {
	const P, S, Q, R = 1, 2, 4, 8
	f := func(src string) *Formula {
		p, err := ParsePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		return parseOver(t, p.Formula(), []string{"p", "s", "q", "r"})
	}
	for _, c := range []struct {
		pattern       string
		prefix, cycle []uint64
		holds         bool
	}{
		{"response(p, s)", []uint64{P, 0, S}, []uint64{0}, true},
		{"response(p, s)", []uint64{S, P}, []uint64{0}, false},
		{"absence(p) between(q, r)", []uint64{P, Q, 0, R, P}, []uint64{0}, true},
		{"absence(p) between(q, r)", []uint64{Q, P, R}, []uint64{0}, false},
		{"absence(p) between(q, r)", []uint64{Q, P}, []uint64{0}, true}, // r never comes
		{"absence(p) after q until r", []uint64{Q, P}, []uint64{0}, false},
		{"existence(p) before r", []uint64{0, R}, []uint64{0}, false},
		{"existence(p) before r", []uint64{P, R}, []uint64{0}, true},
		{"precedence(s, p)", []uint64{0, S, P}, []uint64{0}, true},
		{"precedence(s, p)", []uint64{P, S}, []uint64{0}, false},
		{"universality(p) after q", []uint64{0, Q | P}, []uint64{P}, true},
		{"universality(p) after q", []uint64{0, Q | P}, []uint64{P, 0}, false},
	} {
		if got := Holds(f(c.pattern), c.prefix, c.cycle); got != c.holds {
			t.Errorf("%s on %v %v^w: %v, want %v", c.pattern, c.prefix, c.cycle, got, c.holds)
		}
	}
}
