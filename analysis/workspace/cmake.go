package workspace

// A CMake list read as far as its include folders need: commands and
// their arguments, set()/list(APPEND)/get_filename_component() of values
// that are plain, project(), include() of a .cmake file in the tree, both
// branches of an if(), function bodies where they are written. A variable
// CMake or the toolkit sets (${ASCEND_HOME_PATH}) is not known here.

import (
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
)

// cmakeVars are the variables in effect in a folder (a child list starts
// from its parent's, as add_subdirectory does); never changed once made.
type cmakeVars struct {
	m map[string]string
}

// child is the variables a CMakeLists.txt in dir starts from.
func (v *cmakeVars) child(dir, root string) *cmakeVars {
	c := &cmakeVars{m: map[string]string{}}
	if v != nil {
		for k, x := range v.m {
			c.m[k] = x
		}
	} else {
		c.m["CMAKE_SOURCE_DIR"], c.m["PROJECT_SOURCE_DIR"] = dir, dir
	}
	c.m["CMAKE_CURRENT_SOURCE_DIR"], c.m["CMAKE_CURRENT_LIST_DIR"] = dir, dir
	return c
}

// cmakeCmd is one command of a list: its name (lower case), arguments
// (quoted says which were quoted) and line.
type cmakeCmd struct {
	name   string
	args   []string
	quoted []bool
	line   int
}

// cmakeCommands splits a CMake list into commands.
func cmakeCommands(src string) []cmakeCmd {
	var out []cmakeCmd
	line := 1
	i := 0
	skipComment := func() {
		if strings.HasPrefix(src[i:], "#[[") {
			if e := strings.Index(src[i:], "]]"); e >= 0 {
				line += strings.Count(src[i:i+e], "\n")
				i += e + 2
				return
			}
		}
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == '#':
			skipComment()
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if k >= len(src) || src[k] != '(' {
				i = j
				continue
			}
			cmd := cmakeCmd{name: strings.ToLower(src[i:j]), line: line}
			i = k + 1
			depth := 1
			var tok strings.Builder
			has := false
			flush := func(q bool) {
				if has || q {
					cmd.args = append(cmd.args, tok.String())
					cmd.quoted = append(cmd.quoted, q)
				}
				tok.Reset()
				has = false
			}
			for i < len(src) && depth > 0 {
				c := src[i]
				switch {
				case c == '\n' || c == ' ' || c == '\t' || c == '\r':
					if c == '\n' {
						line++
					}
					flush(false)
					i++
				case c == '#':
					flush(false)
					skipComment()
				case c == '"':
					flush(false)
					e := i + 1
					for e < len(src) && src[e] != '"' {
						if src[e] == '\\' {
							e++
						}
						e++
					}
					e = min(e, len(src))
					line += strings.Count(src[i:e], "\n")
					tok.WriteString(src[i+1 : e])
					flush(true)
					i = e + 1
				case c == '(':
					depth++
					tok.WriteByte(c)
					has = true
					i++
				case c == ')':
					depth--
					if depth > 0 {
						tok.WriteByte(c)
						has = true
					}
					i++
				default:
					tok.WriteByte(c)
					has = true
					i++
				}
			}
			flush(false)
			out = append(out, cmd)
		default:
			i++
		}
	}
	return out
}

// expand substitutes ${NAME} and keeps $<BUILD_INTERFACE:x> as x; false
// when it refers to a variable not known or another generator
// expression.
func (v *cmakeVars) expand(s string) (string, bool) {
	for {
		k := strings.LastIndex(s, "${")
		if k < 0 {
			break
		}
		e := strings.IndexByte(s[k:], '}')
		if e < 0 {
			return s, false
		}
		x, ok := v.m[s[k+2:k+e]]
		if !ok {
			return s, false
		}
		s = s[:k] + x + s[k+e+1:]
	}
	if strings.HasPrefix(s, "$<BUILD_INTERFACE:") && strings.HasSuffix(s, ">") {
		s = s[len("$<BUILD_INTERFACE:") : len(s)-1]
	}
	return s, !strings.Contains(s, "$<") && !strings.Contains(s, "$ENV{")
}

// values expands a command's arguments into a list (an unquoted
// argument's value splits at ';'); bad lists those that did not expand.
func (v *cmakeVars) values(c cmakeCmd, from int) (vals []string, bad []string) {
	for i := from; i < len(c.args); i++ {
		x, ok := v.expand(c.args[i])
		if !ok {
			bad = append(bad, c.args[i])
			continue
		}
		if c.quoted[i] {
			vals = append(vals, x)
		} else if x != "" {
			vals = append(vals, strings.Split(x, ";")...)
		}
	}
	return vals, bad
}

