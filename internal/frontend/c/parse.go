package c

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"modernc.org/cc/v4"

	"birch/internal/source"
)

// gccTimeout bounds the preprocessor's run: no input makes birch hang.
var gccTimeout = 60 * time.Second

// preprocess runs gcc's preprocessor on a .c program. It asks for the
// 32-bit target under ILP32, whose headers a 64-bit host often lacks; it then
// preprocesses for the host, which gives the same text for every program
// that does not test the target's macros (__LP64__, __SIZEOF_LONG__, ...):
// the sizes of the types are the data model's, set by the type checker.
func preprocess(filename string, src []byte, cfg Config) ([]byte, error) {
	gcc := cfg.GCC
	if gcc == "" {
		gcc = "gcc"
	}
	if _, err := exec.LookPath(gcc); err != nil {
		return nil, source.ErrorList{{Pos: source.Position{Filename: filename, Line: 1, Column: 1},
			Msg: fmt.Sprintf("cannot preprocess the C program: %s not found (set the C compiler with the GCC setting)", gcc)}}
	}
	dir := filepath.Dir(filename)
	var attempts [][]string
	if cfg.DataModel == ILP32 {
		// the host's preprocessor then gets the 32-bit target's
		// predefined macros that say how wide long and pointers are
		// (limits.h's LONG_MAX is __LONG_MAX__: left at the host's
		// 2^63 - 1, it became -1 in a 32-bit long, a wrong value)
		attempts = append(attempts, []string{"-m32"}, ilp32Macros)
	} else {
		attempts = append(attempts, nil)
	}
	var stderr []byte
	for _, extra := range attempts {
		args := append([]string{"-E", "-x", "c", "-I", dir}, extra...)
		out, errb, err := runGCC(gcc, append(args, "-"), src)
		if err == nil {
			return renameStdin(out, filename), nil
		}
		if u, ok := err.(*UnsupportedError); ok {
			return nil, u.at(filename)
		}
		stderr = errb
	}
	return nil, gccErrors(stderr, filename)
}

// ilp32Macros are gcc's predefined macros of a 32-bit x86 target that tell
// the width of long and of pointers, for a host that preprocesses for itself
// (glibc's own headers still test __WORDSIZE, which follows the host: SIZE_MAX,
// INTPTR_MAX, PTRDIFF_MAX keep their 64-bit values there).
var ilp32Macros = []string{
	"-U__LP64__", "-U_LP64",
	"-U__LONG_MAX__", "-D__LONG_MAX__=2147483647L",
	"-U__SIZEOF_LONG__", "-D__SIZEOF_LONG__=4",
	"-U__SIZEOF_POINTER__", "-D__SIZEOF_POINTER__=4",
	"-U__SIZEOF_SIZE_T__", "-D__SIZEOF_SIZE_T__=4",
	"-U__SIZEOF_PTRDIFF_T__", "-D__SIZEOF_PTRDIFF_T__=4",
	"-U__SIZE_MAX__", "-D__SIZE_MAX__=0xffffffffU",
	"-U__PTRDIFF_MAX__", "-D__PTRDIFF_MAX__=0x7fffffff",
	"-U__INTPTR_MAX__", "-D__INTPTR_MAX__=0x7fffffff",
	"-U__UINTPTR_MAX__", "-D__UINTPTR_MAX__=0xffffffffU",
}

// runGCC runs gcc on stdin, within gccTimeout; the error's text is the
// diagnostics when gcc gives none. A run that the timeout ends is an
// UnsupportedError (inconclusive, exit 3: a limit of birch's, not bad
// input).
func runGCC(gcc string, args []string, stdin []byte) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), gccTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gcc, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		// not the program's fault (a loaded machine, say): a limit,
		// so the verdict is inconclusive, not bad input
		pos := source.Position{Filename: "<stdin>", Line: 1, Column: 1}
		return nil, nil, &UnsupportedError{List: source.ErrorList{{Pos: pos, Msg: fmt.Sprintf("%s did not finish within %v", gcc, gccTimeout)}}}
	}
	if err != nil && errb.Len() == 0 {
		errb.WriteString(err.Error())
	}
	return out.Bytes(), errb.Bytes(), err
}

// syntaxCheck has gcc check the preprocessed program before cc/v4 reads
// it: cc/v4's parser loops forever on some malformed programs (one that
// ends inside a declarator's pointer, 0()*), so a program that gcc
// rejects never reaches it, and gcc's diagnostics say why. Without gcc
// (a .i file) the check is skipped.
func syntaxCheck(filename string, text []byte, cfg Config) error {
	gcc := cfg.GCC
	if gcc == "" {
		gcc = "gcc"
	}
	if _, err := exec.LookPath(gcc); err != nil {
		return nil
	}
	_, stderr, err := runGCC(gcc, []string{"-fsyntax-only", "-w", "-x", "cpp-output", "-"}, text)
	if err == nil {
		return nil
	}
	if u, ok := err.(*UnsupportedError); ok {
		return u.at(filename)
	}
	return gccErrors(stderr, filename)
}

