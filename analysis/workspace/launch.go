package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/grammar"
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
	// LaunchedByName: a host file launches the entry's kernel of this
	// name (`k<<<…>>>`, `ACLRT_LAUNCH_KERNEL(k)`, the generated
	// `aclrtlaunch_k.h`): a standalone kernel, whatever its parameters.
	LaunchedByName string
	// Included: another file's compile includes the entry (a header with
	// a runtime-ABI helper is a library, not a kernel).
	Included bool
	// VectorPair: a block of the kernel may run two vector cores, whose
	// GetBlockIdx() counts to twice the block count: the entry declares
	// the task type KERNEL_TYPE_MIX_AIC_1_2 (or one extern-lsp does not
	// know), or none (the compiler then picks it from the code). False
	// when every type it declares runs at most one vector core a block.
	VectorPair bool
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
	// A kernel a macro declares has the parameters the macro gives it.
	sh.Global = s.global || w.isMacroEntry(entry)
	sh.VectorPair = s.taskTypes == 0 || s.taskTypes&taskVectorPair != 0
	for _, inc := range s.includes {
		if inc.Path == "gtest/gtest.h" && !s.launch {
			sh.CPUTest = fmt.Sprintf("%s:%d", filepath.Base(entry), inc.Line+1)
		}
	}
	if s.launch {
		sh.Launch = entry
	} else if sh.Global {
		// The host file next to the kernel usually holds the launch.
		sh.Launch = w.launchIn(filepath.Dir(entry))
	}
	for _, k := range s.kernels {
		if l := w.launchIn("\x00" + k); l != "" && sh.Launch == "" {
			sh.Launch, sh.LaunchedByName = l, k
		}
	}
	for _, u := range w.unitsOf(entry) {
		if u != entry {
			sh.Included = true
		}
	}
	return sh
}

// The task types a file declares (scan.taskTypes): one with at most one
// vector core a block, one with two (or unknown).
const (
	taskOneVector = 1 << iota
	taskVectorPair
)

// launchIn returns the first file of dir (in path order) that launches a
// kernel, or for "\x00"+name the first that launches kernel name; the
// launches are found once per include graph (launchDirs lists them all).
func (w *Workspace) launchIn(dir string) string {
	w.mu.Lock()
	m := w.launchDirs
	w.mu.Unlock()
	if m == nil {
		m = map[string][]string{knownFiles: w.KnownFiles()}
		for _, p := range m[knownFiles] {
			s := w.scanOf(p)
			if s == nil {
				continue
			}
			if d := filepath.Dir(p); s.launch && m[d] == nil {
				m[d] = []string{p}
			}
			for _, k := range s.launched {
				if l := m["\x00"+k]; len(l) == 0 || l[len(l)-1] != p {
					m["\x00"+k] = append(l, p)
				}
			}
		}
		w.mu.Lock()
		w.launchDirs = m
		w.mu.Unlock()
	}
	if l := m[dir]; len(l) > 0 {
		return l[0]
	}
	return ""
}

// knownFiles is the key launchDirs lists every known file under.
const knownFiles = "\x01"

// BuildSetting is one compile setting read from a plain build file: a
// CMake list, a shell or make script, or a Python build helper.
type BuildSetting struct {
	// Key is "dcci-insert-for-scalar", "dcci-before-kernel-end",
	// "cce-auto-sync" (Value "true" or "false"), "cpu-sim" (the file
	// defines __CPU_SIM), "device" (the file passes device compile
	// switches), "ascendc-library" (the file calls ascendc.cmake's
	// `ascendc_library`) or "soc-version" (Value: a chip the file sets
	// SOC_VERSION to, `Ascend910B1`).
	Key, Value string
	// Switch is the compiler switch as the file writes it, for the
	// dcci keys (`--cce-no-dcache-flush` sets dcci-before-kernel-end
	// false: the kernel then ends with a DCI instead of the DCCI); for a
	// soc-version a presets file pins, the cache variable
	// (`ASCEND_COMPUTE_UNIT`).
	Switch string
	// File and Line say where (Line 1-based).
	File string
	Line int
}

