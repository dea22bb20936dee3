package verify

import (
	"fmt"
	"sort"
	"strings"

	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/types"
	"birch/internal/frontend/java"
)

// Bindings of a Java program name its variables as its user knows them
// (docs/java.md, "Checking with abstraction"): a static field
// `Account.count` (the model's global Account_count), an instance field
// `Account.balance` (the field balance of the class's record), a local or
// parameter `Account.deposit.amount` (of the function Account_deposit),
// each with or without the package (`bank.Account.count`). The model's
// own names (Account_count, Account_deposit.amount) stay valid.

// JavaBindings is javaBindings for the bindings of a check of in (bs as
// they are for an input of another language).
func JavaBindings(in *Input, bs []infer.Binding) ([]infer.Binding, error) {
	if in == nil || in.Java == nil {
		return bs, nil
	}
	return javaBindings(in.Prog, &in.Java.Names, bs)
}

// javaBindings rewrites the targets of bs that name a Java program's
// variables in Java terms into the model's names; a target that names
// none is left as it is (a name of the model). A target that names two
// variables of the model is an error.
func javaBindings(prog *types.Program, names *java.Names, bs []infer.Binding) ([]infer.Binding, error) {
	out := make([]infer.Binding, len(bs))
	var errs []string
	for i, b := range bs {
		out[i] = b
		cands := javaTargets(prog, names, b.Target)
		switch len(cands) {
		case 0:
		case 1:
			out[i].Target = cands[0]
		default:
			errs = append(errs, fmt.Sprintf("%s: %s names %d variables of the Java program's model: %s (bind one of them by its name in the model)",
				b.Where, b.Target, len(cands), strings.Join(cands, ", ")))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// javaNamed reports whether the Java name java (a binary name, "bank.Account"
// or "bank.Account.count") is named by name: itself or its last dotted
// components ("Account", "Account.count").
func javaNamed(java, name string) bool {
	return java == name || strings.HasSuffix(java, "."+name)
}

// javaTargets lists the model's names of the variables target names in
// Java terms.
func javaTargets(prog *types.Program, names *java.Names, target string) []string {
	dot := strings.LastIndexByte(target, '.')
	if dot < 0 || names == nil {
		return nil
	}
	scope, last := target[:dot], target[dot+1:]
	set := map[string]bool{}
	for g, jn := range names.Globals {
		if javaNamed(jn, target) {
			set[g] = true
		}
	}
	for r, jn := range names.Types {
		if !javaNamed(jn, scope) {
			continue
		}
		if tn, ok := prog.Lookup(r).(*types.TypeName); ok {
			if rec, ok := tn.Type().Underlying().(*types.Record); ok && rec.Field(last) != nil {
				set[r+"."+last] = true
			}
		}
	}
	for f, jn := range names.Functions {
		if i := strings.IndexByte(jn, '('); i >= 0 {
			jn = jn[:i]
		}
		if !javaNamed(jn, scope) {
			continue
		}
		if p, ok := prog.Procs.LookupLocal(f).(*types.Proc); ok {
			for _, v := range p.Vars() {
				if v.Name() == last {
					set[f+"."+last] = true
				}
			}
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// javaVarName names an abstracted variable of a Java program's model in
// Java terms for the report: a static field by its Java name, a field by
// its class's, a local by its method's; "" when names do not say.
func javaVarName(names *java.Names, v *types.Var, record string) string {
	switch v.Kind {
	case types.GlobalVar:
		return names.Globals[v.Name()]
	case types.FieldVar:
		if c, ok := names.Types[record]; ok {
			return c + "." + v.Name()
		}
	case types.LocalVar, types.ParamVar:
		if v.Owner == nil {
			return ""
		}
		if m, ok := names.Functions[v.Owner.Name()]; ok {
			if i := strings.IndexByte(m, '('); i >= 0 {
				m = m[:i]
			}
			return m + "." + v.Name()
		}
	}
	return ""
}

// readPredicates reads a predicate file for a check of in: a Java
// program's in Java terms (JavaPredicates).
func readPredicates(in *Input, read ReadFunc, name string) ([]byte, error) {
	src, err := readWith(read, name)
	if err != nil {
		return nil, err
	}
	return JavaPredicates(in, src), nil
}

// JavaPredicates rewrites a predicate file of a Java program written in
// Java terms into the model's names (docs/predicates.md, "Java
// programs"): a scope [method Account.deposit] or [function
// Account.deposit] names the method's function (Account_deposit), and a
// static field Account.count or bank.Account.count in an expression the
// model's global (Account_count). A name is replaced in place, padded with
// spaces to its length, so that positions in the file stay those of the
// text as written; the model's own names stay valid. in without a Java
// program: src as it is.
func JavaPredicates(in *Input, src []byte) []byte {
	if in == nil || in.Java == nil {
		return src
	}
	names := &in.Java.Names
	lines := strings.Split(string(src), "\n")
	for i, line := range lines {
		lines[i] = javaPredicateLine(in.Prog, names, line)
	}
	return []byte(strings.Join(lines, "\n"))
}

// javaPredicateLine is JavaPredicates on one line of a predicate file.
func javaPredicateLine(prog *types.Program, names *java.Names, line string) string {
	body, comment := line, ""
	if i := strings.IndexByte(line, '#'); i >= 0 {
		body, comment = line[:i], line[i:]
	}
	if t := strings.TrimLeft(body, " \t"); strings.HasPrefix(t, "[") {
		if end := strings.IndexByte(t, ']'); end > 0 {
			start := len(body) - len(t)
			kw, name, ok := strings.Cut(strings.TrimSpace(t[1:end]), " ")
			name = strings.TrimSpace(name)
			if ok && (kw == "method" || kw == "function") && strings.Contains(name, ".") {
				if f := javaMethod(names, name); f != "" {
					scope := "[function " + f + "]"
					body = body[:start] + pad(scope, end+1) + t[end+1:]
				}
			}
		}
	}
	// static fields: the longest dotted names first, not after a dot (a
	// field through a reference) nor inside a longer name
	var out strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		if !(c == '_' || c == '$' || isLetter(c)) || i > 0 && (isIdent(body[i-1]) || body[i-1] == '.') {
			out.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(body) && (isIdent(body[j]) || body[j] == '.' && j+1 < len(body) && isIdent(body[j+1])) {
			j++
		}
		word := body[i:j]
		if g := javaStatic(prog, names, word); g != "" {
			out.WriteString(pad(g, len(word)))
		} else {
			out.WriteString(word)
		}
		i = j
	}
	return out.String() + comment
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdent(c byte) bool  { return c == '_' || c == '$' || isLetter(c) || c >= '0' && c <= '9' }

// pad pads s with spaces to n bytes (s longer: s).
func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

// javaMethod is the function of the one method name names ("Account.deposit",
// "bank.Account.deposit"), or "" (none, or overloads).
func javaMethod(names *java.Names, name string) string {
	found := ""
	for f, jn := range names.Functions {
		if i := strings.IndexByte(jn, '('); i >= 0 {
			jn = jn[:i]
		}
		if javaNamed(jn, name) {
			if found != "" {
				return ""
			}
			found = f
		}
	}
	return found
}

// javaStatic is the global of the static field a dotted word names, or ""
// (a word with no dot, or whose first part is a variable of the model,
// is not one).
func javaStatic(prog *types.Program, names *java.Names, word string) string {
	first, _, ok := strings.Cut(word, ".")
	if !ok {
		return ""
	}
	if _, isVar := prog.Lookup(first).(*types.Var); isVar {
		return ""
	}
	found := ""
	for g, jn := range names.Globals {
		if javaNamed(jn, word) {
			if found != "" {
				return ""
			}
			found = g
		}
	}
	return found
}
