warning: only one claim defined, -N ignored

(Spin Version 6.5.2 -- 6 December 2019)

Full statespace search for:
	never claim         	+ (ltl_eventually)
	assertion violations	+ (if within scope of claim)
	acceptance   cycles 	+ (fairness enabled)
	invalid end states	- (disabled by never claim)

State-vector 68 byte, depth reached 64, errors: 0
       32 states, stored (161 visited)
      245 states, matched
      406 transitions (= visited+matched)
        0 atomic steps
hash conflicts:         0 (resolved)

Stats on memory usage (in Megabytes):
    0.003	equivalent memory usage for states (stored*(State-vector + overhead))
    0.288	actual memory usage for states
  128.000	memory used for hash table (-w24)
   53.406	memory used for DFS stack (-m1000000)
  181.601	total actual memory usage



pan: elapsed time 0 seconds