// IsBuildFile says which files of a folder are read as build files.
func IsBuildFile(name string) bool {
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
			if e.Type().IsRegular() && IsBuildFile(e.Name()) {
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
		p := filepath.Join(dir, "CMakePresets.json")
		if src, _, err := fsys.ReadFile(p, maxBuildFile); err == nil {
			out = append(out, presetSettings(p, src)...)
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
					out = append(out, BuildSetting{Key: key, Value: b, Switch: "-cce-aicore-" + key + "=" + b, File: path, Line: i + 1})
				}
			}
		}
		if hasWord(l, "--cce-no-dcache-flush") {
			// The kernel ends with a DCI, which drops dirty lines, instead
			// of the default DCCI (asc-devkit's guide, "设置DCI编译选项来减少
			// 算子尾开销"; its op compile turns dcci-before-kernel-end=false
			// into this switch on dav-c310).
			out = append(out, BuildSetting{Key: "dcci-before-kernel-end", Value: "false", Switch: "--cce-no-dcache-flush", File: path, Line: i + 1})
		}
		if k := strings.Index(l, "ascendc_library"); k >= 0 && hasWord(l, "ascendc_library") && strings.HasPrefix(strings.TrimLeft(l[k+len("ascendc_library"):], " \t"), "(") {
			out = append(out, BuildSetting{Key: "ascendc-library", File: path, Line: i + 1})
		}
		if soc := socVersion(l); soc != "" {
			out = append(out, BuildSetting{Key: "soc-version", Value: soc, File: path, Line: i + 1})
		}
		if v, ok := autoSyncSwitch(l); ok {
			out = append(out, BuildSetting{Key: "cce-auto-sync", Value: v, File: path, Line: i + 1})
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

// presetSettings reads the chips a CMake presets file configures the
// build for: each configure preset's `ASCEND_COMPUTE_UNIT` (the op
// project template's choice of chip, a `;` list: `"ascend910b"`) and
// `SOC_VERSION` cache variables, written as a string or as `{"type":
// "STRING", "value": ...}`. A file that is not JSON says nothing.
func presetSettings(path string, src []byte) []BuildSetting {
	var doc struct {
		ConfigurePresets []struct {
			CacheVariables map[string]json.RawMessage `json:"cacheVariables"`
		} `json:"configurePresets"`
	}
	if json.Unmarshal(src, &doc) != nil {
		return nil
	}
	var out []BuildSetting
	for _, p := range doc.ConfigurePresets {
		for _, key := range []string{"ASCEND_COMPUTE_UNIT", "SOC_VERSION"} {
			raw, ok := p.CacheVariables[key]
			if !ok {
				continue
			}
			var v string
			if json.Unmarshal(raw, &v) != nil {
				var typed struct {
					Value string `json:"value"`
				}
				if json.Unmarshal(raw, &typed) != nil {
					continue
				}
				v = typed.Value
			}
			line := 1 + bytes.Count(src[:max(0, bytes.Index(src, []byte(`"`+key+`"`)))], []byte("\n"))
			for _, soc := range strings.Split(v, ";") {
				if soc = strings.TrimSpace(soc); soc != "" {
					out = append(out, BuildSetting{Key: "soc-version", Value: soc, Switch: key, File: path, Line: line})
				}
			}
		}
	}
	return out
}

// hasWord reports whether w occurs in l with no word byte on either side.
func hasWord(l, w string) bool {
	for k := 0; ; {
		i := strings.Index(l[k:], w)
		if i < 0 {
			return false
		}
		i += k
		if (i == 0 || !isWordByte(l[i-1])) && (i+len(w) == len(l) || !isWordByte(l[i+len(w)])) {
			return true
		}
		k = i + 1
	}
}

// socVersion is the chip a build line sets SOC_VERSION to, when it names
// one as plain text (`set(SOC_VERSION "Ascend910B1" ...)`,
// `-DSOC_VERSION=Ascend950PR_9599`, `SOC_VERSION="Ascend310P3"`); "" for
// none or one read from elsewhere (`$ENV{SOC_VERSION}`, `${1:-…}`).
func socVersion(l string) string {
	k := strings.Index(l, "SOC_VERSION")
	if k < 0 || k > 0 && isWordByte(l[k-1]) {
		return ""
	}
	v := strings.TrimLeft(l[k+len("SOC_VERSION"):], " \t")
	if !strings.HasPrefix(v, "=") && !strings.Contains(l[:k], "set(") {
		return ""
	}
	v = strings.TrimLeft(strings.TrimPrefix(v, "="), " \t\"'")
	n := 0
	for n < len(v) && isWordByte(v[n]) {
		n++
	}
	if !strings.HasPrefix(strings.ToLower(v[:n]), "ascend") {
		return ""
	}
	return v[:n]
}

// autoSyncSwitch reads `--cce-auto-sync=off`/`=on` or a bare
// `--cce-auto-sync` (on) in a build file's line; the log switch
// (`--cce-auto-sync-log=...`) says nothing.
func autoSyncSwitch(l string) (string, bool) {
	const sw = "--cce-auto-sync"
	for k := strings.Index(l, sw); k >= 0; {
		rest := l[k+len(sw):]
		switch {
		case strings.HasPrefix(rest, "=off"):
			return "false", true
		case strings.HasPrefix(rest, "=on"):
			return "true", true
		case rest == "" || !isWordByte(rest[0]) && rest[0] != '-' && rest[0] != '=':
			return "true", true
		}
		n := strings.Index(rest, sw)
		if n < 0 {
			break
		}
		k += len(sw) + n
	}
	return "", false
}

// definesCPUSim: `-D__CPU_SIM`, or a CMake definition of __CPU_SIM.
func definesCPUSim(l string) bool {
	k := strings.Index(l, "__CPU_SIM")
	if k < 0 || k+len("__CPU_SIM") < len(l) && isWordByte(l[k+len("__CPU_SIM")]) {
		return false
	}
	return strings.Contains(l, "-D__CPU_SIM") || strings.Contains(l, "compile_definitions") && strings.Contains(l, "__CPU_SIM")
}

// KernelLibrariesOf returns the `ascendc_library` calls (ascendc.cmake's
// kernel build) that compile entry: those in a build file of the entry's
// folder, else those anywhere in the roots' build files naming the
// entry's path (relative to that file's folder, or under
// `${CMAKE_CURRENT_SOURCE_DIR}` / `${CMAKE_CURRENT_LIST_DIR}`), in path
// order; none when no call does.
func (w *Workspace) KernelLibrariesOf(entry string) []BuildSetting {
	entry = Abs(entry)
	var out []BuildSetting
	for _, b := range w.BuildSettings(filepath.Dir(entry)) {
		if b.Key == "ascendc-library" {
			out = append(out, b)
		}
	}
	if len(out) > 0 {
		return out
	}
	w.Index()
	w.mu.Lock()
	run := w.walked
	w.mu.Unlock()
	if run == nil {
		return nil
	}
	return run.kernelLibraries()[entry]
}

// a5Product finds an Ascend 950 product name (`Ascend 950PR`,
// `Ascend950DT`) in prose: a README's table of the products a sample
// supports.
var a5Product = regexp.MustCompile(`(?i)\bAscend[ _]?950`)

// ProductA5In returns where a README of dir names an Ascend 950 product
// as a line of its text ("README.md:13"), "" when none does: a sample
// folder's README lists the products its build serves.
func (w *Workspace) ProductA5In(dir string) string {
	dir = Abs(dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(strings.ToLower(name), "readme") || !strings.HasSuffix(strings.ToLower(name), ".md") {
			continue
		}
		src, _, err := fsys.ReadFileUnhashed(filepath.Join(dir, name), maxBuildFile)
		if err != nil {
			continue
		}
		if loc := a5Product.FindIndex(src); loc != nil {
			return fmt.Sprintf("%s:%d", name, bytes.Count(src[:loc[0]], []byte("\n"))+1)
		}
	}
	return ""
}

// kernelSource is a source file an `ascendc_library` call names.
var kernelSource = regexp.MustCompile(`[\w${}./+-]+\.(?:cpp|cc|cxx|c|asc|cce)\b`)

// kernelLibraries reads the `ascendc_library(...)` calls of the walk's
// build files once: the sources each names as a path (a variable or a
// glob names none), by absolute path, each with its calls in path order.
func (r *indexRun) kernelLibraries() map[string][]BuildSetting {
	r.libsOnce.Do(func() {
		r.libs = map[string][]BuildSetting{}
		for _, p := range slices.Sorted(slices.Values(r.build)) {
			src, _, err := fsys.ReadFileUnhashed(p, maxBuildFile)
			if err != nil || !bytes.Contains(src, []byte("ascendc_library")) {
				continue
			}
			dir := filepath.Dir(p)
			for k := 0; ; {
				i := bytes.Index(src[k:], []byte("ascendc_library"))
				if i < 0 {
					break
				}
				i += k
				k = i + len("ascendc_library")
				open := bytes.IndexByte(src[k:], '(')
				if open < 0 || len(bytes.TrimSpace(src[k:k+open])) > 0 || i > 0 && isWordByte(src[i-1]) {
					continue
				}
				end := bytes.IndexByte(src[k+open:], ')')
				if end < 0 {
					break
				}
				line := bytes.Count(src[:i], []byte("\n")) + 1
				if lineStart := bytes.LastIndexByte(src[:i], '\n') + 1; bytes.HasPrefix(bytes.TrimSpace(src[lineStart:i]), []byte("#")) {
					continue // a comment
				}
				for _, m := range kernelSource.FindAll(src[k+open:k+open+end], -1) {
					name := string(m)
					for _, v := range []string{"${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"} {
						name = strings.TrimPrefix(name, v)
					}
					if strings.ContainsAny(name, "${}") || filepath.IsAbs(name) {
						continue
					}
					at := filepath.Clean(filepath.Join(dir, name))
					r.libs[at] = append(r.libs[at], BuildSetting{Key: "ascendc-library", File: p, Line: line})
				}
			}
		}
	})
	return r.libs
}

// BuildSettingsUp returns the build settings of dir and its parents up to
// the workspace root holding dir (or dir alone outside the roots),
// nearest folder first.
func (w *Workspace) BuildSettingsUp(dir string) []BuildSetting {
	dir = Abs(dir)
	root := w.rootOf(dir)
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
// number of blocks it launches ("F"), or two whose quotient rounded up
// bounds it ("T/P": `n = (total + per - 1) / per`, clamped at most, with
// total and per stored in T and P), or two whose product it is ("A*B").
type LaunchCount struct {
	// File and Line are the host's SetBlockDim call (Line 1-based).
	File string
	Line int
	// Other: the host stores the field but launches another count
	// there (File, Line): cores at or past it may be launched.
	Other bool
	// Sized: the file computes each count it launches from the work
	// (`n = min(cores, tiles)`), not the chip's core count alone
	// (`n = platform.GetCoreNumAiv()`): it deals every launched block a
	// share by arithmetic of its own.
	Sized bool
	// Min: a count the file launches may be the smaller of two
	// (`n = std::min(cores, rows)`): rounded-up shares of the work
	// (`per = ceil(rows / n)`) then leave the last blocks none (5 rows
	// on 4 blocks: shares of 2, block 3 from row 6).
	Min bool
	// Through: for Other, the call the file launches the field's count
	// through (`n = CalcTschBlockDim(t.get_F(), ...)`), one extern-lsp
	// does not know the arithmetic of: whether blocks reach past the
	// field is that call's answer.
	Through string
}

// maxHostFiles bounds the host sources read for one operator.
const maxHostFiles = 64

// LaunchCounts returns the tiling fields the host code of the operator
// holding dir sets to its launch's block count: the `op_host` folder
// beside an ancestor of dir (an operator's `op_kernel`), whose tiling
// sources pass SetBlockDim the value they store in the field
// (`SetBlockDim(n)` and `tiling.set_usedCoreNum(n)` or `.usedCoreNum =
// n`) or the field itself (`SetBlockDim(tiling.get_usedCoreNum())`), or
// the rounded-up quotient of two stored values (LaunchCount). A
// field counts only when every host file naming it launches that many
// blocks (or one) at each of its SetBlockDim calls; a field a launching
// file names but does not launch by is listed as Other, with that
// file's launch. Read from disk and
// cached per operator folder, like BuildSettings.
//
// Operator libraries tile each chip family's kernels in a folder of its
// own (`op_host/arch35/…` for the `op_kernel/arch35/…` kernels): host
// files under an `archNN` folder count only for a unit whose operator
// files (unitFiles: the paths the unit compiles) lie under one of that
// name, or, for a unit under none, when op_kernel has no such folder.
func (w *Workspace) LaunchCounts(dir string, unitFiles []string) map[string]LaunchCount {
	host := ""
	for d, i := Abs(dir), 0; i < 4 && host == "" && filepath.Dir(d) != d; d, i = filepath.Dir(d), i+1 {
		if st, err := os.Stat(filepath.Join(d, "op_host")); err == nil && st.IsDir() {
			host = filepath.Join(d, "op_host")
		}
	}
	if host == "" {
		return nil
	}
	arch := map[string]bool{}
	for _, f := range unitFiles {
		if rel, err := filepath.Rel(filepath.Dir(host), f); err == nil && !strings.HasPrefix(rel, "..") {
			arch[archFolder(rel)] = true
		}
	}
	tags := make([]string, 0, len(arch))
	for a := range arch {
		tags = append(tags, a)
	}
	sort.Strings(tags)
	key := host + "\x00" + strings.Join(tags, "\x00")
	w.mu.Lock()
	counts := memoOf(&w.counts)
	w.mu.Unlock()
	if got, ok := counts.get(key); ok {
		return got
	}
	// A kernel in no arch folder is the one chip family whose kernels
	// have no folder of their own (op_host/arch22 tiles op_kernel/*.h
	// when there is no op_kernel/arch22).
	tiles := func(a string) bool {
		if a == "" || arch[a] {
			return true
		}
		st, err := os.Stat(filepath.Join(filepath.Dir(host), "op_kernel", a))
		return arch[""] && len(arch) == 1 && (err != nil || !st.IsDir())
	}
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] && len(files) < maxHostFiles && tiles(hostArch(p)) && (strings.HasSuffix(p, ".cpp") || strings.HasSuffix(p, ".cc") || strings.HasSuffix(p, ".h")) {
			seen[p] = true
			files = append(files, p)
		}
	}
	filepath.WalkDir(host, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			add(p)
		}
		return nil
	})
	// badAlone: a field some launching file names but does not launch
	// that many blocks by; badPart: one it names in no count it launches.
	out, badAlone, badPart := map[string]LaunchCount{}, map[string]bool{}, map[string]bool{}
	other := map[string]LaunchCount{} // the first launch of another count naming a field
	for i := 0; i < len(files); i++ {
		p := files[i]
		src, _, err := fsys.ReadFile(p, maxBuildFile)
		if err != nil {
			continue
		}
		src = uncomment(src)
		// A shared tiling another operator's op_host holds
		// (`#include "../../common/op_host/tiling_base.h"`): its folder's
		// sources launch this operator too.
		for _, m := range quotedInclude.FindAllSubmatch(src, -1) {
			inc := filepath.Join(filepath.Dir(p), string(m[1]))
			if d := filepath.Dir(inc); strings.Contains(inc, string(filepath.Separator)+"op_host"+string(filepath.Separator)) && !strings.HasPrefix(d, host) {
				if ents, err := os.ReadDir(d); err == nil {
					for _, e := range ents {
						if e.Type().IsRegular() {
							add(filepath.Join(d, e.Name()))
						}
					}
				}
			}
		}
		bound, line, sized, through := launchBinding(string(src))
		minCount := minOf(string(src), "SetBlockDim(")
		ok := map[string]bool{}
		for f := range bound {
			if _, seen := out[f]; !seen {
				out[f] = LaunchCount{File: p, Line: line, Sized: sized, Min: minCount}
			}
			for _, part := range countParts(f) {
				ok[part] = true
			}
		}
		// A file launching another count: the tiling fields it names
		// (`set_F`, `get_F`, `.F`, `->F`; a local of the name is not
		// one) are not the launch's count there.
		for _, m := range fieldMention.FindAllSubmatchIndex(src, -1) {
			// `.F`, `->F`, `set_F(`, `get_F(`; not a method call `->M(`.
			f := ""
			if m[4] >= 0 {
				f = string(src[m[4]:m[5]])
			} else if w := string(src[m[2]:m[3]]); strings.HasPrefix(w, "set_") || strings.HasPrefix(w, "get_") {
				f = w[len("set_"):]
			} else if !bytes.HasPrefix(bytes.TrimLeft(src[m[3]:], " \t"), []byte("(")) {
				f = w
			}
			if f == "" || line == 0 || bound[f] {
				continue
			}
			if !badAlone[f] && !ok[f] {
				other[f] = LaunchCount{File: p, Line: line, Other: true, Through: through[f]}
			}
			badAlone[f] = true
			badPart[f] = badPart[f] || !ok[f]
		}
	}
	for f := range out {
		for _, part := range countParts(f) {
			if part == f && badAlone[f] || badPart[part] {
				delete(out, f)
			}
		}
	}
	for f, c := range other {
		if _, bound := out[f]; !bound {
			out[f] = c
		}
	}
	w.mu.Lock()
	if w.counts == counts {
		counts.put(key, out, 0)
	}
	w.mu.Unlock()
	return out
}