// renameStdin names the program's file in gcc's line markers.
func renameStdin(out []byte, filename string) []byte {
	return bytes.ReplaceAll(out, []byte(`"<stdin>"`), []byte(strconv.Quote(filename)))
}

var gccDiag = regexp.MustCompile(`^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$`)

// gccErrors turns gcc's diagnostics into positioned errors.
func gccErrors(stderr []byte, filename string) error {
	var list source.ErrorList
	for _, line := range strings.Split(string(stderr), "\n") {
		m := gccDiag.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := m[1]
		if file == "<stdin>" {
			file = filename
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		list.Add(source.Position{Filename: file, Line: ln, Column: col}, m[4])
	}
	if len(list) == 0 {
		msg := strings.TrimSpace(string(stderr))
		if msg == "" {
			msg = "the preprocessor failed"
		}
		list.Add(source.Position{Filename: filename, Line: 1, Column: 1}, "preprocessing failed: "+source.ExcerptN(msg, 500))
	}
	return list
}

// gccMarker is a line marker of gcc's output, `# 12 "file.c" 2`, which
// cc/v4 reads only in the standard spelling `#line 12 "file.c"`.
var gccMarker = regexp.MustCompile(`(?m)^#[ \t]+(\d+)[ \t]+("(?:[^"\\]|\\.)*")[ \t0-9]*$`)

// predefined is what the type checker needs of the target beyond the
// program text: the types cc/v4's builtin declarations name.
func predefined(dm DataModel) string {
	sizeT, ptrdiffT := "unsigned int", "int"
	if dm == LP64 {
		sizeT, ptrdiffT = "unsigned long", "long"
	}
	return "#define __SIZE_TYPE__ " + sizeT + "\n" +
		"#define __PTRDIFF_TYPE__ " + ptrdiffT + "\n" +
		"#define __WCHAR_TYPE__ int\n" +
		"#define __UINT16_TYPE__ unsigned short\n" +
		"#define __UINT32_TYPE__ unsigned int\n" +
		"#define __UINT64_TYPE__ unsigned long long\n" +
		"#define __STDC_VERSION__ 199901L\n" +
		"#define __STDC__ 1\n" +
		"#define __GNUC__ 4\n"
}

// prelude is what gcc knows before a program: the macros and types of
// cc.Builtin that the type checker needs, without cc.Builtin's
// declarations of gcc's builtin functions, which conflict with a
// program's own declarations of them under another data model (size_t).
// A builtin function a program calls undeclared is an implicit
// declaration, which the lowering refuses unless it knows the function.
const prelude = `
#define __extension__
#define __restrict_arr restrict
typedef void *__builtin_va_list;
#define __builtin_va_arg(va, type) (*(type*)__builtin_va_arg_impl(va))
#define __builtin_va_copy(dst, src) dst = src
#define __builtin_offsetof(type, member) ((__SIZE_TYPE__)&(((type*)0)->member))
#define __builtin_types_compatible_p(t1, t2) __ccgo__types_compatible_p((t1){}, (t2){})
int __ccgo__types_compatible_p();
int __predefined_declarator;
typedef __SIZE_TYPE__ __predefined_size_t;
typedef __WCHAR_TYPE__ __predefined_wchar_t;
typedef __PTRDIFF_TYPE__ __predefined_ptrdiff_t;
#define __FUNCTION__ __func__
#define __PRETTY_FUNCTION__ __func__
`

// parse type-checks the preprocessed program text.
func parse(filename string, text []byte, dm DataModel) (*cc.AST, error) {
	arch := "386"
	if dm == LP64 {
		arch = "amd64"
	}
	abi, err := cc.NewABI("linux", arch)
	if err != nil {
		return nil, err
	}
	if _, ok := abi.Types[cc.Int128]; !ok {
		// gcc's __int128 of 64-bit targets: declarations that name it
		// (an input function never called) type-check; a value of it is
		// unsupported (classify)
		abi.Types[cc.Int128] = cc.AbiType{Size: 16, Align: 16, FieldAlign: 16}
		abi.Types[cc.UInt128] = cc.AbiType{Size: 16, Align: 16, FieldAlign: 16}
	}
	// cc/v4's scanner does not stop at the end of the text inside a string
	// or character literal (it loops there); it does at a newline, which a
	// line continuation may take: two end every literal
	text = append(text[:len(text):len(text)], "\n\n"...)
	text = gccMarker.ReplaceAll(text, []byte("#line $1 $2"))
	text = blankBodyAttributes(text)
	cfg := &cc.Config{ABI: abi, ExpansionLimit: 1 << 24, FSOnly: true, FS: emptyFS{}}
	ast, err := translateSafely(cfg, []cc.Source{
		{Name: "<predefined>", Value: predefined(dm)},
		{Name: "<builtin>", Value: prelude},
		{Name: filename, Value: text},
	})
	if err != nil {
		list := ccErrors(err, filename).(source.ErrorList)
		var real source.ErrorList
		for _, e := range list {
			if !strings.HasPrefix(e.Msg, todoPrefix) && e.Msg != tooLarge {
				real = append(real, e)
			}
		}
		if len(real) == 0 {
			// only the type checker's own limits (its TODO paths): a
			// construct it does not handle, not an error of the program
			return nil, &UnsupportedError{List: list}
		}
		return nil, real
	}
	return ast, nil
}

// translateSafely runs cc.Translate, turning a panic of the type checker
// (its "TODO" paths) into an error.
func translateSafely(cfg *cc.Config, sources []cc.Source) (ast *cc.AST, err error) {
	defer func() {
		if r := recover(); r != nil {
			ast, err = nil, fmt.Errorf("the C type checker failed: %v", r)
		}
	}()
	return cc.Translate(cfg, sources)
}

var ccDiag = regexp.MustCompile(`^(.*?):(\d+):(\d+): (.*)$`)

// ccErrors turns cc/v4's error lines into positioned errors.
func ccErrors(err error, filename string) error {
	var list source.ErrorList
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if m := ccDiag.FindStringSubmatch(line); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			list.Add(source.Position{Filename: m[1], Line: ln, Column: col}, cleanCCMessage(m[4]))
			continue
		}
		list.Add(source.Position{Filename: filename, Line: 1, Column: 1}, cleanCCMessage(line))
	}
	if len(list) == 0 {
		list.Add(source.Position{Filename: filename, Line: 1, Column: 1}, err.Error())
	}
	list.RemoveMultiples()
	return list
}

