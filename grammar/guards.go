package grammar

import (
	"bytes"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// Cores is the set of core types that compile a piece of code.
type Cores uint8

const (
	AIC  Cores = 1 << iota // the cube core (dav-c220-cube)
	AIV                    // the vector core (dav-c220-vec)
	None Cores = 0
	Both       = AIC | AIV
)

func (c Cores) String() string {
	switch c {
	case AIC:
		return "AIC"
	case AIV:
		return "AIV"
	case Both:
		return "AIC+AIV"
	}
	return "none"
}

// tri is a three-valued truth: false, true or unknown.
type tri int8

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func triAnd(a, b tri) tri {
	if a == triFalse || b == triFalse {
		return triFalse
	}
	if a == triUnknown || b == triUnknown {
		return triUnknown
	}
	return triTrue
}

func triOr(a, b tri) tri {
	if a == triTrue || b == triTrue {
		return triTrue
	}
	if a == triUnknown || b == triUnknown {
		return triUnknown
	}
	return triFalse
}

func triNot(a tri) tri {
	switch a {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// config is one device compile: the macros ccec defines for a core type.
type config map[string]int64

var deviceConfigs = [2]config{
	{"__DAV_C220_CUBE__": 1, "__DAV_CUBE__": 1, "__CCE_AICORE__": 220, "__NPU_ARCH__": 2201},
	{"__DAV_C220_VEC__": 1, "__DAV_VEC__": 1, "__CCE_AICORE__": 220, "__NPU_ARCH__": 2201},
}

// a5Configs are A5's (dav-c310) cube and vector compiles.
var a5Configs = [2]config{
	{"__DAV_C310__": 1, "__DAV_CUBE__": 1, "__CCE_AICORE__": 310, "__NPU_ARCH__": 3510},
	{"__DAV_C310__": 1, "__DAV_VEC__": 1, "__CCE_AICORE__": 310, "__NPU_ARCH__": 3510},
}

// knownUndefined are macros that are never defined in a device compile; the
// CPU simulator, the cost-model simulator (__COSTMODEL: the kernels built
// on the host with the intrinsics recorded) and host-side paths are not
// device code. `__DAV_C310__` is
// Ascend 950's (-D__DAV_C310__ with --cce-aicore-arch=dav-c310-*): the
// dav-c220 compiles never define it (a5Configs do).
var knownUndefined = map[string]bool{
	"__DAV_C220_CUBE__": true, "__DAV_C220_VEC__": true, "__DAV_CUBE__": true, "__DAV_VEC__": true,
	"__CPU_SIM": true, "__CPU_SIM__": true, "ASCENDC_CPU_DEBUG": true, "__CCE_KT_TEST__": true,
	"__COSTMODEL": true, "__DAV_C310__": true,
}

// CoreMacros are the core-type macros the guard model understands, by family.
var CoreMacros = map[string]struct {
	Core   Cores
	Family string
}{
	"__DAV_C220_CUBE__": {AIC, "c220"},
	"__DAV_C220_VEC__":  {AIV, "c220"},
	"__DAV_CUBE__":      {AIC, "pto"},
	"__DAV_VEC__":       {AIV, "pto"},
}

// Directive is one preprocessor conditional line.
type Directive struct {
	Kind       string // "if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include"
	Line       int    // 0-based
	Start, End uint32 // the whole directive (through continuations)
	Cond       string // condition text (or macro name for ifdef/define)
	CondStart  uint32
	Macros     []MacroRef // identifiers in the condition
	Group      int        // index of the opening #if/#ifdef/#ifndef of its group
	// Cores compiling the code this branch guards, from this branch's
	// condition alone (ignoring enclosing groups).
	BranchCores Cores
	// Sure are the cores whose compile certainly takes this branch when it
	// reaches the group (the condition is known true there and no earlier
	// branch was taken); an unknown condition is sure for no core.
	Sure Cores
}

// MacroRef is an identifier used in a directive's condition.
type MacroRef struct {
	Name       string
	Start, End uint32
}

type segment struct {
	start uint32
	cores Cores
}

// Guards is the preprocessor guard model of one file.
type Guards struct {
	Directives []Directive
	segs       []segment
}

// CoresAt returns the cores whose device compile keeps the byte at off.
func (g *Guards) CoresAt(off uint32) Cores {
	if g == nil || len(g.segs) == 0 {
		return Both
	}
	i := sort.Search(len(g.segs), func(i int) bool { return g.segs[i].start > off }) - 1
	if i < 0 {
		return Both
	}
	return g.segs[i].cores
}

type frame struct {
	open   int    // directive index of the #if
	taken  [2]tri // whether an earlier branch was taken, per config
	cur    [2]tri // the current branch's condition, per config
	curC   Cores  // the current branch's own cores
	takenC Cores
}

// enter makes directive d (an #elif or #else of f's group) the group's
// current branch, run on cores own.
func (f *frame) enter(d *Directive, own Cores) {
	d.Group = f.open
	d.BranchCores = own
	d.Sure = sureCores(f.cur)
	f.curC = own
}

// ScanGuards runs the preprocessor conditionals of src for the cube and the
// vector device compile. Unknown conditions keep code in both.
func ScanGuards(src []byte) *Guards { return ScanGuardsWith(src, nil) }

// ScanGuardsWith is ScanGuards for a file compiled after the including file
// defined (true) or #undef'd (false) the macros in pre: a header's
// `#ifndef NO_GLOBAL_ENTRY` depends on its includer.
//
// A file whose chip conditionals all name A5 (`#if __NPU_ARCH__ == 3510`
// with no other chip's branch) is evaluated as A5's compiles, as
// unit.Target infers for its unit: with dav-c220's, the code only A5
// compiles (such as a dcci fixing a read there) ran on no core at all.
func ScanGuardsWith(src []byte, pre map[string]bool) *Guards {
	return evalGuards(scanDirectives(src), pre)
}

// With is g's file under the macro states pre, as ScanGuardsWith(src, pre)
// gives, from g's directives rather than the text: a unit evaluates a
// header again under what each of its includers defines, and the
// directives do not depend on it.
func (g *Guards) With(pre map[string]bool) *Guards {
	if g == nil {
		return nil
	}
	return evalGuards(g.Directives, pre)
}

// ForChip is g's file under the macro states pre as chip's compiles see
// it: a unit whose build targets A5 compiles a header's `#if
// !defined(__DAV_C310__)` branch out, whatever the header's own
// conditionals name. ArchA2A3 and an unknown chip give With(pre).
func (g *Guards) ForChip(pre map[string]bool, chip Arch) *Guards {
	return g.ForUnit(pre, chip, nil)
}

// CoreValues are macros whose value differs between the core types, as a
// unit's headers define them (`#if defined(__DAV_C220_VEC__) ||
// defined(__DAV_VEC__)` / `#define IS_VEC 1` / `#else` / `#define IS_VEC
// 0`): per macro, its value in the cube's compile and the vector's.
type CoreValues map[string]CoreValue

// CoreValue is a macro's value in the cube's compile and the vector's;
// Defined says where it is defined at all (`#ifdef IS_VEC` after a define
// on the vector core alone).
type CoreValue struct {
	Val     [2]int64
	Defined [2]bool
}

// ForUnit is ForChip with the unit's core-valued macros defined in each
// compile: `#if IS_VEC` then selects the vector core like the macro it
// was made from.
func (g *Guards) ForUnit(pre map[string]bool, chip Arch, vals CoreValues) *Guards {
	if g == nil {
		return nil
	}
	confs := deviceConfigs
	switch {
	case chip == ArchA5:
		confs = a5Configs
	case len(vals) == 0:
		return evalGuards(g.Directives, pre)
	default:
		// The file's own chip choice, as evalGuards makes it (the chip
		// evidence reads the directives' text alone).
		if namesA5Alone(g) {
			confs = a5Configs
		}
	}
	var undef [2]map[string]bool
	for cfg := range confs {
		c := make(config, len(confs[cfg])+len(vals))
		maps.Copy(c, confs[cfg])
		undef[cfg] = map[string]bool{}
		for name, v := range vals {
			if _, ok := c[name]; ok {
				continue
			}
			if _, ok := pre[name]; ok {
				continue
			}
			if v.Defined[cfg] {
				c[name] = v.Val[cfg]
			} else {
				undef[cfg][name] = false
			}
		}
		confs[cfg] = c
	}
	return evalDirectivesUndef(g.Directives, pre, confs, undef)
}

// TestsChip reports whether a conditional of g names a macro whose value
// differs between the chips (`__DAV_C310__`, `__DAV_C220_VEC__`,
// `__NPU_ARCH__`, `__CCE_AICORE__`): the file compiles otherwise for A5.
func (g *Guards) TestsChip() bool {
	return g.Tests(func(name string) bool { return chipMacros[name] })
}

// Tests reports whether a conditional of g names a macro has accepts.
func (g *Guards) Tests(has func(string) bool) bool {
	for _, d := range g.Directives {
		switch d.Kind {
		case "if", "ifdef", "ifndef", "elif":
			for _, m := range d.Macros {
				if has(m.Name) {
					return true
				}
			}
		}
	}
	return false
}

// chipMacros are the macros the A2/A3 and A5 compiles define differently.
var chipMacros = map[string]bool{
	"__DAV_C310__": true, "__DAV_C220__": true, "__DAV_C220_VEC__": true, "__DAV_C220_CUBE__": true,
	"__NPU_ARCH__": true, "__CCE_AICORE__": true,
}

// evalGuards is the guard model of a file's directives under pre, for
// dav-c220's compiles or, for a file whose chip conditionals all name
// A5, for A5's (the chip evidence reads the directives' text alone).
func evalGuards(dirs []Directive, pre map[string]bool) *Guards {
	g := evalDirectives(dirs, pre, deviceConfigs)
	if !namesA5Alone(g) {
		return g
	}
	return evalDirectives(dirs, pre, a5Configs)
}

// namesA5Alone reports whether g's chip conditionals all name A5 (and
// there is one).
func namesA5Alone(g *Guards) bool {
	names := ScanArch(g).Evidence
	for _, e := range names {
		if e.Arch != ArchA5 {
			return false
		}
	}
	return len(names) > 0
}

// scanDirectives lists src's conditionals, #define, #undef and #include
// lines (a logical line runs through backslash continuations), with what
// their text says; Group is -1 and BranchCores and Sure are unset until
// evalDirectives.
func scanDirectives(src []byte) []Directive {
	var dirs []Directive
	if bytes.IndexByte(src, '#') < 0 {
		// No directive (a macro shadow's blank text).
		return nil
	}
	line := 0
	for off := 0; off < len(src); {
		end := off
		lines := 0
		for end < len(src) {
			if src[end] == '\n' {
				if end > off && (src[end-1] == '\\' || (src[end-1] == '\r' && end > off+1 && src[end-2] == '\\')) {
					lines++
					end++
					continue
				}
				break
			}
			end++
		}
		text := src[off:end]
		i := 0
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i < len(text) && text[i] == '#' {
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			k := j
			for k < len(text) && isIdent(text[k]) {
				k++
			}
			kind := string(text[j:k])
			condStart := k
			for condStart < len(text) && (text[condStart] == ' ' || text[condStart] == '\t') {
				condStart++
			}
			switch kind {
			case "if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include":
				cond := stripComment(string(text[condStart:]))
				d := Directive{Kind: kind, Line: line, Start: uint32(off), End: uint32(end), Cond: cond, CondStart: uint32(off + condStart), Group: -1}
				switch kind {
				case "if", "ifdef", "ifndef", "elif":
					d.Macros = macroRefs(cond, d.CondStart)
				case "define", "undef":
					d.Macros = macroRefs(firstWord(cond), d.CondStart)
				}
				dirs = append(dirs, d)
			}
		}
		line += lines + 1
		off = end + 1
	}
	return dirs
}

// evalDirectives runs the conditionals of dirs (scanDirectives) for the
// compiles of confs after pre, into a guard model of its own (the
// directives are copied: each evaluation sets their groups and cores).
func evalDirectives(dirs []Directive, pre map[string]bool, confs [2]config) *Guards {
	return evalDirectivesUndef(dirs, pre, confs, [2]map[string]bool{})
}

// evalDirectivesUndef is evalDirectives with macros undefined in one
// compile only (undef[cfg]: a unit's core-valued macro defined on the
// other core alone).
func evalDirectivesUndef(dirs []Directive, pre map[string]bool, confs [2]config, undef [2]map[string]bool) *Guards {
	g := &Guards{}
	if len(dirs) > 0 {
		g.Directives = make([]Directive, 0, len(dirs))
	}
	var stack []frame
	defs := [2]map[string]bool{{}, {}}
	for name, v := range pre {
		defs[0][name], defs[1][name] = v, v
	}
	for cfg := range undef {
		for name := range undef[cfg] {
			defs[cfg][name] = false
		}
	}
	state := func() Cores {
		var c Cores
		for cfg := 0; cfg < 2; cfg++ {
			s := triTrue
			for _, f := range stack {
				s = triAnd(s, f.cur[cfg])
			}
			if s != triFalse {
				c |= Cores(1 << cfg)
			}
		}
		return c
	}
	push := func(off uint32) {
		c := state()
		if n := len(g.segs); n > 0 && g.segs[n-1].cores == c {
			return
		}
		if n := len(g.segs); n > 0 && g.segs[n-1].start == off {
			g.segs[n-1].cores = c
			return
		}
		g.segs = append(g.segs, segment{off, c})
	}
	push(0)
	for _, d := range dirs {
		d.Group, d.BranchCores, d.Sure = -1, 0, 0
		kind, cond, end := d.Kind, d.Cond, d.End
		evalBranch := func() ([2]tri, Cores) {
			var r [2]tri
			var own Cores
			for cfg := 0; cfg < 2; cfg++ {
				switch kind {
				case "ifdef":
					r[cfg] = definedIn(firstWord(cond), confs[cfg], defs[cfg])
				case "ifndef":
					r[cfg] = triNot(definedIn(firstWord(cond), confs[cfg], defs[cfg]))
				default:
					r[cfg] = evalCond(cond, confs[cfg], defs[cfg])
				}
			}
			// The branch's own cores ignore enclosing groups and earlier
			// branches, for rules that ask what a guard selects.
			for cfg := 0; cfg < 2; cfg++ {
				if r[cfg] != triFalse {
					own |= Cores(1 << cfg)
				}
			}
			return r, own
		}
		idx := len(g.Directives)
		switch kind {
		case "if", "ifdef", "ifndef":
			r, own := evalBranch()
			d.Group = idx
			d.BranchCores = own
			d.Sure = sureCores(r)
			stack = append(stack, frame{open: idx, taken: r, cur: r, curC: own, takenC: own})
			g.Directives = append(g.Directives, d)
			push(end)
		case "elif":
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				r, own := evalBranch()
				for cfg := 0; cfg < 2; cfg++ {
					f.cur[cfg] = triAnd(triNot(f.taken[cfg]), r[cfg])
					f.taken[cfg] = triOr(f.taken[cfg], r[cfg])
				}
				f.enter(&d, own)
			}
			g.Directives = append(g.Directives, d)
			push(end)
		case "else":
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				var own Cores
				for cfg := 0; cfg < 2; cfg++ {
					f.cur[cfg] = triNot(f.taken[cfg])
					f.taken[cfg] = triTrue
					if f.cur[cfg] != triFalse {
						own |= Cores(1 << cfg)
					}
				}
				f.enter(&d, own)
			}
			g.Directives = append(g.Directives, d)
			push(end)
		case "endif":
			if len(stack) > 0 {
				d.Group = stack[len(stack)-1].open
				stack = stack[:len(stack)-1]
			}
			g.Directives = append(g.Directives, d)
			push(end)
		case "define", "undef", "include":
			st := state()
			name := firstWord(cond)
			if p := strings.IndexByte(name, '('); p >= 0 {
				name = name[:p]
			}
			for cfg := 0; cfg < 2; cfg++ {
				if st&Cores(1<<cfg) != 0 && kind != "include" {
					defs[cfg][name] = kind == "define"
				}
			}
			g.Directives = append(g.Directives, d)
		}
	}
	return g
}

func sureCores(r [2]tri) Cores {
	var c Cores
	for cfg := 0; cfg < 2; cfg++ {
		if r[cfg] == triTrue {
			c |= Cores(1 << cfg)
		}
	}
	return c
}

// DirectiveAt returns the directive whose line holds off, if any.
func (g *Guards) DirectiveAt(off uint32) (Directive, bool) {
	i := sort.Search(len(g.Directives), func(i int) bool { return g.Directives[i].End >= off })
	if i < len(g.Directives) && g.Directives[i].Start <= off {
		return g.Directives[i], true
	}
	return Directive{}, false
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) && s[i] != '(' {
			return s[:i]
		}
	}
	return s
}

