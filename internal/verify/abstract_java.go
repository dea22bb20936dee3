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
