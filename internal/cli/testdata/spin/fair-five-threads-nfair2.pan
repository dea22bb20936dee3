warning: only one claim defined, -N ignored
pan: error: too many processes -- current max is 6 procs (-DNFAIR=2)
	recompile with -DNFAIR=3

pan: elapsed time 1.72e+07 seconds
pan: rate         0 states/second
