# bench/goamd64.sh: sourced by the benchmark scripts before they build birch. Unless GOAMD64 is
# set already, it sets GOAMD64=v3 when this is an x86-64 Linux machine whose processor has every
# feature of the x86-64-v3 level (AVX2, BMI1/2, FMA, F16C, LZCNT, MOVBE: most x86-64 processors
# since 2015), so that birch is compiled for the machine it is measured on, as `pan` is. A plain
# `go build` targets the v1 baseline; docs/performance.md gives the difference (a few percent).
if [[ -z ${GOAMD64:-} && $(uname -m) == x86_64 && -r /proc/cpuinfo ]]; then
	flags=" $(grep -m1 '^flags' /proc/cpuinfo) "
	v3=1
	for f in avx avx2 bmi1 bmi2 fma f16c abm movbe xsave; do
		if [[ $flags != *" $f "* ]]; then
			v3=0
		fi
	done
	if [[ $v3 == 1 ]]; then
		export GOAMD64=v3
	fi
fi
