package cli

import (
	"fmt"
	"testing"

	"birch/internal/frontend/java"
	"birch/internal/model"
	"birch/internal/verify"
)

// namerModel is a model with the names a lowered Java program has: a
// main thread, a thread type for Java threads, a collection per
// allocation site (Record_cN), a static field's global, methods'
// functions.
const namerModel = `system Race ()
Bump = record { v : int32; };
Bump_ref = ref Bump;
Bump_c1 : collection [2] of Bump;
Bump_c2 : collection [2] of Bump;
Race_count : int32;

function Bump_run (this : Bump_ref)
  e : Bump_ref;
  loc L1:
    when true do { Race_count := int32(Race_count + 1); e := new Bump_c1; } return;
end Bump_run;

thread JThread (t : Bump_ref)
  loc L1:
    when true do { call Bump_run(t); } goto L2;
  loc L2:
end JThread;

main thread main_ ()
  a : Bump_ref;
  x : tid;
  loc L1:
    when true do { a := new Bump_c2; x := start JThread(a); } goto L2;
  loc L2:
end main_;

end Race;
`

func TestJavaNamer(t *testing.T) {
	in, err := verify.Load("race.bir", []byte(namerModel))
	if err != nil {
		t.Fatal(err)
	}
	in.Java = &java.Output{Names: java.Names{
		Types:     map[string]string{"Bump": "jcli.Race$Bump"},
		Functions: map[string]string{"Bump_run": "jcli.Race$Bump.run()"},
		Globals:   map[string]string{"Race_count": "jcli.Race.count"},
		Threads:   map[string]string{"main_": "jcli.Race.main(String[])", "JThread": "java.lang.Thread.run()"},
	}}
	n := newJavaNamer(in, verify.JavaOptions{MaxArrayLength: 5})
	for _, c := range []struct{ in, want string }{
		{"main_[1].a", "main.a"},
		{"main_[1].a = Bump_c1[0]", "main.a = jcli.Race$Bump@c1[0]"},
		{"JThread[2].Bump_run#1.this", "Thread-0.jcli.Race$Bump.run#1.this"},
		{"JThread[3] @", "Thread-1 @"},
		{"Race_count", "jcli.Race.count"},
		{"Bump_c1[1].Race_count", "jcli.Race$Bump@c1[1].Race_count"},
		{"lock held by JThread[2], waiting: main_[1]", "lock held by Thread-0, waiting: main"},
		{"Bump_c12[0] xBump_c1[0] Race_countx", "Bump_c12[0] xBump_c1[0] Race_countx"},
	} {
		if got := n.text(c.in); got != c.want {
			t.Errorf("text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ loc, pos, want string }{
		{"Bump_run.L1", "src/jcli/Race.java:10:1", "jcli.Race$Bump.run(Race.java:10)"},
		{"main_.L2", "Race.java:17:1", "jcli.Race.main(Race.java:17)"},
		{"Bump_run.L1", "", "jcli.Race$Bump.run()"},
		{"run", "Race.java:3:1", ""},
		{"Other.L1", "Race.java:3:1", ""},
	} {
		if got := n.frame(c.loc, c.pos); got != c.want {
			t.Errorf("frame(%q, %q) = %q, want %q", c.loc, c.pos, got, c.want)
		}
	}
	if got, want := n.limit("cut where a bound was hit: collection Bump_c1 is full (2 objects)"),
		"cut where a bound was hit: new jcli.Race$Bump: its allocation site (c1) has created its 2 objects, the bound of --max-objects"; got != want {
		t.Errorf("limit: %q, want %q", got, want)
	}
	if got, want := n.limit("collection $ArrayTooLong_c is full (1 objects)"), "an array longer than 5 elements, the bound of --max-array-length"; got != want {
		t.Errorf("limit: %q, want %q", got, want)
	}
	for _, c := range []struct{ coll, class, site string }{
		{"int32_arr_c3", "int[]", "c3"},
		{"Bump_arr_c4", "jcli.Race$Bump[]", "c4"},
		{"Bump_c2", "jcli.Race$Bump", "c2"},
		{"int32_arr_c3_2", "int[]", "c3_2"},
		{"Bump_cx", "", ""},
		{"Other_c1", "", ""},
	} {
		if cls, site := collectionClass(c.coll, in.Java.Names.Types); cls != c.class || site != c.site {
			t.Errorf("collectionClass(%s) = %s, %s; want %s, %s", c.coll, cls, site, c.class, c.site)
		}
	}
	v := &verify.Violation{Kind: "deadlock", Threads: []verify.ThreadState{
		{Thread: "JThread[2]", Location: "Bump_run.L1", Waits: []string{"race.bir:9:5: guard lockAvailable(l) is false (held by main_[1])"}},
		{Thread: "main_[1]", Location: "L2"},
	}}
	n.violation(v, nil)
	if got, want := fmt.Sprint(v.Threads), "[{Thread-0 jcli.Race$Bump.run(race.bir:11) false [race.bir:9:5: guard lockAvailable(l) is false (held by main)]} {main L2 false []}]"; got != want {
		t.Errorf("deadlock threads: %s, want %s", got, want)
	}
	// a monitor is named by the object its variable holds in the
	// thread's top activation at the end of the trail (not one that
	// returned, whose variables are gone)
	v = &verify.Violation{Kind: "deadlock", Threads: []verify.ThreadState{
		{Thread: "JThread[2]", Location: "Bump_run.L1", Waits: []string{"x.java:9:1: lock $t0.$mon is held by main_[1]", "x.java:9:1: notified on this.$mon, which is held by main_[1]"}},
	}}
	n.violation(v, []verify.Step{
		{Changes: []model.Var{{Name: "JThread[2].Bump_run#1.$t0", Value: "Bump_c1[0]"}, {Name: "JThread[2].Bump_run#1.this", Value: "Bump_c1[1]"}}},
		{Changes: []model.Var{{Name: "JThread[2].Bump_run#2.$t0", Value: "Bump_c1[2]"}}},
		{Changes: []model.Var{{Name: "JThread[2].Bump_run#2.$t0", Value: "-"}, {Name: "main_[1].Bump_run#1.$t0", Value: "Bump_c1[3]"}}},
	})
	if got, want := fmt.Sprint(v.Threads[0].Waits), "[x.java:9:1: the monitor of jcli.Race$Bump@c1[0] is held by main x.java:9:1: notified on the monitor of jcli.Race$Bump@c1[1], which is held by main]"; got != want {
		t.Errorf("deadlock waits: %s, want %s", got, want)
	}
	// the exception an uncaught violation is about is the object of its
	// class created last (Bump_c1's new is at race.bir:11, in Bump_run)
	// (c2's new is main_'s, in no method)
	trail := []verify.Step{
		{Changes: []model.Var{{Name: "main.jcli.Race.main#1.$e", Value: "jcli.Race$Bump@c2[0]"}}},
		{Changes: []model.Var{{Name: "jcli.Race$Bump@c1[0].v", Value: "0"}}},
		{Changes: []model.Var{{Name: "main.jcli.Race.main#1.$e", Value: "jcli.Race$Bump@c2[0]"}}},
	}
	if got, want := n.createdAt("uncaught jcli.Race$Bump", trail), "jcli.Race$Bump.run(race.bir:11)"; got != want {
		t.Errorf("createdAt: %q, want %q", got, want)
	}
	for _, msg := range []string{"uncaught jcli.Other", "assert failed"} {
		if got := n.createdAt(msg, trail); got != "" {
			t.Errorf("createdAt(%q) = %q, want none", msg, got)
		}
	}
	in.Java = nil
	if newJavaNamer(in, verify.JavaOptions{}) != nil {
		t.Error("a namer for a program that is not Java")
	}
}
