package svcomp

// CheckWitness is checkWitness for the external tests.
var CheckWitness = checkWitness
