package cli

import "birch/internal/testenv"

// jframeProgs are TestJavaFrameOfSharedLine's programs (two classes with
// code on one line) and TestJavaResetsLeftOut's.
var jframeProgs = testenv.JavaBuild{Patterns: []string{"testdata/java/jframe/*.java"}}

// The package's sets of Java test programs (jcli's, jdata's, jpromela's,
// examples/java and jframe) compile in one JVM: one javac start instead of
// one each, each set still into a directory of its own (the tests of a
// directory's main classes see only theirs).
func init() {
	testenv.Together(&javaProgs, &jdataProgs, &jpromelaProgs, &javaExamples, &jframeProgs)
}