// stripBlockComments replaces each /* */ comment by a space; an unclosed
// one ends the text.
func stripBlockComments(s string) string {
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + " " + s[i+2+j+2:]
	}
}

func stripComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	s = stripBlockComments(s)
	s = strings.ReplaceAll(s, "\\\r\n", " ")
	s = strings.ReplaceAll(s, "\\\n", " ")
	return strings.TrimSpace(s)
}

func macroRefs(cond string, base uint32) []MacroRef {
	var out []MacroRef
	for i := 0; i < len(cond); {
		if isIdent(cond[i]) && !(cond[i] >= '0' && cond[i] <= '9') {
			j := i
			for j < len(cond) && isIdent(cond[j]) {
				j++
			}
			if name := cond[i:j]; name != "defined" {
				out = append(out, MacroRef{Name: name, Start: base + uint32(i), End: base + uint32(j)})
			}
			i = j
			continue
		}
		if cond[i] >= '0' && cond[i] <= '9' {
			for i < len(cond) && isIdent(cond[i]) {
				i++
			}
			continue
		}
		i++
	}
	return out
}

func definedIn(name string, conf config, defs map[string]bool) tri {
	if v, ok := defs[name]; ok {
		if v {
			return triTrue
		}
		return triFalse
	}
	if _, ok := conf[name]; ok {
		return triTrue
	}
	if knownUndefined[name] {
		return triFalse
	}
	return triUnknown
}

