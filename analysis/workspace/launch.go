package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
)

// EntryShape is what the text of a unit's files says about how the unit
// is launched: the evidence analysis/unit's launch model decides from.
type EntryShape struct {
	// Entry is the unit's root file.
	Entry string
	// StubLinked: an `@pl.jit.extern` stub names the entry.
	StubLinked bool
	// Configured says where a runtime kernel configuration (an `incores`
	// list of simpler's CALLABLE) names the entry ("file.py:line"), "" when
	// none does.
	Configured string
	// ExternC: the entry declares an extern "C" function.
	ExternC bool
	// RuntimeABI: a function of the entry, not inline, takes a `__gm__
	// int64_t *` as its only parameter (the runtime's `kernel(args)`).
	RuntimeABI bool
	// ArgsParam: a function of the entry takes a `__gm__ int64_t *`
	// among other parameters.
	ArgsParam bool
	// Global: the entry defines a `__global__` kernel.
	Global bool
	// Launch names a file of the entry's folder that launches a kernel
	// (`<<<…>>>` or an ACL launch call), "" when none does.
	Launch string
	// Included: another file's compile includes the entry (a header with
	// a runtime-ABI helper is a library, not a kernel).
	Included bool
	// CPUTest: the entry includes gtest and launches no kernel: a unit
	// test calling the kernel on the CPU (its line, "" when not).
	CPUTest string
}

// EntryShape returns the launch evidence of the unit rooted at entry.
func (w *Workspace) EntryShape(entry string) EntryShape {
	entry = Abs(entry)
	sh := EntryShape{Entry: entry}
	s := w.scanOf(entry)
	if s == nil {
		return sh
	}
	_, sh.StubLinked = w.stubKind(entry)
	sh.Configured = w.ConfiguredBy(entry)
	sh.ExternC = s.externC
	sh.RuntimeABI = s.runtimeFn
	sh.ArgsParam = s.argsFn && !s.runtimeFn
	sh.Global = s.global
	for _, inc := range s.includes {
		if inc.Path == "gtest/gtest.h" && !s.launch {
			sh.CPUTest = fmt.Sprintf("%s:%d", filepath.Base(entry), inc.Line+1)
		}
	}
	if s.launch {
		sh.Launch = entry
	} else if s.global {
		// The host file next to the kernel usually holds the launch.
		sh.Launch = w.launchIn(filepath.Dir(entry))
	}
	for _, u := range w.unitsOf(entry) {
		if u != entry {
			sh.Included = true
		}
	}
	return sh
}

// launchIn returns the first file of dir (in path order) that launches a
// kernel; the folders' launches are found once per include graph.
func (w *Workspace) launchIn(dir string) string {
	w.mu.Lock()
	m := w.launchDirs
	w.mu.Unlock()
	if m == nil {
		m = map[string]string{}
		for _, p := range w.KnownFiles() {
			if s := w.scanOf(p); s != nil && s.launch {
				if d := filepath.Dir(p); m[d] == "" {
					m[d] = p
				}
			}
		}
		w.mu.Lock()
		w.launchDirs = m
		w.mu.Unlock()
	}
	return m[dir]
}

// BuildSetting is one compile setting read from a plain build file: a
// CMake list, a shell or make script, or a Python build helper.
type BuildSetting struct {
	// Key is "dcci-insert-for-scalar", "dcci-before-kernel-end" (Value
	// "true" or "false"), "cpu-sim" (the file defines __CPU_SIM) or
	// "device" (the file passes device compile switches).
	Key, Value string
	// File and Line say where (Line 1-based).
	File string
	Line int
}

// buildFileNames says which files of a folder are read as build files.
func isBuildFile(name string) bool {
	switch name {
	case "CMakeLists.txt", "Makefile", "makefile", "build.sh", "compile.sh":
		return true
	}
	switch filepath.Ext(name) {
	case ".cmake", ".sh", ".mk":
		return true
	}
	return false
}

// maxBuildFile caps a build file's read: a plain one is far smaller.
const maxBuildFile = 1 << 20

// BuildSettings returns the compile settings of the build files of dir,
// cached per folder (read from disk; an edit is seen after a change of
// roots).
func (w *Workspace) BuildSettings(dir string) []BuildSetting {
	dir = Abs(dir)
	w.mu.Lock()
	build := memoOf(&w.build)
	w.mu.Unlock()
	if got, ok := build.get(dir); ok {
		return got
	}
	var out []BuildSetting
	ents, err := os.ReadDir(dir)
	if err == nil {
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			if e.Type().IsRegular() && isBuildFile(e.Name()) {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			p := filepath.Join(dir, n)
			src, _, err := fsys.ReadFile(p, maxBuildFile)
			if err != nil {
				continue
			}
			out = append(out, buildSettingsOf(p, src)...)
		}
	}
	w.mu.Lock()
	if w.build == build {
		build.put(dir, out, 0)
	}
	w.mu.Unlock()
	return out
}