// uncomment blanks the comments of C++ text (newlines kept): what the
// host reading looks for in code, a comment only talks about.
func uncomment(src []byte) []byte {
	out := bytes.Clone(src)
	for i := 0; i < len(out); {
		switch c := out[i]; {
		case c == '"' || c == '\'':
			i = min(grammar.QuotedEnd(out, i), len(out))
		case c == '/':
			end, ok := grammar.CommentEnd(out, i)
			if !ok {
				i++
				continue
			}
			for k := i; k < end && k < len(out); k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i = end
		default:
			i++
		}
	}
	return out
}

// hostArch is the `archNN` folder of a host file below its op_host.
func hostArch(p string) string {
	sep := string(filepath.Separator)
	if k := strings.LastIndex(p, sep+"op_host"+sep); k >= 0 {
		return archFolder(p[k+len(sep+"op_host"+sep):])
	}
	return ""
}

// archFolder is the first `archNN` folder of a relative path, "" if none.
func archFolder(rel string) string {
	for _, c := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if archDir.MatchString(c) {
			return c
		}
	}
	return ""
}

// countParts are the fields a LaunchCount key names ("T/P", "A*B", "F").
func countParts(key string) []string {
	return strings.FieldsFunc(key, func(r rune) bool { return r == '/' || r == '*' })
}

