package cli

import "birch/internal/testenv"

// The package's four sets of Java test programs (jcli's, jdata's,
// jpromela's and examples/java) compile in one JVM: one javac start
// instead of four, each set still into a directory of its own (the tests
// of a directory's main classes see only theirs).
func init() { testenv.Together(&javaProgs, &jdataProgs, &jpromelaProgs, &javaExamples) }