// buildSettingsOf reads the compiler switches and definitions of one build
// file's text; comment lines (# …) say nothing.
func buildSettingsOf(path string, src []byte) []BuildSetting {
	var out []BuildSetting
	for i, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		l := string(t)
		for _, key := range []string{"dcci-insert-for-scalar", "dcci-before-kernel-end"} {
			k := strings.Index(l, "cce-aicore-"+key+"=")
			if k < 0 {
				continue
			}
			v := l[k+len("cce-aicore-"+key+"="):]
			for _, b := range []string{"false", "true"} {
				if strings.HasPrefix(v, b) {
					out = append(out, BuildSetting{Key: key, Value: b, File: path, Line: i + 1})
				}
			}
		}
		if definesCPUSim(l) {
			out = append(out, BuildSetting{Key: "cpu-sim", Value: "true", File: path, Line: i + 1})
		}
		if strings.Contains(l, "cce-aicore") || strings.Contains(l, "ccec") {
			// A device compile's switches: a __CPU_SIM next to them is an
			// optional simulator build of the same kernels.
			out = append(out, BuildSetting{Key: "device", Value: "true", File: path, Line: i + 1})
		}
	}
	return out
}

// definesCPUSim: `-D__CPU_SIM`, or a CMake definition of __CPU_SIM.
func definesCPUSim(l string) bool {
	k := strings.Index(l, "__CPU_SIM")
	if k < 0 || k+len("__CPU_SIM") < len(l) && isWordByte(l[k+len("__CPU_SIM")]) {
		return false
	}
	return strings.Contains(l, "-D__CPU_SIM") || strings.Contains(l, "compile_definitions") && strings.Contains(l, "__CPU_SIM")
}

// BuildSettingsUp returns the build settings of dir and its parents up to
// the workspace root holding dir (or dir alone outside the roots),
// nearest folder first.
func (w *Workspace) BuildSettingsUp(dir string) []BuildSetting {
	dir = Abs(dir)
	root := ""
	for _, r := range w.Roots() {
		if (dir == r || strings.HasPrefix(dir, r+string(filepath.Separator))) && len(r) > len(root) {
			root = r
		}
	}
	var out []BuildSetting
	for d := dir; ; {
		out = append(out, w.BuildSettings(d)...)
		parent := filepath.Dir(d)
		if root == "" || d == root || parent == d {
			break
		}
		d = parent
	}
	return out
}

// LaunchCount is a tiling field the operator's host code sets to the
// number of blocks it launches.
type LaunchCount struct {
	// File and Line are the host's SetBlockDim call (Line 1-based).
	File string
	Line int
}

// maxHostFiles bounds the host sources read for one operator.
const maxHostFiles = 64

