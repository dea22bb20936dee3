package c_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/cli"
)

// TestVerdicts checks the programs of testdata/verdict with birch check:
// a name ending in -safe passes (exit 0), one ending in -unsafe has a
// violation (exit 1); one named -task- is checked as an SV-COMP
// unreach-call task of reach_error; long-ilp32-unsafe is safe under LP64; of the golden
// programs, loops.c passes and externs.c fails. A program
// with an int input is checked by refinement, which may also end
// inconclusive (exit 3), but never with the wrong answer.
func TestVerdicts(t *testing.T) {
	if why := engineRunsFixedWidth(t); why != "" {
		t.Skip("the explicit engine does not run BIR's fixed-width types yet: " + why)
	}
	files, _ := filepath.Glob("testdata/verdict/*.c")
	if len(files) == 0 {
		t.Fatal("no testdata/verdict/*.c")
	}
	type run struct {
		file, dm string
		want     int
		ovf      bool // --overflow-error
	}
	var runs []run
	for _, f := range files {
		want := 0
		if strings.HasSuffix(f, "-unsafe.c") {
			want = 1
		}
		runs = append(runs, run{f, "ILP32", want, false})
	}
	runs = append(runs, run{"testdata/verdict/long-ilp32-unsafe.c", "LP64", 0, false},
		run{"testdata/loops.c", "ILP32", 0, false}, run{"testdata/externs.c", "ILP32", 1, false},
		run{"testdata/mainargs.c", "ILP32", 0, false},
		// signed overflow as an error: unsigned wrap-around is none
		run{"testdata/verdict/overflow-unsafe.c", "ILP32", 1, true},
		run{"testdata/verdict/wrap-safe.c", "ILP32", 0, true},
		run{"testdata/verdict/recursion-safe.c", "ILP32", 0, true},
		run{"testdata/verdict/const-overflow-safe.c", "ILP32", 1, true},
		run{"testdata/verdict/mod-intmin-safe.c", "ILP32", 1, true},
		run{"testdata/verdict/mod-intmin-safe.c", "LP64", 1, true})
	for _, r := range runs {
		name := filepath.Base(r.file) + "/" + r.dm
		if r.ovf {
			name += "/overflow-error"
		}
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := []string{"check", "--data-model", r.dm, r.file}
			if r.ovf {
				args = append(args, "--overflow-error")
			}
			if strings.Contains(r.file, "-task-") {
				args = []string{"check", "--task", unreachCallTask(t, r.file, r.dm)}
			}
			status := cli.Main(args, nil, &stdout, &stderr)
			unbounded := strings.Contains(r.file, "nondet-int") || strings.Contains(r.file, "externs") || strings.Contains(r.file, "mainargs")
			if status == r.want || unbounded && status == 3 {
				if status == 3 {
					t.Logf("inconclusive: %s", stdout.String())
				}
				return
			}
			t.Errorf("birch check %s (%s): exit %d, want %d:\n%s%s", r.file, r.dm, status, r.want, stdout.String(), stderr.String())
		})
	}
}

// unreachCallTask writes an SV-COMP task of the unreach-call property for
// a program.
func unreachCallTask(t *testing.T, file, dm string) string {
	dir := t.TempDir()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	prp := "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"
	task := "format_version: '2.0'\ninput_files: '" + abs + "'\nproperties:\n  - property_file: unreach-call.prp\noptions:\n  language: C\n  data_model: " + dm + "\n"
	if err := os.WriteFile(filepath.Join(dir, "unreach-call.prp"), []byte(prp), 0o644); err != nil {
		t.Fatal(err)
	}
	yml := filepath.Join(dir, "task.yml")
	if err := os.WriteFile(yml, []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	return yml
}