var (
	archDir       = regexp.MustCompile(`^arch\d+$`)
	quotedInclude = regexp.MustCompile(`(?m)^\s*#\s*include\s+"([^"]+)"`)
	hostWord      = regexp.MustCompile(`\w+`)
	fieldMention  = regexp.MustCompile(`(?:\.|->)\s*(\w+)|\b(?:set|get)_(\w+)`)
	// fieldStore is `set_F(v);` or `.F = v;` / `->F = v;`.
	fieldStore = regexp.MustCompile(`\bset_(\w+)\(([^;]*)\)\s*;|(?:\.|->)(\w+)\s*=([^=;][^;]*);`)
	// launchedField is what a SetBlockDim argument reading a field reads:
	// `t.get_F()`, `t.F`, `t->F`.
	launchedField = regexp.MustCompile(`(?:\.|->)(?:get_(\w+)\(\)|(\w+))$`)
	intCast       = regexp.MustCompile(`^(?:static_cast<\w+>|\(u?int(?:32|64)_t\)|u?int(?:32|64)_t|int|size_t)\((.*)\)$|^\(u?int(?:32|64)_t\)(.*)$`)
)

// launchBinding reads one host source: the fields every SetBlockDim call
// of it launches the count of (a call launching one block binds any;
// none when a call binds none), the first call's line (0: none),
// whether every count it launches is sized (LaunchCount.Sized), and the
// fields it launches through a call (LaunchCount.Through).
func launchBinding(src string) (map[string]bool, int, bool, map[string]string) {
	stored := map[string][]string{} // value -> fields storing it
	for _, m := range fieldStore.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			stored[uncastText(m[2])] = append(stored[uncastText(m[2])], m[1])
		} else {
			stored[uncastText(m[4])] = append(stored[uncastText(m[4])], m[3])
		}
	}
	var bound map[string]bool
	line, sized, one, through := 0, true, false, map[string]string{}
	for i := 0; ; {
		k := strings.Index(src[i:], "SetBlockDim(")
		if k < 0 {
			break
		}
		start := i + k + len("SetBlockDim")
		end := strings.Index(src[start:], ");")
		if end < 0 {
			return nil, 0, false, nil
		}
		launch := uncastText(src[start+1 : start+end])
		if line == 0 || one && launch != "1" {
			// The first launch of more than one block names the file's.
			line, one = strings.Count(src[:start], "\n")+1, launch == "1"
		}
		i = start + end
		// `SetBlockDim(simd ? a.used : b.used)` launches one of two counts:
		// each is a launch of its own.
		for _, arg := range ternaryArms(launch) {
			bound = launchedBy(src, arg, stored, bound)
			vals := assignedValues(src, arg)
			sized = sized && (arg == "1" || sizedCount(vals))
			launchedThrough(vals, through)
		}
	}
	return bound, line, sized && line > 0, through
}

