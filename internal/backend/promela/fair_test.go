package promela

import "testing"

// TestNFair checks NFair against pan's rule: pan -f stops with "too many
// processes" when the processes (never claim included) plus one reach
// 4*NFAIR; NFair is the smallest NFAIR from pan's default 2 up that avoids it.
func TestNFair(t *testing.T) {
	for procs := 1; procs <= 70; procs++ {
		n := NFair(procs)
		tooMany := func(nfair int) bool { return procs+1 >= 4*nfair }
		if tooMany(n) || n > 2 && !tooMany(n-1) {
			t.Errorf("NFair(%d) = %d: not the smallest NFAIR of at least 2 that pan accepts", procs, n)
		}
	}
	// pan's own message for NFAIR=2: "current max is 6 procs"
	if NFair(6) != 2 || NFair(7) != 3 {
		t.Errorf("NFair(6), NFair(7) = %d, %d; want 2, 3", NFair(6), NFair(7))
	}
}