// evalCond evaluates a #if condition for one device config, after the
// file's own #define/#undef (defs).
func evalCond(cond string, conf config, defs map[string]bool) tri {
	p := &condParser{toks: TokenizeExpr(cond, false), conf: conf, defs: defs}
	v := p.expr(0)
	if p.bad {
		return triUnknown
	}
	return v.truth()
}

type cval struct {
	known bool
	v     int64
}

func (c cval) truth() tri {
	if !c.known {
		return triUnknown
	}
	if c.v != 0 {
		return triTrue
	}
	return triFalse
}

func fromTri(t tri) cval {
	switch t {
	case triTrue:
		return cval{true, 1}
	case triFalse:
		return cval{true, 0}
	}
	return cval{}
}

type condParser struct {
	toks []string
	pos  int
	conf config
	defs map[string]bool
	bad  bool
}

func (p *condParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *condParser) next() string {
	t := p.peek()
	p.pos++
	return t
}

func (p *condParser) expr(minPrec int) cval {
	lhs := p.unary()
	for {
		op := p.peek()
		prec, ok := BinaryPrecedence[op]
		if !ok || prec <= minPrec {
			return lhs
		}
		p.next()
		rhs := p.expr(prec)
		lhs = binop(op, lhs, rhs)
	}
}