// hostMinCall is a call of the smaller of two values.
var hostMinCall = regexp.MustCompile(`^(?:std::)?(?:min|Min)(?:<\w+>)?\(`)

// minOf reports whether a value a launch call (`SetBlockDim(`) passes, or
// one its argument's local is assigned, is a min(…).
func minOf(src, call string) bool {
	for i := 0; ; {
		k := strings.Index(src[i:], call)
		if k < 0 {
			return false
		}
		i += k + len(call)
		end := strings.Index(src[i:], ");")
		if end < 0 {
			return false
		}
		for _, arg := range ternaryArms(uncastText(src[i : i+end])) {
			for _, v := range append(assignedValues(src, arg), arg) {
				if hostMinCall.MatchString(uncastText(v)) {
					return true
				}
			}
		}
	}
}

// assignedValues are the values src assigns to local or member v (`v =
// x;`, not a store to a field of the name, `t.v = x;`), none when v is
// not a name.
//
// It finds what the pattern `(?:^|[^.>\w])v\s*=([^=;][^;]*);` finds
// (leftmost, not overlapping), by a search for v: compiling and running
// that pattern for every name asked was a twentieth of the CPU of a check
// of pto-isa.
func assignedValues(src, v string) []string {
	if hostWord.FindString(v) != v {
		return nil
	}
	var vals []string
	from := 0 // where the next match may start: past the last one's `;`
	for i := 0; i <= len(src); {
		k := strings.Index(src[i:], v)
		if k < 0 {
			break
		}
		i += k
		// A match starts at the character before v, or at the text's
		// start when v is there.
		if i == 0 || i-1 >= from && !joinsName(src[i-1]) {
			if val, end, ok := assignedAt(src, i+len(v)); ok {
				vals = append(vals, val)
				from, i = end, end
				continue
			}
		}
		i++
	}
	return vals
}

