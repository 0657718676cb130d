package workspace

// The include folders a project's build names where it says them plainly:
// CMake's include_directories and target_include_directories (and -I in a
// command's arguments), -I in shell and make scripts and in setup.py, and
// compile_commands.json. A folder's build dirs are those its own build
// files name, then its parents' up to the workspace root: a CMakeLists'
// folders apply to the sources under it, as its targets' sources and its
// subdirectories' are. Anything not plain (a variable set outside the tree,
// a generator expression) is skipped and counted, never guessed.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
)

// BuildDir is an include folder a build file names.
type BuildDir struct {
	Dir  string
	File string // the build file
	Line int    // 1-based
}

// buildFolder is what the build files of one folder and its parents say
// about includes: dirs (nearest folder first), the CMake variables in
// effect there (cmake, nil outside any CMakeLists) and the entries left
// out of each build file (skipped: "file:line: entry").
type buildFolder struct {
	dirs    []BuildDir
	cmake   *cmakeVars
	skipped []string
}

// BuildIncludeDirs returns the include folders the build files of dir and
// its parents (up to the workspace root holding dir) name, nearest first,
// and the entries they name that could not be evaluated. Outside the
// roots, or with build-includes off (SetBuildIncludes): none. Cached per
// folder until the roots change.
func (w *Workspace) BuildIncludeDirs(dir string) ([]BuildDir, []string) {
	w.mu.Lock()
	off := w.noBuildIncludes
	w.mu.Unlock()
	if off {
		return nil, nil
	}
	b := w.buildFolder(Abs(dir), w.rootOf(Abs(dir)))
	if b == nil {
		return nil, nil
	}
	return b.dirs, b.skipped
}

// NamedBuildDirs returns the include folders the build files of dir and
// its parents name, whether or not build-includes searches them: what
// --statistics says a switch would find.
func (w *Workspace) NamedBuildDirs(dir string) []BuildDir {
	b := w.buildFolder(Abs(dir), w.rootOf(Abs(dir)))
	if b == nil {
		return nil
	}
	return b.dirs
}

// BuildIncludesOff reports whether build-includes is off (SetBuildIncludes).
func (w *Workspace) BuildIncludesOff() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.noBuildIncludes
}

// rootOf is the deepest root holding p, or "".
func (w *Workspace) rootOf(p string) string {
	root := ""
	for _, r := range w.Roots() {
		if under(p, r) && len(r) > len(root) {
			root = r
		}
	}
	return root
}

func (w *Workspace) buildFolder(dir, root string) *buildFolder {
	if root == "" || !under(dir, root) {
		return nil
	}
	w.mu.Lock()
	m := memoOf(&w.buildDirs)
	w.mu.Unlock()
	if b, ok := m.get(dir); ok {
		return b
	}
	var parent *buildFolder
	if dir != root {
		parent = w.buildFolder(filepath.Dir(dir), root)
	}
	b := readBuildFolder(dir, root, parent)
	w.mu.Lock()
	if w.buildDirs == m {
		m.put(dir, b, 0)
	}
	w.mu.Unlock()
	return b
}

// readBuildFolder reads the build files directly in dir on top of what
// its parent's say.
func readBuildFolder(dir, root string, parent *buildFolder) *buildFolder {
	b := &buildFolder{}
	if parent != nil {
		b.cmake = parent.cmake
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && (IsBuildFile(n) || n == "setup.py") && !strings.HasSuffix(n, ".cmake") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if slices.Contains(names, "CMakeLists.txt") {
		// The list first: it is the build's own word on this folder.
		names = append([]string{"CMakeLists.txt"}, slices.DeleteFunc(names, func(n string) bool { return n == "CMakeLists.txt" })...)
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		src, _, err := fsys.ReadFile(p, maxBuildFile)
		if err != nil {
			continue
		}
		var r dirReader
		if n == "CMakeLists.txt" {
			v := b.cmake.child(dir, root)
			r = dirReader{file: p, vars: v}
			r.cmakeList(src, 0)
			b.cmake = v
		} else {
			r = dirReader{file: p}
			r.script(src, n == "setup.py")
		}
		b.dirs = append(b.dirs, r.dirs...)
		b.skipped = append(b.skipped, r.skipped...)
	}
	if dir == root {
		for _, db := range []string{filepath.Join(root, "compile_commands.json"), filepath.Join(root, "build", "compile_commands.json")} {
			b.dirs = append(b.dirs, compileDBDirs(db)...)
		}
	} else if parent != nil {
		b.dirs = append(b.dirs, parent.dirs...)
		b.skipped = append(b.skipped, parent.skipped...)
	}
	b.dirs, b.skipped = slices.Clip(dedupDirs(b.dirs)), slices.Clip(b.skipped)
	return b
}

func dedupDirs(dirs []BuildDir) []BuildDir {
	seen := map[string]bool{}
	return slices.DeleteFunc(dirs, func(d BuildDir) bool {
		if seen[d.Dir] {
			return true
		}
		seen[d.Dir] = true
		return false
	})
}

// dirReader collects the include folders of one build file.
type dirReader struct {
	file    string
	vars    *cmakeVars
	dirs    []BuildDir
	skipped []string
}

// add records folder d (relative to base) named at line, or counts it as
// skipped when it holds what could not be evaluated (ok false).
func (r *dirReader) add(d, base string, line int, ok bool) {
	if !ok || d == "" || strings.ContainsAny(d, "$<>`*") {
		r.skipped = append(r.skipped, r.file+":"+strconv.Itoa(line)+": "+d)
		return
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(base, d)
	}
	r.dirs = append(r.dirs, BuildDir{Dir: filepath.Clean(d), File: r.file, Line: line})
}

// flagDirs reads -I<dir> and -I <dir> from a command's words; expand
// evaluates a word (false: it names what is not known).
func (r *dirReader) flagDirs(words []string, base string, line int, expand func(string) (string, bool)) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-I") {
			continue
		}
		d := w[2:]
		if d == "" && i+1 < len(words) {
			i++
			d = words[i]
		}
		v, ok := expand(strings.Trim(d, `"'`))
		r.add(v, base, line, ok)
	}
}

