package procgroup

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"birch/internal/procgroup/proctest"
)

// startShell starts sh -c script with Attr and returns it and the first
// line it prints (a pid).
func startShell(t *testing.T, script string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = Attr()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("the shell printed %q (%v)", line, err)
	}
	return cmd, pid
}

// TestKillGroup: Kill stops the tool and what it started.
func TestKillGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	cmd, child := startShell(t, "sleep 300 & echo $!; wait")
	if err := Kill(cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if proctest.Alive(child) {
		t.Errorf("the tool's child still runs")
	}
}

// TestDiesWithParent: a tool started with Attr is killed when the process
// that started it dies (here a child copy of this test binary, killed with
// SIGKILL so that it can clean nothing up).
func TestDiesWithParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux's")
	}
	if os.Getenv("BIRCH_TEST_PROCGROUP_PARENT") == "1" {
		cmd := exec.Command("sh", "-c", "echo $$; exec sleep 300")
		cmd.SysProcAttr = Attr()
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			os.Exit(2)
		}
		cmd.Wait()
		os.Exit(0)
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestDiesWithParent$")
	parent.Env = append(os.Environ(), "BIRCH_TEST_PROCGROUP_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	tool, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("the parent printed %q", line)
	}
	parent.Process.Kill()
	parent.Wait()
	if proctest.Alive(tool) {
		syscall.Kill(tool, syscall.SIGKILL)
		t.Errorf("the tool outlived the process that started it")
	}
}