// ccInternal is the source location cc/v4 appends to some messages.
var ccInternal = regexp.MustCompile(` \([a-z0-9_]+\.go:\d+:[a-zA-Z0-9_]+:?\)$`)

const todoPrefix = "the C type checker does not handle "

// tooLarge is the message of an integer constant that fits no type of
// its suffix (18446744073709551618, 9223372036854775810LL): gcc warns
// ("integer constant is too large for its type", "... so large that it is
// unsigned") and gives it a truncated or wider (__int128, unsigned)
// value; the type checker refuses it, and birch does not guess the value:
// unsupported, not bad input.
const tooLarge = "an integer constant too large for its type (gcc warns and gives it a truncated or wider value)"

// ccTooLarge matches the type checker's messages for such a constant.
var ccTooLarge = regexp.MustCompile(`^(invalid integer constant|strconv\.Parse(Uint|Int): parsing "[0-9a-fA-FxX]*": value out of range)$`)

func cleanCCMessage(s string) string {
	s = ccInternal.ReplaceAllString(s, "")
	if ccTooLarge.MatchString(s) {
		return tooLarge
	}
	if t, ok := strings.CutPrefix(s, "TODO "); ok {
		s = todoPrefix + t
	}
	return s
}

// blankBodyAttributes blanks the GNU attributes between a function
// definition's declarator and its body (void f(void) __attribute__((noreturn))
// { ... }), which gcc accepts and cc/v4 does not parse. They do not change
// what the program computes. Spaces replace them, so positions stay.
func blankBodyAttributes(text []byte) []byte {
	const kw = "__attribute__"
	var out []byte
	for i := 0; ; {
		j := bytes.Index(text[i:], []byte(kw))
		if j < 0 {
			break
		}
		start := i + j
		// the attributes that follow one another from here
		end := start
		for {
			k := skipSpace(text, end)
			if !bytes.HasPrefix(text[k:], []byte(kw)) {
				break
			}
			k = skipSpace(text, k+len(kw))
			if k >= len(text) || text[k] != '(' {
				break
			}
			close := balanced(text, k)
			if close < 0 {
				break
			}
			end = close + 1
		}
		if end > start && skipSpace(text, end) < len(text) && text[skipSpace(text, end)] == '{' && afterParen(text, start) {
			if out == nil {
				out = append([]byte(nil), text...)
			}
			for k := start; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
		}
		i = start + len(kw)
	}
	if out == nil {
		return text
	}
	return out
}

func skipSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// balanced is the index of the parenthesis closing the one at i, or -1.
func balanced(text []byte, i int) int {
	depth := 0
	for k := i; k < len(text); k++ {
		switch text[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// afterParen tells whether the text before i ends with ')' (a function
// declarator), so that an attribute before a struct's { stays.
func afterParen(text []byte, i int) bool {
	for i--; i >= 0 && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'); i-- {
	}
	return i >= 0 && text[i] == ')'
}

// emptyFS has no files: a program's #include is resolved by gcc, never
// by the type checker reading the host's files.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// at names filename in e's positions (runGCC reads the program on stdin).
func (e *UnsupportedError) at(filename string) *UnsupportedError {
	for _, x := range e.List {
		x.Pos.Filename = filename
	}
	return e
}
