package data

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"birch/internal/source"
)

// Family describes one family of the abstraction library.
type Family struct {
	Syntax string // how to name a member: "range(l,u)"
	Doc    string // one line
}

// Families lists the library, in the order `birch abstraction list`
// prints it.
var Families = []Family{
	{"concrete", "the identity: integers are kept as they are (no tokens; alias identity)"},
	{"point", "one token UNKNOWN for every integer: all information is dropped"},
	{"signs", "NEG, ZERO, POS: the sign (the same as range(0,0))"},
	{"evenodd", "EVEN, ODD: the parity (the same as modulo(2))"},
	{"range(l,u)", "BELOW (< l), one token per value l..u (V0, V1, VM1 for -1, …), ABOVE (> u)"},
	{"set(v1,…,vn)", "one token per listed value (V3, VM1, …) and OTHER for the rest"},
	{"modulo(k)", "R0 … R(k-1): the remainder of Euclidean division by k (2 ≤ k ≤ 32)"},
}

// Library instantiates abstractions by name — the library's families and
// abstractions added from BASL files — and compiles each once: its tables
// are computed on first use and shared afterwards. The zero value is ready
// to use (with the zero Config); a Library is safe for concurrent use.
type Library struct {
	// Config is used to compile library abstractions; set it before the
	// first Lookup.
	Config Config

	mu      sync.Mutex
	entries map[string]*libEntry
	user    map[string]*Abstraction
}

type libEntry struct {
	once sync.Once
	a    *Abstraction
	err  error
}

// Add makes the abstractions of a BASL file available by name. The
// canonical name of a library abstraction ("signs", "range(0,3)") or a name
// of an earlier file is an error; other spellings of library names, such
// as the paper's EvenOdd, are the file's (Lookup tries them first).
func (l *Library) Add(as ...*Abstraction) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.user == nil {
		l.user = map[string]*Abstraction{}
	}
	for _, a := range as {
		if canon, _, err := librarySource(a.Name); err == nil && canon == a.Name {
			return fmt.Errorf("%s: abstraction %s has the name of a library abstraction", a.Origin, a.Name)
		}
		if prev, dup := l.user[a.Name]; dup {
			return fmt.Errorf("%s: abstraction %s is already defined in %s", a.Origin, a.Name, prev.Origin)
		}
		l.user[a.Name] = a
	}
	return nil
}

// Lookup returns the abstraction called name: one added from a file, or a
// member of a library family ("signs", "range(0,3)", "set(0,1)",
// "modulo(3)", …), compiled on first use.
func (l *Library) Lookup(name string) (*Abstraction, error) {
	l.mu.Lock()
	if a, ok := l.user[name]; ok {
		l.mu.Unlock()
		return a, nil
	}
	canon, src, err := librarySource(name)
	if err != nil {
		l.mu.Unlock()
		return nil, err
	}
	if l.entries == nil {
		l.entries = map[string]*libEntry{}
	}
	e, ok := l.entries[canon]
	if !ok {
		e = &libEntry{}
		l.entries[canon] = e
	}
	cfg := l.Config
	l.mu.Unlock()
	e.once.Do(func() {
		if src == "" {
			e.a = &Abstraction{Name: canon, Origin: "library", Identity: true, Default: -1}
			return
		}
		fset := source.NewFileSet()
		as, err := ParseFile(fset, canon, []byte(src), cfg)
		if err != nil {
			e.err = fmt.Errorf("library abstraction %s: %v", canon, err)
			return
		}
		e.a = as[0]
		e.a.Name, e.a.Origin = canon, "library"
	})
	return e.a, e.err
}

// LibrarySource returns the canonical name of a library abstraction and
// its BASL specification (empty for concrete, which has none).
func LibrarySource(name string) (canonical, basl string, err error) {
	return librarySource(name)
}

