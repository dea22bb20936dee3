package scanner

import (
	"strings"
	"testing"

	"birch/internal/bir/token"
	"birch/internal/source"
)

type tok struct {
	kind token.Kind
	lit  string
}

func scanAll(t *testing.T, src string) ([]tok, []string) {
	t.Helper()
	fset := source.NewFileSet()
	f := fset.AddFile("x.bir", []byte(src))
	var errs []string
	var s Scanner
	s.Init(f, []byte(src), func(pos source.Pos, msg string) {
		errs = append(errs, fset.Position(pos).String()+": "+msg)
	})
	var out []tok
	for i := 0; i < 10000; i++ {
		_, k, lit := s.Scan()
		if k == token.EOF {
			return out, errs
		}
		out = append(out, tok{k, lit})
	}
	t.Fatal("scanner did not reach EOF")
	return nil, nil
}

func TestOperators(t *testing.T) {
	src := "+ - * / % && || ! == != < <= > >= := = -> <-> [] <> @ ( ) [ ] { } , . .. ; : & | ^ << >> ~"
	want := []token.Kind{token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.LAND, token.LOR, token.NOT,
		token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.ASSIGN, token.DEFINE, token.ARROW,
		token.IFF, token.ALWAYS, token.EVENTUAL, token.AT, token.LPAREN, token.RPAREN, token.LBRACK, token.RBRACK,
		token.LBRACE, token.RBRACE, token.COMMA, token.PERIOD, token.ELLIPSIS, token.SEMICOLON, token.COLON,
		token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.TILDE}
	got, errs := scanAll(t, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d tokens, want %d: %v", len(got), len(want), got)
	}
	for i, k := range want {
		if got[i].kind != k {
			t.Errorf("token %d: got %s, want %s", i, got[i].kind, k)
		}
		if k.String() != strings.Fields(src)[i] {
			t.Errorf("token %s prints as %q", k, k.String())
		}
	}
}

func TestKeywordsAndLiterals(t *testing.T) {
	for _, kw := range token.Keywords() {
		got, errs := scanAll(t, kw)
		if len(errs) > 0 || len(got) != 1 || got[0].kind != token.Lookup(kw) || !got[0].kind.IsKeyword() {
			t.Errorf("keyword %q scanned as %v %v", kw, got, errs)
		}
	}
	got, errs := scanAll(t, `x_1 $y 0..N -1 "a\"b\\c\n" // c
/* d */ X`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []tok{{token.IDENT, "x_1"}, {token.IDENT, "$y"}, {token.INT, "0"}, {token.ELLIPSIS, ""}, {token.IDENT, "N"},
		{token.SUB, ""}, {token.INT, "1"}, {token.STRING, `"a\"b\\c\n"`}, {token.COMMENT, "// c"}, {token.COMMENT, "/* d */"},
		{token.IDENT, "X"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("token %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, err string }{
		{"//line x.c\nx", "1:1: malformed line directive"},
		{"//line x.c:0:1\nx", "1:1: malformed line directive"},
		{"//line x.c:99999999999999999999:1\nx", "1:1: malformed line directive"},
		{"//line x.c:1073741825:1\nx", "1:1: malformed line directive"},
		{"x # y", "1:3: illegal character U+0023 '#'"},
		{`"abc`, "1:1: string literal not terminated"},
		{"\"a\nb\"", "1:1: string literal not terminated"},
		{`"\t"`, "1:3: unknown escape sequence"},
		{"/* open", "1:1: comment not terminated"},
		{"12ab", "1:1: malformed integer literal"},
		{"a\x00", "1:2: illegal character NUL"},
		{"\xff", "1:1: illegal UTF-8 encoding"},
	} {
		_, errs := scanAll(t, c.src)
		if len(errs) == 0 || !strings.Contains(errs[0], c.err) {
			t.Errorf("%q: errors %v, want one containing %q", c.src, errs, c.err)
		}
	}
}

func TestAdjacentOperators(t *testing.T) {
	got, errs := scanAll(t, "a<<b>>c<=d<<>e&&f&g||h|i<->j")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []token.Kind{token.IDENT, token.SHL, token.IDENT, token.SHR, token.IDENT, token.LEQ, token.IDENT,
		token.SHL, token.GTR, token.IDENT, token.LAND, token.IDENT, token.AND, token.IDENT, token.LOR, token.IDENT,
		token.OR, token.IDENT, token.IFF, token.IDENT}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i, k := range want {
		if got[i].kind != k {
			t.Errorf("token %d: got %s, want %s", i, got[i].kind, k)
		}
	}
}

func TestLineDirectives(t *testing.T) {
	src := "a\n//line prog.c:10:5\nb c\n\n  d\n  //line not.c:1:1\ne\n//line C:\\x.c:7:2\nf\n//line y.c:3\ng\n"
	fset := source.NewFileSet()
	f := fset.AddFile("m.bir", []byte(src))
	var s Scanner
	s.Init(f, []byte(src), func(pos source.Pos, msg string) { t.Errorf("%s: %s", fset.Position(pos), msg) })
	got := map[string]string{}
	for {
		pos, k, lit := s.Scan()
		if k == token.EOF {
			break
		}
		if k == token.IDENT {
			got[lit] = fset.Position(pos).String()
		}
	}
	for id, want := range map[string]string{
		"a": "m.bir:1:1", "b": "prog.c:10:5", "c": "prog.c:10:5", "d": "prog.c:12:3",
		"e": "prog.c:14:1", // an indented //line is a comment
		"f": "C:\\x.c:7:2", "g": "y.c:3:1",
	} {
		if got[id] != want {
			t.Errorf("%s at %s, want %s", id, got[id], want)
		}
	}
	if p := fset.PositionFor(f.Pos(strings.Index(src, "b")), false).String(); p != "m.bir:3:1" {
		t.Errorf("unadjusted position of b: %s", p)
	}
}
