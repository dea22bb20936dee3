package procgroup

import "syscall"

// Attr returns the attributes for a tool's process: a process group of its
// own, led by the tool, and (on Linux) SIGKILL when birch dies.
func Attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(a)
	return a
}

// Kill sends sig to the process group led by the process pid, started with
// Attr.
func Kill(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
