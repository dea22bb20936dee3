package feasible

import (
	"strconv"

	"birch/internal/model"
)

// MatchGroups maps the transformations of abs to those of conc by name: a
// transformation of abs stands for the transformation of conc that has the
// same thread or function name, leaves the location of the same name, and
// has the same position among that location's transformations. This is
// the correspondence of an abstract model generated one-to-one from conc
// (threads, locations and transformation order kept). Transformations
// without a counterpart map to -1.
func MatchGroups(abs, conc *model.Model) func(int) int {
	key := func(g model.Group) string {
		k := 0
		for i, t := range g.From.Decl.Transformations {
			if t == g.Decl {
				k = i
			}
		}
		kind := "f:"
		if g.Proc.Thread {
			kind = "t:"
		}
		return kind + g.Proc.Name() + "\x00" + g.From.Name() + "\x00" + strconv.Itoa(k)
	}
	byKey := map[string]int{}
	for _, g := range conc.Groups() {
		byKey[key(g)] = g.Index
	}
	ag := abs.Groups()
	table := make([]int, len(ag))
	for i, g := range ag {
		if c, ok := byKey[key(g)]; ok {
			table[i] = c
		} else {
			table[i] = -1
		}
	}
	return func(i int) int {
		if i < 0 || i >= len(table) {
			return -1
		}
		return table[i]
	}
}