// joinsName reports whether b, just before a name, makes it the end of a
// longer word or a member (`.`, `->`).
func joinsName(b byte) bool {
	return b == '.' || b == '>' || b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// assignedAt reads `\s*=([^=;][^;]*);` at j: the value assigned and the
// offset past its `;`.
func assignedAt(src string, j int) (val string, end int, ok bool) {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r' || src[j] == '\f') {
		j++
	}
	if j+1 >= len(src) || src[j] != '=' || src[j+1] == '=' || src[j+1] == ';' {
		return "", 0, false
	}
	semi := strings.IndexByte(src[j+2:], ';')
	if semi < 0 {
		return "", 0, false
	}
	semi += j + 2
	return src[j+1 : semi], semi + 1, true
}

// callValue is a value that is one call: its callee and arguments.
var callValue = regexp.MustCompile(`^\s*([\w:.>-]+)\(([^;]*)\)\s*$`)

// launchedThrough adds to out the fields a launch count computes from
// through a call of unknown arithmetic (vals, its assignedValues: `v =
// CalcTschBlockDim(t.get_F(), a, b);`), mapped to that call's name.
func launchedThrough(vals []string, out map[string]string) {
	for _, val := range vals {
		m := callValue.FindStringSubmatch(val)
		if m == nil {
			continue
		}
		name := m[1][strings.LastIndexAny(m[1], ".:>")+1:]
		if knownCount[name] || strings.HasPrefix(name, "get_") {
			continue // arithmetic extern-lsp follows, or a field read
		}
		for _, f := range fieldMention.FindAllStringSubmatch(m[2], -1) {
			out[strings.TrimPrefix(f[1]+f[2], "get_")] = name
		}
	}
}

// knownCount are the calls whose arithmetic extern-lsp knows.
var knownCount = map[string]bool{"min": true, "max": true, "Min": true, "Max": true, "CeilDiv": true, "DivCeil": true,
	"CeilA2B": true, "CeilDivision": true, "CeilAlign": true, "FloorDiv": true, "FloorAlign": true, "static_cast": true}

// coreCount is a call reading the chip's core count.
var coreCount = regexp.MustCompile(`Get\w*CoreNum\w*\(\)$`)

// sizedCount reports whether a launch count's assignedValues hold one
// that is not only a core count call (`auto n = platform.GetCoreNumAiv();`).
func sizedCount(vals []string) bool {
	for _, val := range vals {
		if !coreCount.MatchString(uncastText(val)) {
			return true
		}
	}
	return false
}

