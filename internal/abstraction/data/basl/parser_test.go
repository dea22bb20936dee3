package basl

import (
	"strconv"
	"strings"
	"testing"

	"birch/internal/source"
)

const evenOdd = `// The paper's Figure 2, with a complete abstraction function.
abstraction EvenOdd abstracts int
begin
  TOKENS = {EVEN, ODD};
  abstract(n)
  begin
    n % 2 == 0 -> {EVEN};
    n % 2 == 1 || n % 2 == -1 -> {ODD};
  end
  operator * mul
  begin
    (ODD, ODD) -> {ODD};
    (_, _) -> {EVEN};
  end
  test > gt
  begin
    (_, _) -> {true, false};
  end
end
`

func TestParseEvenOdd(t *testing.T) {
	fset := source.NewFileSet()
	f, err := ParseFile(fset, "evenodd.basl", []byte(evenOdd), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Abstractions) != 1 {
		t.Fatalf("%d abstractions", len(f.Abstractions))
	}
	a := f.Abstractions[0]
	if a.Name.Name != "EvenOdd" || a.Extends || a.Type.Name != "int" {
		t.Errorf("heading: %s extends=%v %s", a.Name.Name, a.Extends, a.Type.Name)
	}
	if len(a.Tokens) != 2 || a.Tokens[1].Name != "ODD" {
		t.Errorf("tokens: %v", a.Tokens)
	}
	if a.Func == nil || a.Func.Param.Name != "n" || len(a.Func.Rules) != 2 {
		t.Fatalf("function: %+v", a.Func)
	}
	if got := ExprString(a.Func.Rules[1].Cond); got != "n % 2 == 1 || n % 2 == -1" {
		t.Errorf("rule 2 condition prints as %q", got)
	}
	if p := fset.Position(a.Func.Rules[1].Arrow); p.Line != 8 || p.Column != 31 {
		t.Errorf("arrow of rule 2 at %s", p)
	}
	if len(a.Operators) != 1 || a.Operators[0].Op != MUL || a.Operators[0].Name.Name != "mul" || len(a.Operators[0].Cases) != 2 {
		t.Errorf("operators: %+v", a.Operators)
	}
	if len(a.Tests) != 1 || a.Tests[0].Op != GTR || len(a.Tests[0].Cases[0].Result.Names) != 2 {
		t.Errorf("tests: %+v", a.Tests)
	}
}

func TestParseLibraryForm(t *testing.T) {
	src := `abstraction Signs extends integral
begin
  TOKENS = { NEG, ZERO, POS };
  DEFAULT = ZERO;
  ONE2ONE = { ZERO };
  abstract(n)
  begin
    n < 0 -> NEG;
    n == 0 -> ZERO;
    n > 0 -> POS;
  end
  operator + add
  begin
    (NEG, NEG) -> NEG;
    (_, _) -> T;
  end;
end
abstraction Point abstracts int begin TOKENS = {UNKNOWN}; abstract(x) begin true -> UNKNOWN; end end
`
	fset := source.NewFileSet()
	f, err := ParseFile(fset, "signs.basl", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Abstractions) != 2 {
		t.Fatalf("%d abstractions", len(f.Abstractions))
	}
	a := f.Abstractions[0]
	if !a.Extends || a.Default.Name != "ZERO" || len(a.One2One) != 1 {
		t.Errorf("sections: %+v", a)
	}
	if c := a.Operators[0].Cases[1]; !c.Result.All || c.Args[0].Name != "_" {
		t.Errorf("case 2: %+v", c)
	}
}

