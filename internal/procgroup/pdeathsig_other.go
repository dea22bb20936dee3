//go:build !linux

package procgroup

import "syscall"

func dieWithParent(*syscall.SysProcAttr) {}