// ternaryArms are the two values of `c?x:y` (blanks removed), or arg.
func ternaryArms(arg string) []string {
	c, arms, ok := strings.Cut(arg, "?")
	if !ok || c == "" {
		return []string{arg}
	}
	for k := 0; k < len(arms); k++ {
		if arms[k] == ':' && (k+1 == len(arms) || arms[k+1] != ':') && (k == 0 || arms[k-1] != ':') {
			return []string{arms[:k], arms[k+1:]}
		}
	}
	return []string{arg}
}

// launchedBy narrows bound (nil: none yet) to the fields a launch of arg
// blocks binds (a launch of one block binds any).
func launchedBy(src, arg string, stored map[string][]string, bound map[string]bool) map[string]bool {
	if arg == "1" {
		return bound
	}
	fields := map[string]bool{}
	if m := launchedField.FindStringSubmatch(arg); m != nil {
		fields[m[1]+m[2]] = true
	}
	for _, f := range stored[arg] {
		fields[f] = true
	}
	if a, b, ok := strings.Cut(arg, "*"); ok && hostWord.FindString(a) == a && hostWord.FindString(b) == b {
		// `SetBlockDim(a * b)` with a and b stored in two fields.
		for _, fa := range stored[a] {
			for _, fb := range stored[b] {
				fields[fa+"*"+fb] = true
			}
		}
	}
	if hostWord.FindString(arg) == arg {
		if t, p, ok := ceilDivOf(src, arg); ok {
			for _, ft := range stored[t] {
				for _, fp := range stored[p] {
					fields[ft+"/"+fp] = true
				}
			}
		}
	}
	if bound == nil {
		bound = fields
	}
	for f := range bound {
		if !fields[f] {
			delete(bound, f)
		}
	}
	return bound
}

// ceilDiv is `(t + p - 1) / p` or a rounding-up division helper's call.
var ceilDiv = regexp.MustCompile(`^\((\w+)\+(\w+)-1\)/(\w+)$|^(?:CeilDiv|DivCeil|CeilA2B|CeilDivision)\((\w+),(\w+)\)$`)

// ceilDivOf reports whether every assignment of local v in src gives it
// the rounded-up quotient of the same t by p, or clamps it (`if (v > c) v
// = c;`): v is at most that quotient.
func ceilDivOf(src, v string) (t, p string, ok bool) {
	v = regexp.QuoteMeta(v)
	assign := regexp.MustCompile(`(if\s*\(\s*` + v + `\s*>[^;]*)?\b` + v + `\s*=([^=;][^;]*);`)
	for _, m := range assign.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			continue // a clamp
		}
		d := ceilDiv.FindStringSubmatch(uncastText(m[2]))
		switch {
		case d == nil, d[1] != "" && d[2] != d[3]:
			return "", "", false
		case d[1] != "":
			d[4], d[5] = d[1], d[2]
		}
		if t != "" && (t != d[4] || p != d[5]) {
			return "", "", false
		}
		t, p = d[4], d[5]
	}
	return t, p, t != ""
}

// uncastText is an expression's text without blanks and casts to integer
// types (`static_cast<uint32_t>(n)`, `(uint32_t)n`, `uint32_t(n)`).
func uncastText(s string) string {
	s = strings.Join(strings.Fields(s), "")
	for m := intCast.FindStringSubmatch(s); m != nil; m = intCast.FindStringSubmatch(s) {
		s = m[1] + m[2]
	}
	return s
}