func binop(op string, a, b cval) cval {
	switch op {
	case "&&":
		return fromTri(triAnd(a.truth(), b.truth()))
	case "||":
		return fromTri(triOr(a.truth(), b.truth()))
	}
	if !a.known || !b.known {
		return cval{}
	}
	v, ok := BinOp(op, a.v, b.v)
	return cval{known: ok, v: v}
}

// BinOp applies a C/C++ binary operator to integer constants; ok is false
// for division by zero, out-of-range shifts and unknown operators.
func BinOp(op string, a, b int64) (v int64, ok bool) {
	b2i := func(x bool) int64 {
		if x {
			return 1
		}
		return 0
	}
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/", "%":
		if b == 0 {
			return 0, false
		}
		if op == "/" {
			return a / b, true
		}
		return a % b, true
	case "|":
		return a | b, true
	case "&":
		return a & b, true
	case "^":
		return a ^ b, true
	case "<<", ">>":
		if b < 0 || b > 63 {
			return 0, false
		}
		if op == "<<" {
			return a << uint(b), true
		}
		return a >> uint(b), true
	case "==":
		return b2i(a == b), true
	case "!=":
		return b2i(a != b), true
	case "<":
		return b2i(a < b), true
	case ">":
		return b2i(a > b), true
	case "<=":
		return b2i(a <= b), true
	case ">=":
		return b2i(a >= b), true
	case "&&":
		return b2i(a != 0 && b != 0), true
	case "||":
		return b2i(a != 0 || b != 0), true
	}
	return 0, false
}