func librarySource(name string) (string, string, error) {
	n := strings.ToLower(strings.Join(strings.Fields(name), ""))
	fam, args, hasArgs := n, "", false
	if i := strings.IndexByte(n, '('); i >= 0 && strings.HasSuffix(n, ")") {
		fam, args, hasArgs = n[:i], n[i+1:len(n)-1], true
	}
	var vals []int64
	if hasArgs && args != "" {
		for _, f := range strings.Split(args, ",") {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil || v < -1<<40 || v > 1<<40 {
				return "", "", fmt.Errorf("abstraction %s: bad argument %q (want an integer of at most 2^40)", name, f)
			}
			vals = append(vals, v)
		}
	}
	nargs := func(want int) error {
		if !hasArgs && want == 0 || hasArgs && len(vals) == want {
			return nil
		}
		if want == 0 {
			return fmt.Errorf("abstraction %s takes no arguments", fam)
		}
		return fmt.Errorf("abstraction %s takes %d arguments: %s", fam, want, famSyntax(fam))
	}
	switch fam {
	case "concrete", "identity":
		if err := nargs(0); err != nil {
			return "", "", err
		}
		return "concrete", "", nil
	case "point":
		if err := nargs(0); err != nil {
			return "", "", err
		}
		return "point", "abstraction Point abstracts int\nbegin\n  TOKENS = {UNKNOWN};\n  abstract(n)\n  begin\n    true -> UNKNOWN;\n  end\nend\n", nil
	case "signs":
		if err := nargs(0); err != nil {
			return "", "", err
		}
		return "signs", signsSource, nil
	case "evenodd":
		if err := nargs(0); err != nil {
			return "", "", err
		}
		return "evenodd", evenOddSource, nil
	case "range":
		if err := nargs(2); err != nil {
			return "", "", err
		}
		lo, hi := vals[0], vals[1]
		if lo > hi {
			return "", "", fmt.Errorf("abstraction %s: empty range (%d > %d)", name, lo, hi)
		}
		if hi-lo+3 > MaxTokens {
			return "", "", fmt.Errorf("abstraction %s: too many tokens (%d, at most %d)", name, hi-lo+3, MaxTokens)
		}
		if lo == 0 && hi == 0 {
			return "signs", signsSource, nil
		}
		canon := fmt.Sprintf("range(%d,%d)", lo, hi)
		var toks, rules, one []string
		toks = append(toks, "BELOW")
		rules = append(rules, fmt.Sprintf("n < %d -> BELOW;", lo))
		for v := lo; v <= hi; v++ {
			toks = append(toks, valueToken(v))
			one = append(one, valueToken(v))
			rules = append(rules, fmt.Sprintf("n == %d -> %s;", v, valueToken(v)))
		}
		toks = append(toks, "ABOVE")
		rules = append(rules, fmt.Sprintf("n > %d -> ABOVE;", hi))
		return canon, spec(canon, toks, one, rules), nil
	case "set":
		if !hasArgs || len(vals) == 0 {
			return "", "", fmt.Errorf("abstraction set takes one or more values: %s", famSyntax(fam))
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
		uniq := vals[:1]
		for _, v := range vals[1:] {
			if v != uniq[len(uniq)-1] {
				uniq = append(uniq, v)
			}
		}
		if len(uniq)+1 > MaxTokens {
			return "", "", fmt.Errorf("abstraction %s: too many tokens (%d, at most %d)", name, len(uniq)+1, MaxTokens)
		}
		var strs, toks, rules, others []string
		for _, v := range uniq {
			strs = append(strs, strconv.FormatInt(v, 10))
			toks = append(toks, valueToken(v))
			rules = append(rules, fmt.Sprintf("n == %d -> %s;", v, valueToken(v)))
			others = append(others, fmt.Sprintf("n != %d", v))
		}
		canon := "set(" + strings.Join(strs, ",") + ")"
		one := append([]string(nil), toks...)
		toks = append(toks, "OTHER")
		rules = append(rules, strings.Join(others, " && ")+" -> OTHER;")
		return canon, spec(canon, toks, one, rules), nil
	case "modulo":
		if err := nargs(1); err != nil {
			return "", "", err
		}
		k := vals[0]
		if k < 2 || k > 32 {
			return "", "", fmt.Errorf("abstraction %s: the modulus must be between 2 and 32", name)
		}
		if k == 2 {
			return "evenodd", evenOddSource, nil
		}
		canon := fmt.Sprintf("modulo(%d)", k)
		var toks, rules []string
		for i := range k {
			toks = append(toks, fmt.Sprintf("R%d", i))
			if i == 0 {
				rules = append(rules, fmt.Sprintf("n %% %d == 0 -> R0;", k))
			} else {
				rules = append(rules, fmt.Sprintf("n %% %d == %d || n %% %d == %d -> R%d;", k, i, k, i-k, i))
			}
		}
		return canon, spec(canon, toks, nil, rules), nil
	}
	return "", "", fmt.Errorf("unknown abstraction %q (the library has concrete, point, signs, evenodd, range(l,u), set(v1,…,vn), modulo(k))", source.Excerpt(name))
}

func famSyntax(fam string) string {
	for _, f := range Families {
		if strings.HasPrefix(f.Syntax, fam) {
			return f.Syntax
		}
	}
	return fam
}

// valueToken names the token of one value: V3, VM3 for -3.
func valueToken(v int64) string {
	if v < 0 {
		return fmt.Sprintf("VM%d", -v)
	}
	return fmt.Sprintf("V%d", v)
}

func spec(canon string, toks, one, rules []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s, from birch's abstraction library\n", canon)
	fmt.Fprintf(&b, "abstraction %s abstracts int\nbegin\n", identOf(canon))
	fmt.Fprintf(&b, "  TOKENS = {%s};\n", strings.Join(toks, ", "))
	if len(one) > 0 {
		fmt.Fprintf(&b, "  ONE2ONE = {%s};\n", strings.Join(one, ", "))
	}
	b.WriteString("  abstract(n)\n  begin\n")
	for _, r := range rules {
		fmt.Fprintf(&b, "    %s\n", r)
	}
	b.WriteString("  end\nend\n")
	return b.String()
}

// identOf turns a canonical name into a BASL identifier: range(0,3) is
// Range_0_3, set(-1,2) is Set_M1_2.
func identOf(canon string) string {
	r := strings.NewReplacer("(", "_", ")", "", ",", "_", "-", "M")
	s := r.Replace(canon)
	return strings.ToUpper(s[:1]) + s[1:]
}

const signsSource = `// signs, from birch's abstraction library
abstraction Signs abstracts int
begin
  TOKENS = {NEG, ZERO, POS};
  ONE2ONE = {ZERO};
  abstract(n)
  begin
    n < 0 -> NEG;
    n == 0 -> ZERO;
    n > 0 -> POS;
  end
end
`

const evenOddSource = `// evenodd, from birch's abstraction library
abstraction EvenOdd abstracts int
begin
  TOKENS = {EVEN, ODD};
  abstract(n)
  begin
    n % 2 == 0 -> EVEN;
    n % 2 != 0 -> ODD;
  end
end
`
