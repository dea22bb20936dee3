package verify

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// spinDir returns the private temporary directory a SPIN run works in.
// cleanup removes it, after copying its files to keep when keep is not ""
// (a copy that fails is a warning: "--keep: ...").
func spinDir(keep string, warn func(string)) (dir string, cleanup func(), err error) {
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", nil, err
		}
	}
	dir, err = os.MkdirTemp("", "birch-spin-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() {
		if keep != "" {
			if err := keepSpinFiles(dir, keep); err != nil {
				warn("--keep: " + err.Error())
			}
		}
		os.RemoveAll(dir)
	}, nil
}

// keepSpinFiles copies the files of SPIN's run from dir to keep. Each is
// created afresh (O_EXCL, O_NOFOLLOW) after the entry of its name in keep
// is removed, so a symbolic or hard link planted in keep is replaced,
// never written through.
func keepSpinFiles(dir, keep string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, ent := range ents {
		if !ent.Type().IsRegular() {
			continue
		}
		if err := copyNew(filepath.Join(dir, ent.Name()), filepath.Join(keep, ent.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyNew copies the file src to a new file dst, replacing (not
// following) what is at dst.
func copyNew(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