// BinaryPrecedence ranks the C binary operators constant expressions use.
var BinaryPrecedence = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

// TokenizeExpr splits a constant expression into identifiers, numbers and
// operators. With qualified set, `::` and digit separators stay inside
// names and numbers (C++ constants rather than #if conditions).
func TokenizeExpr(s string, qualified bool) []string {
	var toks []string
	word := func(b byte) bool {
		return isIdent(b) || qualified && (b == ':' || b == '\'')
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\':
			i++
		case word(c):
			j := i
			for j < len(s) && word(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "&&", "||", "==", "!=", "<=", ">=", "<<", ">>":
					toks = append(toks, two)
					i += 2
					continue
				}
			}
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

func (p *condParser) unary() cval {
	t := p.next()
	switch t {
	case "!":
		return fromTri(triNot(p.unary().truth()))
	case "-":
		v := p.unary()
		v.v = -v.v
		return v
	case "(":
		v := p.expr(0)
		if p.next() != ")" {
			p.bad = true
		}
		return v
	case "defined":
		name := p.next()
		paren := name == "("
		if paren {
			name = p.next()
		}
		if paren && p.next() != ")" {
			p.bad = true
		}
		return fromTri(definedIn(name, p.conf, p.defs))
	case "":
		p.bad = true
		return cval{}
	}
	if t[0] >= '0' && t[0] <= '9' {
		s := strings.TrimRight(t, "uUlL")
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return cval{}
		}
		return cval{true, v}
	}
	if isIdent(t[0]) {
		if v, ok := p.conf[t]; ok {
			return cval{true, v}
		}
		if on, ok := p.defs[t]; ok && !on || knownUndefined[t] {
			// An undefined name reads as 0 in a condition.
			return cval{true, 0}
		}
		// A function-like macro call: skip its arguments.
		if p.peek() == "(" {
			depth := 0
			for p.pos < len(p.toks) {
				tok := p.next()
				if tok == "(" {
					depth++
				} else if tok == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		}
		return cval{}
	}
	p.bad = true
	return cval{}
}