// LaunchCounts returns the tiling fields the host code of the operator
// holding dir sets to its launch's block count: the `op_host` folder
// beside an ancestor of dir (an operator's `op_kernel`), whose tiling
// sources pass SetBlockDim the value they store in the field
// (`SetBlockDim(n)` and `tiling.set_usedCoreNum(n)` or `.usedCoreNum =
// n`) or the field itself (`SetBlockDim(tiling.get_usedCoreNum())`). A
// field counts only when every host file naming it launches that many
// blocks (or one) at each of its SetBlockDim calls. Read from disk and
// cached per operator folder, like BuildSettings.
func (w *Workspace) LaunchCounts(dir string) map[string]LaunchCount {
	host := ""
	for d, i := Abs(dir), 0; i < 4; d, i = filepath.Dir(d), i+1 {
		if st, err := os.Stat(filepath.Join(d, "op_host")); err == nil && st.IsDir() {
			host = filepath.Join(d, "op_host")
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if host == "" {
		return nil
	}
	w.mu.Lock()
	counts := memoOf(&w.counts)
	w.mu.Unlock()
	if got, ok := counts.get(host); ok {
		return got
	}
	var files []string
	filepath.WalkDir(host, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(files) < maxHostFiles && (strings.HasSuffix(p, ".cpp") || strings.HasSuffix(p, ".cc") || strings.HasSuffix(p, ".h")) {
			files = append(files, p)
		}
		return nil
	})
	out := map[string]LaunchCount{}
	bad := map[string]bool{}
	for _, p := range files {
		src, _, err := fsys.ReadFile(p, maxBuildFile)
		if err != nil {
			continue
		}
		bound, line, ok := launchBinding(string(src))
		for f := range bound {
			if _, seen := out[f]; !seen && ok {
				out[f] = LaunchCount{File: p, Line: line}
			}
		}
		if line == 0 {
			continue
		}
		// A file launching another count: the fields it names are not
		// the launch's count there.
		for _, f := range wordsOf(string(src)) {
			if acc, ok := strings.CutPrefix(f, "set_"); ok {
				f = acc
			} else if acc, ok := strings.CutPrefix(f, "get_"); ok {
				f = acc
			}
			if !ok || !bound[f] {
				bad[f] = true
			}
		}
	}
	for f := range bad {
		delete(out, f)
	}
	w.mu.Lock()
	if w.counts == counts {
		counts.put(host, out, 0)
	}
	w.mu.Unlock()
	return out
}

// launchBinding reads one host source: the fields every SetBlockDim call
// of it launches the count of (a call launching one block binds any),
// the first call's line (0: none), and whether each call binds a field.
func launchBinding(src string) (map[string]bool, int, bool) {
	var bound map[string]bool
	line, ok := 0, true
	for i := 0; ; {
		k := strings.Index(src[i:], "SetBlockDim(")
		if k < 0 {
			break
		}
		start := i + k + len("SetBlockDim")
		end := closeParen(src, start)
		if end < 0 {
			return nil, 0, false
		}
		if line == 0 {
			line = strings.Count(src[:start], "\n") + 1
		}
		i = end
		arg := uncastText(src[start+1 : end-1])
		if arg == "1" {
			continue
		}
		fields := map[string]bool{}
		if f, ok := strings.CutSuffix(arg, "()"); ok {
			if j := strings.LastIndex(f, "get_"); j >= 0 && (j == 0 || f[j-1] == '.' || f[j-1] == '>') {
				fields[f[j+4:]] = true
			}
		} else if j := strings.LastIndexAny(arg, ".>"); j > 0 && isWordText(arg[j+1:]) {
			fields[arg[j+1:]] = true
		} else if isWordText(arg) {
			for _, f := range storedFrom(src, arg) {
				fields[f] = true
			}
		}
		if bound == nil {
			bound = fields
		} else {
			for f := range bound {
				if !fields[f] {
					delete(bound, f)
				}
			}
		}
		ok = ok && len(bound) > 0
	}
	return bound, line, ok
}

// storedFrom lists the fields src stores value v in: `set_F(v)`,
// `.F = v;`, `->F = v;`.
func storedFrom(src, v string) []string {
	var out []string
	for i := 0; ; {
		k := strings.Index(src[i:], "set_")
		if k < 0 {
			break
		}
		j := i + k + len("set_")
		e := j
		for e < len(src) && isWordByte(src[e]) {
			e++
		}
		i = e
		if e == j || e >= len(src) || src[e] != '(' || j > len("set_") && isWordByte(src[j-len("set_")-1]) {
			continue
		}
		if end := closeParen(src, e); end > 0 && uncastText(src[e+1:end-1]) == v {
			out = append(out, src[j:e])
		}
	}
	for _, line := range strings.Split(src, ";") {
		l, r, found := strings.Cut(line, "=")
		if !found || strings.HasPrefix(r, "=") || uncastText(r) != v {
			continue
		}
		l = strings.TrimSpace(l)
		if j := strings.LastIndexAny(l, ".>"); j > 0 && isWordText(l[j+1:]) && (l[j] == '.' || l[j-1] == '-') {
			out = append(out, l[j+1:])
		}
	}
	return out
}

// closeParen returns the offset after the ')' matching the '(' at i, -1
// when there is none within 512 bytes.
func closeParen(src string, i int) int {
	depth := 0
	for j := i; j < len(src) && j < i+512; j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// uncastText is an expression's text without blanks and casts to integer
// types (`static_cast<uint32_t>(n)`, `(uint32_t)n`, `uint32_t(n)`).
func uncastText(s string) string {
	s = strings.Join(strings.Fields(s), "")
	for {
		t := s
		if strings.HasPrefix(s, "static_cast<") {
			if j := strings.Index(s, ">("); j > 0 && strings.HasSuffix(s, ")") {
				s = s[j+2 : len(s)-1]
			}
		}
		for _, ty := range []string{"uint32_t", "int32_t", "uint64_t", "int64_t", "int", "size_t"} {
			if strings.HasPrefix(s, "("+ty+")") {
				s = s[len(ty)+2:]
			} else if strings.HasPrefix(s, ty+"(") && strings.HasSuffix(s, ")") {
				s = s[len(ty)+1 : len(s)-1]
			}
		}
		if s == t {
			return s
		}
	}
}

func isWordText(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

// wordsOf lists the words of src (once each).
func wordsOf(src string) []string {
	seen := map[string]bool{}
	var out []string
	for i := 0; i < len(src); {
		if !isWordByte(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		if w := src[i:j]; !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
		i = j
	}
	return out
}
