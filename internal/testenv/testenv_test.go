package testenv

import "testing"

func TestLong(t *testing.T) {
	t.Setenv(LongVar, "")
	if Long() {
		t.Errorf("Long with %s empty", LongVar)
	}
	t.Setenv(LongVar, "1")
	if !Long() {
		t.Errorf("not Long with %s=1", LongVar)
	}
}
