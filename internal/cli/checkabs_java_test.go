package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// jdataProgs are the Java programs of the abstraction tests
// (testdata/java/jdata), compiled once for the test binary (a build of
// their own: javaProgs' directory is checked for its main classes).
var jdataProgs = testenv.JavaBuild{Patterns: []string{"testdata/java/jdata/*.java", "testdata/java/jdata/obj/*.java"}}

// TestJavaAbstraction: Bandera's pipeline on a Java program. Account's
// static int balance, read by Verifier.nondetInt() deposits, fails only
// through a wrap of Java's int (refinement finds it without abstraction);
// with --abstract Account.balance=signs and Account.main.amt=signs (the
// input: an unbounded choice, of values the abstraction stands for), the
// static field and the local named as the Java user names them (the
// model's global Account_balance, Account_main's amt), the check passes
// for the executions without a wrap and says so, and names the abstracted
// variables in Java terms. The field with its package and with the
// model's name resolve too; a binding that leaves the input concrete
// stops at its unbounded choice; Overdraw's real bug is found and
// confirmed.
func TestJavaAbstraction(t *testing.T) {
	dir := jdataProgs.Dir(t)
	account := filepath.Join(dir, "jdata", "Account.class")
	if status, out, errs := runMain("check", account); status != ExitViolation {
		t.Fatalf("without abstraction: status %d, want the violation through the wrap\n%s%s", status, out, errs)
	}
	status, out, errs := runMain("check", account, "--abstract", "Account.balance=signs", "--abstract", "Account.main.amt=signs")
	if status != ExitPass {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"properties: safety (assertions, runtime errors; deadlock freedom and the absence of int overflow not proven; executions where an abstracted value wraps around not covered): pass\n",
		"it may wrap at jdata/Account.java:14:1: conversion int32(…), jdata/Account.java:15:1: conversion int32(…))\n",
		"abstraction: Account.balance=signs, Account.main.amt=signs\n",
		"  abstracted: jdata.Account.balance signs, ",
		" jdata.Account.deposit.amount signs, ",
		" jdata.Account.main.amt signs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, b := range []string{"jdata.Account.balance=signs", "Account_balance=signs"} {
		status, out, errs := runMain("check", "--json", account, "--abstract", b, "--abstract", "jdata.Account.main.amt=signs")
		var doc struct {
			Verdict     string
			Abstraction struct{ Variables map[string]string }
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || status != ExitPass || doc.Abstraction.Variables["jdata.Account.balance"] != "signs" {
			t.Errorf("--abstract %s: status %d, %v, variables %v\n%s", b, status, err, doc.Abstraction.Variables, errs)
		}
	}
	if status, out, errs := runMain("abstraction", "infer", account, "--abstract", "Account.balance=signs"); status != ExitPass || !strings.Contains(out, "Account_balance        signs    bound by --abstract Account.balance=signs\n") {
		t.Errorf("abstraction infer: status %d\n%s%s", status, out, errs)
	}
	if status, out, _ := runMain("check", account, "--abstract", "Account.balance=signs"); status != ExitInconclusive || !strings.Contains(out, "Account.java:19:1: amt := externChoose(int32) chooses among 2^32 values") {
		t.Errorf("the input left concrete: status %d\n%s", status, out)
	}
	if status, _, errs := runMain("check", account, "--abstract", "Account.nothing=signs"); status != ExitBadInput || !strings.Contains(errs, "--abstract Account.nothing=signs: no thread, function or record type Account") {
		t.Errorf("a name of nothing: status %d\n%s", status, errs)
	}
	status, out, errs = runMain("check", filepath.Join(dir, "jdata", "Overdraw.class"), "--abstract", "Overdraw.balance=signs", "--abstract", "Overdraw.main.amt=signs")
	if status != ExitViolation || !strings.Contains(out, "found by the choose-free search of the abstract model (not caused by abstraction); confirmed on the concrete model") {
		t.Errorf("Overdraw: status %d\n%s%s", status, out, errs)
	}
	status, _, errs = runMain("check", filepath.Join(dir, "jdata", "Overdraw.class"), "--abstract", "Overdraw.withdraw.amount=signs")
	if want := "--abstract Overdraw.withdraw.amount=signs: Overdraw.withdraw.amount names 2 variables of the Java program's model: Overdraw_withdraw.amount, Overdraw_withdraw_2.amount (bind one of them by its name in the model)"; status != ExitBadInput || !strings.Contains(errs, want) {
		t.Errorf("an overloaded method: status %d\n%s\nwant %s", status, errs, want)
	}
}

// TestJavaPredicates: a predicate file of a Java program in Java terms
// (static fields Account.balance and jdata.Account.balance, scopes [method
// Account.main]) is read with the model's names by birch vet and by
// birch check --predicates, whose c2bp abstraction models int's wrap
// exactly: it finds the violation that two deposits of 2^30 or more make,
// and the replay confirms it (the abstract trail takes the invisible runs
// of the lowered methods one transformation at a time).
func TestJavaPredicates(t *testing.T) {
	dir := jdataProgs.Dir(t)
	account := filepath.Join(dir, "jdata", "Account.class")
	preds := filepath.Join("testdata", "java", "jdata", "account.pred")
	if status, out, errs := runMain("vet", "--predicates", preds, account); status != ExitPass || !strings.Contains(out, "ok (6 predicates)") {
		t.Errorf("vet: status %d\n%s%s", status, out, errs)
	}
	status, out, errs := runMain("check", account, "--predicates", preds)
	if status != ExitViolation || !strings.Contains(out, "p5_amount_gt_0: [function Account_deposit] amount > 0\n") || !strings.Contains(out, "confirmed on the concrete model") {
		t.Errorf("check: status %d\n%s%s", status, out, errs)
	}
}

// TestJavaAbstractionObjects: Bandera's pipeline on objects, a thread and
// monitors: Account.balance names the int field of class Account's
// record; with it and the input abstracted by signs, Bank passes for the
// executions where the balance does not wrap (the predicate abstraction
// cannot check it: a lock reached through abstracted data), and
// BankRace's withdrawal before the deposit is found by the choose-free
// search and confirmed with an input value.
func TestJavaAbstractionObjects(t *testing.T) {
	dir := jdataProgs.Dir(t)
	status, out, errs := runMain("check", filepath.Join(dir, "jdata", "obj", "Bank.class"), "--abstract", "Account.balance=signs", "--abstract", "Bank.main.amt=signs")
	if status != ExitPass || !strings.Contains(out, "executions where an abstracted value wraps around not covered): pass\n") ||
		!strings.Contains(out, "  abstracted: jdata.obj.Account.balance signs, ") || !strings.Contains(out, "may wrap (not covered): jdata/obj/Bank.java:13:1: conversion int32(…)\n") {
		t.Errorf("Bank: status %d\n%s%s", status, out, errs)
	}
	status, out, errs = runMain("check", filepath.Join(dir, "jdata", "BankRace.class"), "--abstract", "Wallet.balance=signs", "--abstract", "BankRace.main.amt=signs")
	if status != ExitViolation || !strings.Contains(out, "found by the choose-free search of the abstract model (not caused by abstraction); confirmed on the concrete model") {
		t.Errorf("BankRace: status %d\n%s%s", status, out, errs)
	}
}

// TestJavaAbstractTrail: the abstract trail that is not confirmed, and
// where it parts ways, are worded in Java terms like a trail: the thread
// main, the Java frames.
func TestJavaAbstractTrail(t *testing.T) {
	dir := jdataProgs.Dir(t)
	status, out, errs := runMain("check", filepath.Join(dir, "jdata", "Decrement.class"), "--abstract", "Decrement.main.x=signs")
	if status != ExitInconclusive {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{"abstracted: jdata.Decrement.main.x signs, jdata.Decrement.main.y signs, jdata.Decrement.main.z signs\n",
		" main  jdata.Decrement.main(Decrement.java:10)  Decrement_main.L0 -> ", "not confirmed: step 4: main at "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "main_[1]") {
		t.Errorf("the model's thread name in:\n%s", out)
	}
}
