package c2bp

// GenForTest returns the generated model of a seed and its predicate
// file, for the tests of package c2bp_test (which may import the
// packages that import c2bp): kind "threads" (genDefault), "calls"
// (genCalls), "start" (genStart), "heap" (genHeap), "arrays" (genArrays) or "invariant" (genInvariant).
func GenForTest(seed uint64, kind string) (model, preds string) {
	opts := map[string]genOptions{"threads": genDefault, "calls": genCalls, "start": genStart, "heap": genHeap, "arrays": genArrays, "invariant": genInvariant}[kind]
	gm := genRandomModel(seed, opts)
	return gm.Src, gm.PredFile()
}
