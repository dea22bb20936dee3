warning: only one claim defined, -N ignored

(Spin Version 6.5.2 -- 6 December 2019)

Full statespace search for:
	never claim         	+ (ltl_notdone)
	assertion violations	+ (if within scope of claim)
	acceptance   cycles 	+ (fairness enabled)
	invalid end states	- (disabled by never claim)

State-vector 36 byte, depth reached 207, errors: 0
      105 states, stored (110 visited)
        5 states, matched
      115 transitions (= visited+matched)
        0 atomic steps
hash conflicts:         0 (resolved)

Stats on memory usage (in Megabytes):
    0.006	equivalent memory usage for states (stored*(State-vector + overhead))
    0.267	actual memory usage for states
  128.000	memory used for hash table (-w24)
    0.011	memory used for DFS stack (-m208)
  128.195	total actual memory usage



pan: elapsed time 0 seconds