func TestParseExprPrecedence(t *testing.T) {
	for in, want := range map[string]string{
		"n + 1 * 2 < 3 && !(n == 0) || n % 3 == -1": "((((n + (1 * 2)) < 3) && !((n == 0))) || ((n % 3) == -1))",
		"-n - -1":     "(-n - -1)",
		"1 - 2 - 3":   "((1 - 2) - 3)",
		"n >= 0 != b": "((n >= 0) != b)",
	} {
		x, err := ParseExpr(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := tree(x); got != want {
			t.Errorf("%s parses as %s, want %s", in, got, want)
		}
	}
}

func tree(x Expr) string {
	switch x := x.(type) {
	case *Binary:
		return "(" + tree(x.X) + " " + x.Op.String() + " " + tree(x.Y) + ")"
	case *Unary:
		return x.Op.String() + tree(x.X)
	case *Paren:
		return "(" + tree(x.X) + ")"
	}
	return ExprString(x)
}

// TestParseErrors checks positioned errors: each case's source marks the
// expected error position with ⟨msg⟩ just before the offending token.
func TestParseErrors(t *testing.T) {
	for _, c := range []string{
		"abstraction A abstracts int begin TOKENS = {X, Y}⟨expected ';', found name abstract⟩ abstract(n) begin true -> X; end end",
		"abstraction A ⟨expected abstracts or extends, found name int⟩int begin end",
		"abstraction A abstracts int begin TOKENS = {X ⟨expected ',' or '}', found name Y⟩Y}; end",
		"abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin n > ⟨expected expression, found '->'⟩-> X; end end",
		"abstraction A abstracts int begin TOKENS = {X}; operator ⟨expected an operator (+ - * / %), found '<'⟩< lt begin end end",
		"abstraction A abstracts int begin TOKENS = {X}; test ⟨expected a test (== != < <= > >=), found '+'⟩+ add begin end end",
		"abstraction A abstracts int begin TOKENS = {X}; operator + add begin (X, X) ⟨expected '->', found name X⟩X; end end",
		"abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin n ⟨illegal character \"#\"⟩# 2 -> X; end end",
		"abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin n > 0 -> X; end ⟨expected end, found end of file⟩",
		"⟨expected abstraction, found name abstractoin⟩abstractoin A abstracts int begin end",
		"⟨expected abstraction, found end of file⟩",
		"abstraction A abstracts int begin TOKENS = {X}; ⟨comment not terminated⟩/* end",
		"abstraction A abstracts int begin TOKENS = {X}; ⟨expected TOKENS, DEFAULT, ONE2ONE, abstract, operator, test or end, found name TOKEN⟩TOKEN = {Y}; end",
		"abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin n > 0 -> X; n <= 0 -> X; end ⟨TOKENS declared twice⟩TOKENS = {Y}; end",
		"abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin n > ⟨malformed number 0x1⟩0x1 -> X; end end",
	} {
		i := strings.Index(c, "⟨")
		j := strings.Index(c, "⟩")
		msg := c[i+len("⟨") : j]
		src := c[:i] + c[j+len("⟩"):]
		fset := source.NewFileSet()
		_, err := ParseFile(fset, "x.basl", []byte(src), 0)
		want := "x.basl:1:" + strconv.Itoa(i+1) + ": " + msg
		if err == nil {
			t.Errorf("%s: no error, want %s", src, want)
			continue
		}
		if got := err.(source.ErrorList)[0].Error(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", src, got, want)
		}
	}
}

// TestParseRecovers checks that the parser goes on after an error and
// reports independent mistakes, and that it terminates on garbage.
func TestParseRecovers(t *testing.T) {
	src := `abstraction A abstracts int
begin
  TOKENS = {X, Y};
  abstract(n)
  begin
    n > -> X;
    n <= 0 -> Y;
  end
  operator + add
  begin
    (X, ) -> X;
    (Y, Y) -> Y;
  end
end
`
	fset := source.NewFileSet()
	f, err := ParseFile(fset, "r.basl", []byte(src), 0)
	list, _ := err.(source.ErrorList)
	if len(list) != 2 || list[0].Pos.Line != 6 || list[1].Pos.Line != 11 {
		t.Fatalf("errors: %v", err)
	}
	a := f.Abstractions[0]
	if len(a.Func.Rules) != 1 || len(a.Operators[0].Cases) != 1 {
		t.Errorf("recovered rules %d, cases %d", len(a.Func.Rules), len(a.Operators[0].Cases))
	}
	for _, garbage := range []string{"abstraction", "abstraction A abstracts int begin abstract ( ( ( ;", "}}}}{{{", strings.Repeat("(", 1000), "abstraction A abstracts int begin TOKENS = {X}; abstract(n) begin " + strings.Repeat("(", 1000)} {
		ParseFile(source.NewFileSet(), "g.basl", []byte(garbage), 0)
	}
}
