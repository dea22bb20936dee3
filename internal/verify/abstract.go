package verify

// runAbstract checks the plan's properties with data abstraction.
func runAbstract(t *Task, pl *plan) (*Result, error) {
	return nil, errorf("birch: internal error: the check with data abstraction has not moved into package verify yet")
}