// toolkitMacro reports whether the compiler, the toolkit or the operator
// build may define name without the project saying so: a reserved name
// (`__CCE_AICORE__`, `_FOO`), NDEBUG, AscendC's own (`ASCENDC_`, `ASCEND_`)
// and the per-input ones of an operator compile (`DTYPE_X`,
// `ORIG_DTYPE_X`, `FORMAT_X`).
func toolkitMacro(name string) bool {
	if name == "" || name[0] == '_' || name == "NDEBUG" {
		return true
	}
	for _, p := range []string{"ASCENDC_", "ASCEND_", "DTYPE_", "ORIG_DTYPE_", "FORMAT_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// MacroDefinedNowhere reports whether no file of the workspace #defines
// name and no build file of its roots (CMake, shell, make, Python: a
// `-DNAME`, a `define_macros` entry) names it, in a workspace whose roots
// were walked whole and hold a build file: no build of the tree compiles
// a conditional on it (a debug switch left in). Never for a name the
// toolkit may define (toolkitMacro), nor where the build was not seen
// (the unit guard model also asks that the unit include no project
// header the roots do not hold).
func (w *Workspace) MacroDefinedNowhere(name string) bool {
	if toolkitMacro(name) {
		return false
	}
	m := w.macroNamesOf(false)
	return !m.unseenBuild && !m.defined[name] && !m.words[name]
}

// MacroSwitch is what the workspace says of a macro a conditional tests
// (`#ifdef STOP_AFTER_X`), its build seen or not: Defined when a file of
// the roots #defines it, a build or Python file of the roots names it
// (`-DSTOP_AFTER_X`, a list of names), or the toolkit may define it
// (toolkitMacro); else Unread says what could define it unseen: a walk
// cut short, or a build definition whose name is not plain text
// (`-D${NAME}`, `f"-D{name}"`), the first such, file:line. Neither: no
// file or build the roots hold defines it.
type MacroSwitch struct {
	Defined bool
	Unread  string
}

// MacroSwitchOf is MacroSwitch for name, from the walk's scan of every
// file's #defines and its build and Python files' words (the ones
// MacroDefinedNowhere reads), computed once per walk.
func (w *Workspace) MacroSwitchOf(name string) MacroSwitch {
	if toolkitMacro(name) {
		return MacroSwitch{Defined: true}
	}
	m := w.macroNamesOf(true)
	switch {
	case m.defined[name] || m.words[name]:
		return MacroSwitch{Defined: true}
	case !m.whole:
		return MacroSwitch{Unread: "the index did not walk the roots whole"}
	case len(m.unread) > 0:
		return MacroSwitch{Unread: m.unread[0]}
	}
	return MacroSwitch{}
}

// UnreadDefinitions are the build definitions of the roots whose names
// are not plain text (`-D${NAME}`), file:line each.
func (w *Workspace) UnreadDefinitions() []string { return w.macroNamesOf(true).unread }

// macroNamesOf returns the workspace's macroNames; always reads the
// names when read is set, else only when the build was seen whole (what
// MacroDefinedNowhere needs).
func (w *Workspace) macroNamesOf(read bool) *macroNames {
	w.mu.Lock()
	m := w.macros
	w.mu.Unlock()
	if m != nil && (m.read || !read) {
		return m
	}
	w.Index() // sets w.walked
	w.mu.Lock()
	run, known, py := w.walked, slices.Collect(maps.Keys(w.known)), slices.Sorted(maps.Keys(w.abi.py))
	w.mu.Unlock()
	m = &macroNames{defined: map[string]bool{}, unseenBuild: run == nil || !run.whole || len(run.build) == 0, whole: run != nil && run.whole}
	if !m.unseenBuild || read && run != nil {
		m.read = true
		for _, p := range known {
			if s := w.scanOf(p); s != nil {
				for _, d := range s.defines {
					m.defined[d] = true
				}
			}
		}
		// The walk's words, shared, not copied.
		m.words = run.buildWords(py)
		m.unread = run.unread
	}
	w.mu.Lock()
	if w.macros == nil || !w.macros.read {
		w.macros = m
	}
	w.mu.Unlock()
	return m
}

// macroNames are the names MacroDefinedNowhere finds defined: #defined in
// a file of the workspace, or words of its build (unseenBuild: the build
// was not seen whole). read: defined and words were read (a workspace
// whose build was not seen reads them only when MacroSwitchOf asks);
// whole: the walk was not cut short; unread: the build definitions whose
// names are not plain text.
type macroNames struct {
	defined, words    map[string]bool
	unread            []string
	unseenBuild, read bool
	whole             bool
}

// unreadDefinition reports whether src[i:] starts a macro definition
// whose name is not plain text: `-D` then `$`, `{`, `%` or a quote
// (`-D${NAME}`, `f"-D{name}"`, `"-D%s" % name`, `"-D" + name`).
func unreadDefinition(src []byte, i int) bool {
	if i+2 >= len(src) || src[i] != '-' || src[i+1] != 'D' || i > 0 && (isWordByte(src[i-1]) || src[i-1] == '-') {
		return false
	}
	switch src[i+2] {
	case '$', '{', '%', '"', '\'':
		return true
	}
	return false
}

// buildWords are the words of a walk's build files and of the Python
// files py, read once per walk (nil for no walk): forks share it. Words
// starting with '_' or a digit are left out: MacroDefinedNowhere is not
// asked about them (toolkit names, no identifiers).
func (r *indexRun) buildWords(py []string) map[string]bool {
	if r == nil {
		return nil
	}
	r.wordsOnce.Do(func() {
		r.words = map[string]bool{}
		for _, p := range append(py, r.build...) {
			if src, _, err := fsys.ReadFileUnhashed(p, maxBuildFile); err == nil {
				// The runs of \w bytes, scanned by hand: the regexp engine
				// over a tree's Python files was 3.5% of a check's CPU.
				for i := 0; i < len(src); {
					j := i
					for j < len(src) && isWordByte(src[j]) {
						j++
					}
					if j == i {
						if unreadDefinition(src, i) {
							if at := fmt.Sprintf("%s:%d", p, bytes.Count(src[:i], []byte("\n"))+1); !slices.Contains(r.unread, at) {
								r.unread = append(r.unread, at)
							}
						}
						i++
						continue
					}
					if c := src[i]; c == '_' || c >= '0' && c <= '9' {
						// No macro asked about: a toolkit name or no name.
						i = j
						continue
					}
					// Most words repeat: looked up first, a string is made
					// of a new one only.
					if w := src[i:j]; !r.words[string(w)] {
						r.words[string(w)] = true
					}
					if w := src[i+1 : j]; i > 0 && src[i-1] == '-' && j-i > 1 && src[i] == 'D' && w[0] != '_' && !r.words[string(w)] {
						r.words[string(w)] = true // -DNAME
					}
					i = j
				}
			}
		}
	})
	return r.words
}