// maxCMakeInclude bounds include() nesting.
const maxCMakeInclude = 8

// cmakeList reads a list's include folders, updating r.vars as it goes.
func (r *dirReader) cmakeList(src []byte, depth int) {
	v := r.vars
	base := v.m["CMAKE_CURRENT_SOURCE_DIR"]
	for _, c := range cmakeCommands(string(src)) {
		switch c.name {
		case "set":
			if len(c.args) == 0 {
				continue
			}
			end := len(c.args)
			for i := 1; i < len(c.args); i++ {
				if !c.quoted[i] && (c.args[i] == "CACHE" || c.args[i] == "PARENT_SCOPE") {
					end = i
					break
				}
			}
			vals, bad := v.values(cmakeCmd{args: c.args[:end], quoted: c.quoted[:end]}, 1)
			v.set(c.args[0], vals, len(bad) == 0)
		case "list":
			if len(c.args) >= 2 && c.args[0] == "APPEND" {
				old, had := v.m[c.args[1]]
				vals, bad := v.values(c, 2)
				if old != "" {
					vals = append([]string{old}, vals...)
				}
				v.set(c.args[1], vals, len(bad) == 0 && (had || !v.unknown(c.args[1])))
			}
		case "get_filename_component":
			if len(c.args) >= 3 {
				p, ok := v.expand(c.args[1])
				if ok && !filepath.IsAbs(p) {
					p = filepath.Join(base, p)
				}
				switch c.args[2] {
				case "DIRECTORY", "PATH":
					p = filepath.Dir(p)
				case "ABSOLUTE", "REALPATH":
					p = filepath.Clean(p)
				default:
					ok = false
				}
				v.set(c.args[0], []string{p}, ok)
			}
		case "project":
			if len(c.args) > 0 {
				v.m["PROJECT_SOURCE_DIR"] = base
				v.m[c.args[0]+"_SOURCE_DIR"] = base
			}
		case "include":
			if len(c.args) == 0 || depth >= maxCMakeInclude {
				continue
			}
			p, ok := v.expand(c.args[0])
			if !ok || !strings.HasSuffix(p, ".cmake") {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			if inc, _, err := fsys.ReadFile(p, maxBuildFile); err == nil {
				// The included file's own folder is CMAKE_CURRENT_LIST_DIR.
				sub := dirReader{file: p, vars: v}
				v.m["CMAKE_CURRENT_LIST_DIR"] = filepath.Dir(p)
				sub.cmakeList(inc, depth+1)
				v.m["CMAKE_CURRENT_LIST_DIR"] = base
				r.dirs = append(r.dirs, sub.dirs...)
				r.skipped = append(r.skipped, sub.skipped...)
			}
		case "include_directories", "target_include_directories", "ascendc_include_directories":
			// ascendc.cmake's ascendc_include_directories(target ...) adds
			// a kernel library's folders as target_include_directories does.
			from := 0
			if c.name != "include_directories" {
				from = 1
			}
			for i := from; i < len(c.args); i++ {
				switch c.args[i] {
				case "SYSTEM", "AFTER", "BEFORE", "PUBLIC", "PRIVATE", "INTERFACE":
					continue
				}
				if strings.HasPrefix(c.args[i], "$<INSTALL_INTERFACE:") {
					continue
				}
				vals, bad := v.values(cmakeCmd{args: c.args[i : i+1], quoted: c.quoted[i : i+1]}, 0)
				for _, d := range vals {
					r.add(d, base, c.line, true)
				}
				for _, d := range bad {
					r.add(d, base, c.line, false)
				}
			}
		default:
			// -I in a command's arguments: compile options, a custom
			// command's compiler line.
			if !strings.Contains(strings.Join(c.args, " "), "-I") {
				continue
			}
			var words []string
			for _, a := range c.args {
				words = append(words, strings.Fields(a)...)
			}
			r.flagDirs(words, base, c.line, v.expand)
		}
	}
}

// set records NAME's value, or that it is not known.
func (v *cmakeVars) set(name string, vals []string, ok bool) {
	if !ok {
		delete(v.m, name)
		v.m["\x00"+name] = ""
		return
	}
	delete(v.m, "\x00"+name)
	v.m[name] = strings.Join(vals, ";")
}

// unknown reports whether NAME was set to what could not be evaluated.
func (v *cmakeVars) unknown(name string) bool {
	_, ok := v.m["\x00"+name]
	return ok
}