// script reads -I in a shell or make script (or a setup.py, whose
// include_dirs lists of string literals count too), relative to its
// folder. A variable is known when the script assigned it a literal
// (NAME=value, NAME := value) or its own folder (`$(dirname "$0")`,
// `$(pwd)`, `$(CURDIR)`).
func (r *dirReader) script(src []byte, setup bool) {
	base := filepath.Dir(r.file)
	vars := map[string]string{"CURDIR": base, "PWD": base}
	expand := func(s string) (string, bool) { return expandShell(s, vars, base) }
	inList := false
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if name, val, ok := shellAssign(t); ok {
			if v, known := expand(val); known {
				vars[name] = v
			} else {
				delete(vars, name)
			}
		}
		words := strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ", ",", " ", "[", " ", "]", " ").Replace(t))
		r.flagDirs(words, base, i+1, expand)
		if setup {
			if k := strings.Index(t, "include_dirs"); k >= 0 && strings.Contains(t[k:], "[") {
				inList, t = true, t[k+strings.Index(t[k:], "["):]
			}
			if inList {
				for _, lit := range pyStrings(t) {
					if !strings.HasPrefix(lit, "-") {
						r.add(lit, base, i+1, true)
					}
				}
				if strings.Contains(t, "]") {
					inList = false
				}
			}
		}
	}
}

// pyStrings are the string literals of a line of Python.
func pyStrings(t string) []string {
	var out []string
	for {
		k := strings.IndexAny(t, `"'`)
		if k < 0 {
			return out
		}
		q := t[k]
		e := strings.IndexByte(t[k+1:], q)
		if e < 0 {
			return out
		}
		out = append(out, t[k+1:k+1+e])
		t = t[k+e+2:]
	}
}

// shellAssign reads `NAME=value`, `export NAME=value`, `NAME := value`,
// `NAME ?= value` or `NAME = value` (make).
func shellAssign(t string) (name, val string, ok bool) {
	t = strings.TrimPrefix(t, "export ")
	k := strings.IndexByte(t, '=')
	if k <= 0 {
		return "", "", false
	}
	name = strings.TrimRight(t[:k], " :?+")
	if name == "" || !isIdent(name) || strings.HasSuffix(t[:k], "+") {
		return "", "", false
	}
	return name, strings.Trim(strings.TrimSpace(t[k+1:]), `"'`), true
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isWordByte(c) {
			return false
		}
	}
	return s[0] < '0' || s[0] > '9'
}

// expandShell substitutes $NAME, ${NAME} and $(NAME) from vars and the
// script-folder idioms; false when a reference is to anything else.
func expandShell(s string, vars map[string]string, base string) (string, bool) {
	if strings.Contains(s, "dirname") && (strings.Contains(s, "$0") || strings.Contains(s, "BASH_SOURCE")) {
		// SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd): the script's folder.
		if k := strings.LastIndexByte(s, ')'); k >= 0 {
			return base + s[k+1:], true
		}
	}
	for _, idiom := range []string{"$(pwd)", "`pwd`", "$(shell pwd)"} {
		s = strings.ReplaceAll(s, idiom, base)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		j, name := i+1, ""
		if j < len(s) && (s[j] == '{' || s[j] == '(') {
			e := strings.IndexByte(s[j:], map[byte]byte{'{': '}', '(': ')'}[s[j]])
			if e < 0 {
				return s, false
			}
			name, i = s[j+1:j+e], j+e
		} else {
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			name, i = s[i+1:j], j-1
		}
		v, ok := vars[name]
		if !ok || !isIdent(name) {
			return s, false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// compileDBDirs reads the -I folders of a compile_commands.json: each
// applies to the folder of its entry's file (and below).
func compileDBDirs(path string) []BuildDir {
	src, _, err := fsys.ReadFile(path, 64<<20)
	if err != nil {
		return nil
	}
	var entries []struct {
		Directory, File, Command string
		Arguments                []string
	}
	if json.Unmarshal(src, &entries) != nil {
		return nil
	}
	var out []BuildDir
	for i, e := range entries {
		args := e.Arguments
		if len(args) == 0 {
			args = strings.Fields(e.Command)
		}
		r := dirReader{file: path}
		r.flagDirs(args, e.Directory, i+1, func(s string) (string, bool) { return s, true })
		out = append(out, r.dirs...)
	}
	return out
}
