package cxx

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// This file computes, once per unit, what each function does to global
// memory and to the other cores, so rules ask one model instead of pattern
// matching call sites:
//
//   - provenance: the memory a pointer expression points into (Origin),
//     followed through locals, casts, pointer arithmetic, integer address
//     arithmetic, GlobalTensor views and functions returning a pointer;
//   - effects: the cache maintenance (dcci: invalidate, write back), dsb,
//     cross-core barriers, waits and signals, DMA writes and scalar stores
//     of each function, in source order, with the calls to functions of the
//     unit expanded (their parameters replaced by the caller's arguments);
//   - facts from the callers: what every caller established before calling
//     (the lines it invalidated) and what some caller did before (a
//     barrier).
//
// Summarize is a pure function of the unit's files.

// OriginKind says what an Origin names.
type OriginKind uint8

const (
	// NoOrigin: unknown, or no memory (a null pointer, a whole-cache dcci's
	// dummy address).
	NoOrigin OriginKind = iota
	// ArgOrigin is the data of task input args[Slot]: the tensor its
	// descriptor describes, or the address the slot holds.
	ArgOrigin
	// ParamOrigin is what the function's parameter Param points to.
	ParamOrigin
	// NamedOrigin is memory known only by a name: a member, a global, a
	// call of a function the unit does not define.
	NamedOrigin
)

// Origin is the memory a pointer points into, independent of offsets:
// `meta + 16`, `(__gm__ T *)meta`, `&meta[i]` and an integer cache-line
// address computed from meta all have meta's origin.
//
// Its fields are ordered for size (the small ones last): a unit's function
// summaries hold an Origin per effect, and thousands of effects per
// function in a large call graph.
type Origin struct {
	// Slot is the args[] index of an ArgOrigin; SlotParam >= 0 instead
	// when the index is the function's parameter SlotParam
	// (`tensor_data(args, index)`), resolved at each call.
	Slot      int64
	SlotParam int
	// SlotText is the index as written when it is not a constant.
	SlotText string
	Param    int
	Name     string
	// Region names the offsets the pointer was carved at that are not
	// constant but named (`sym + ctrl->ingress_off`, `win + dataSize_`,
	// `base + off` of a parameter off): the fields, members and
	// parameters a host layout places one region of a buffer at. Regions
	// at different names are told apart, like regions at different
	// constant offsets; "" for none (a local index such as `p + i` stays
	// in its pointer's region).
	Region string
	// Off is the constant offset from the memory's base the pointer was
	// carved at (`scratch + kOffCounts`), in the units it was written in;
	// OffUnknown when it is not constant. Regions at different constant
	// offsets of one buffer are told apart.
	Off int64
	// idx is a constant offset not yet cast to a new view: `counts + 3`
	// indexes the counts region, `(__gm__ float *)(scratch + kOffRows)`
	// carves a region at kOffRows.
	idx        int64
	Kind       OriginKind
	OffUnknown bool
}

// carve commits a pending constant offset as the region of a new view.
func (o Origin) carve() Origin {
	if o.Known() {
		o.Off += o.idx
		o.idx = 0
	}
	return o
}

// Known reports whether the origin names some memory.
func (o Origin) Known() bool { return o.Kind != NoOrigin }

func (o Origin) String() string {
	switch o.Kind {
	case ArgOrigin:
		switch {
		case o.SlotParam >= 0:
			return "args[param " + strconv.Itoa(o.SlotParam) + "]"
		case o.SlotText != "":
			return "args[" + o.SlotText + "]"
		}
		return "args[" + strconv.FormatInt(o.Slot, 10) + "]"
	case ParamOrigin:
		return "param " + strconv.Itoa(o.Param)
	case NamedOrigin:
		return o.Name
	}
	return ""
}

// Same reports whether two known origins name the same buffer, at any
// offset.
func (o Origin) Same(p Origin) bool {
	if !o.Known() {
		return false
	}
	return o.Buffer() == p.Buffer()
}

// Buffer is o at no offset: origins are Same when their Buffers are equal
// (a key for grouping them).
func (o Origin) Buffer() Origin {
	o.Off, o.OffUnknown, o.idx, o.Region = 0, false, 0, ""
	return o
}

// SameRegion reports whether two origins can point at the same region of
// one buffer: the same buffer, unless both are at known, different offsets.
func (o Origin) SameRegion(p Origin) bool {
	return o.Same(p) && (o.OffUnknown || p.OffUnknown || o.Off == p.Off) && regionsMeet(o.Region, p.Region)
}

// regionsMeet reports whether regions named a and b can overlap: either
// is unnamed, they are one, or one lies within the other (`ctl->rows_off`
// and `ctl->rows_off+ctl->tail_off`).
func regionsMeet(a, b string) bool {
	if strings.Contains(a, "|") || strings.Contains(b, "|") {
		// One of several named regions (`sym + (dense ? d->a : d->b)`):
		// they meet when some pair of the alternatives does.
		for _, x := range strings.Split(a, "|") {
			for _, y := range strings.Split(b, "|") {
				if regionsMeet(x, y) {
					return true
				}
			}
		}
		return false
	}
	return a == "" || b == "" || a == b || strings.HasPrefix(a, b+"+") || strings.HasPrefix(b, a+"+")
}

// maxRegionAlternatives bounds the alternatives a region name lists: past
// it the region is unnamed (it meets every region).
const maxRegionAlternatives = 4

// joinRegion names the region b of region a (each alternative of a joined
// with each of b's).
func joinRegion(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	if strings.Contains(a, "|") || strings.Contains(b, "|") {
		var alts []string
		for _, x := range strings.Split(a, "|") {
			for _, y := range strings.Split(b, "|") {
				alts = append(alts, joinRegion(x, y))
			}
		}
		return regionAlternatives(alts)
	}
	return a + "+" + b
}

// regionAlternatives names a region that is one of alts: sorted and
// without repeats, "" when any is unnamed or there are too many.
func regionAlternatives(alts []string) string {
	slices.Sort(alts)
	alts = slices.Compact(alts)
	if len(alts) > maxRegionAlternatives || slices.Contains(alts, "") {
		return ""
	}
	return strings.Join(alts, "|")
}

// sameName reports whether a and b are the same name (`kLine`,
// `Cfg::kLine`).
func sameName(a, b *grammar.Node) bool {
	a, b = Unparen(a), Unparen(b)
	return a != nil && b != nil && (a.Kind() == "identifier" || a.Kind() == "qualified_identifier") && a.Kind() == b.Kind() && a.Text() == b.Text()
}

// Covers reports whether cache maintenance through o reaches memory p: the
// buffer's base covers every region of it (range helpers start there), a
// region covers itself, and so does its start written as an index
// (`dcci((__gm__ uint8_t *)(base + 32), ...)` then `*(base + 32)`).
func (o Origin) Covers(p Origin) bool {
	return o.Same(p) && (o.Off == 0 || o.OffUnknown || p.OffUnknown || o.Off == p.Off || o.Off+o.idx == p.Off+p.idx) && regionsMeet(o.Region, p.Region)
}

// shift adds the offset of d (a callee's origin relative to its parameter)
// to o.
func (o Origin) shift(d Origin) Origin {
	o.Off += d.Off
	o.idx += d.idx
	o.OffUnknown = o.OffUnknown || d.OffUnknown
	o.Region = joinRegion(o.Region, d.Region)
	return o
}

// EffectKind is what a function does at one point.
type EffectKind uint8

const (
	// Invalidate: a dcci on the lines of Origin (or every line, All):
	// later scalar reads of them miss the cache.
	Invalidate EffectKind = iota + 1
	// WriteBack: a dcci that writes dirty lines of Origin (or all) out:
	// the CACHELINE_OUT / CACHELINE_ALL forms and the two-argument form,
	// which cleans every destination.
	WriteBack
	// Dsb: dsb(DSB_DDR), dsb(DSB_ALL), a cast constant (`dsb((mem_dsb_t)0)`)
	// or DataSyncBarrier: earlier write-backs have reached GM.
	Dsb
	// Wait: a cross-core barrier or flag wait: other cores' writes made
	// before their signal may now be expected.
	Wait
	// Signal: a cross-core flag set or barrier arrival: another core may
	// now read what this core wrote.
	Signal
	// DMAWrite: a DMA (MTE3, Fixpipe, put) write to Origin.
	DMAWrite
	// ScalarWrite: a scalar store through a pointer into Origin.
	ScalarWrite
)

func (k EffectKind) String() string {
	switch k {
	case Invalidate:
		return "invalidate"
	case WriteBack:
		return "write-back"
	case Dsb:
		return "dsb"
	case Wait:
		return "wait"
	case Signal:
		return "signal"
	case DMAWrite:
		return "dma-write"
	case ScalarWrite:
		return "scalar-write"
	}
	return "?"
}

// Effect is one thing a function does, at a point of its body.
//
// Its memory is shared by every effect on it (Summaries.intern): a unit's
// summaries hold thousands of effects per function in a large call graph,
// on a few distinct memories. Its small fields are last, for size.
type Effect struct {
	// At is the node of the summarized function's body the effect happens
	// at: the call of a helper that does it, or the operation itself.
	At *grammar.Node
	// Site is the operation itself (the dcci, the SyncAll, the store),
	// possibly in a helper, in SiteFile.
	Site     *grammar.Node
	SiteFile *grammar.File
	// origin is the memory, nil for none (Origin{}).
	origin *Origin
	Kind   EffectKind
	// All is set for whole-cache maintenance (ENTIRE_DATA_CACHE).
	All bool
	// Cores compile both At and, through every call on the way, Site.
	Cores grammar.Cores
}

// Origin is the memory the effect is on.
func (e Effect) Origin() Origin { return e.origin.value() }

// value is the origin p shares, Origin{} for nil.
func (p *Origin) value() Origin {
	if p == nil {
		return Origin{}
	}
	return *p
}

// intern returns the one shared copy of origin o in the unit's summaries
// (nil for Origin{}): equal origins get the same pointer, so effects and
// the memo keys compare and hash a pointer instead of a whole Origin.
func (s *Summaries) intern(o Origin) *Origin {
	if o == (Origin{}) {
		return nil
	}
	return internIn(&s.origins, o)
}

// internIn returns the one pointer to a value equal to v in *m, v's own
// when it is new (m is made on first use).
func internIn[K comparable](m *map[K]*K, v K) *K {
	if p, ok := (*m)[v]; ok {
		return p
	}
	if *m == nil {
		*m = map[K]*K{}
	}
	(*m)[v] = &v
	return &v
}

// Covers reports whether a cache maintenance effect covers memory o.
func (e Effect) Covers(o Origin) bool { return e.All || e.origin.value().Covers(o) }

// CallSite is one call of a function of the unit.
type CallSite struct {
	File   *grammar.File
	Call   *grammar.Node
	Caller FuncDef
}

// Summaries holds the function summaries of one unit. Build it with
// Summarize; it computes lazily, and is safe for concurrent use.
type Summaries struct {
	// mu serializes the lazy computations: a unit's summaries are shared
	// by the passes of every file that sees the unit.
	mu    sync.Mutex
	funcs *Funcs
	// funcFiles index the files whose functions are the unit's (FuncsOf
	// order, macro shadows left out).
	funcFiles fileFuncsList
	res       *Resolver
	files     map[*grammar.Tree]*grammar.File
	scopes    map[*grammar.Node]declsByName
	// scopeIx memoizes declaringScopes; scopes memoizes scopeDecls.
	scopeIx map[*grammar.Node]*scopeIndex
	// effects memoizes effectsOf, indexes Index (the last ones asked).
	effects map[*grammar.Node]*expansion[*effectList]
	indexes map[*grammar.Node]*EffectIndex
	returns map[*grammar.Node]*originMemo
	// siteRefs memoizes allSiteRefs; callers are the unit's calls by
	// called name (callersNamed).
	siteRefs map[*grammar.Node][]callerRef
	callers  []callerRef
	// joined are the joined calls of funcFiles[joinedAt:] (JoinCallers),
	// nil when the unit joins its own; joinCalls gives them on first need.
	joined    *Calls
	joinedAt  int
	joinCalls func() *Calls
	entry     map[*grammar.Node]*expansion[[]entrySite]
	written   map[writtenKey]bool
	// resolved memoizes resolve per function, origin and depth: in a call
	// graph where helpers call helpers, the paths up to the entries are
	// exponentially many, the functions on them are not.
	resolved map[resolveKey][]*Origin
	// bound holds the unit's bindings of members and globals
	// (BoundOrigin), read once.
	bound map[string]boundEntry
	// buffers memoizes globalBuffers.
	buffers map[*grammar.Node]map[string]bufferCall
	// params memoizes Params: an origin is asked per name use.
	params map[*grammar.Node][]Param
	// wroteBack memoizes callersWriteBack: the callers of a helper called
	// from many places are asked once per origin and depth, not once per
	// path up the call graph (exponential in the depth). Bit 2d says the
	// answer at depth d is known, bit 2d+1 is the answer.
	wroteBack [2]map[fnOrigin]uint32
	// touches and touched memoize the scalar accesses of each function
	// and the TouchBefore answers (touch.go).
	touches  map[*grammar.Node]*expansion[[]Touch]
	touched  map[touchKey]*expansion[*Touch]
	touchIdx map[*grammar.Node]*touchIndex
	// origins interns the origins of effects, touches and memo keys.
	origins map[Origin]*Origin
	// facts is the table of the effects' operations (effectList);
	// mapped shares the facts of callees' effects mapped to their calls.
	facts   *factTable
	mapped  map[mappedFact]uint32
	fileIDs map[*grammar.File]int32
	roots   []FuncDef
	rooted  bool
	depth   int
	// cut says an answer computed since it was last cleared depended on
	// where it was asked (cutDepth: the expansion depth limit was met;
	// cutOther: another bound on s.depth, or an expansion under way
	// answered empty); kept counts the answers kept (expandIn).
	cut        uint8
	kept       uint64
	arg        *argState
	unitGuards func(*grammar.File) *grammar.Guards
	// meter counts the work of the lazy computations (nil: not counted);
	// see spend.
	meter *Meter
}

// The memo keys name an origin by its shared copy (intern).
type writtenKey struct {
	fn *grammar.Node
	o  *Origin
}

type fnOrigin struct {
	fn *grammar.Node
	o  *Origin
}

type resolveKey struct {
	fnOrigin
	depth int
}

type originMemo struct {
	o    Origin
	busy bool
}

// maxExpand bounds how deep calls are expanded and origins followed.
const maxExpand = 8

// expansion is a memoized answer of the call expansion; busy while it is
// computed, so a recursive call answers empty. An empty answer the depth
// limit alone cut short (memoShallow) is the same when asked again at the
// same depth before any other answer was kept (depth, kept). A non-empty
// one the depth limit cut short (memoPartial) answers the questions of
// other expansions; a rule's own question (depth 0) computes it once more
// from the top, over the answers its callees keep, and that one is kept:
// each function is computed at most twice.
type expansion[T any] struct {
	v     T
	state uint8
	depth uint8
	kept  uint64
}

// The states of an expansion.
const (
	memoNone uint8 = iota
	memoBusy
	memoDone
	memoShallow
	memoPartial
)

// The reasons of Summaries.cut.
const (
	cutDepth uint8 = 1 << iota
	cutOther
)

// expand returns memo[k], computing it one expansion level deeper (at most
// maxExpand) when it is not there yet. When dropEmpty is given, an answer
// it calls empty that a depth limit or a recursion cut short (Summaries.cut)
// is not kept: a shallower start may find more. One that nothing cut is the
// same wherever it is asked, and is kept: asked again from every caller of
// every caller, an empty answer recomputed each time was exponential in the
// depth (an SDK header of 9,000 helpers without GM effects: 14 s).
func expand[K comparable, T any](s *Summaries, memo map[K]*expansion[T], k K, dropEmpty func(T) bool, compute func() T) T {
	m, ok := memo[k]
	if !ok {
		m = &expansion[T]{}
		memo[k] = m
	}
	v := expandIn(s, m, dropEmpty, compute)
	if m.state == memoNone {
		delete(memo, k)
	}
	return v
}

// expandIn is expand on a memo entry of the caller's (a slot by function
// number, see effectsOf); an answer not kept leaves it memoNone.
func expandIn[T any](s *Summaries, m *expansion[T], dropEmpty func(T) bool, compute func() T) T {
	var zero T
	switch m.state {
	case memoBusy:
		s.cut |= cutOther
		return zero
	case memoDone:
		return m.v
	case memoShallow:
		if int(m.depth) == s.depth && m.kept == s.kept {
			// A chain of helpers deeper than the limit: asked from each
			// caller, it was computed again along every path.
			s.cut |= cutDepth
			return zero
		}
	case memoPartial:
		if s.depth > 0 {
			s.cut |= cutDepth
			return m.v
		}
	}
	m.state = memoBusy
	outer := s.cut
	s.cut = 0
	var v T
	s.depth++
	switch {
	case s.depth > maxExpand:
		s.cut |= cutDepth
	case s.spend(1):
		s.cut |= cutOther
	default:
		v = compute()
	}
	s.depth--
	m.v, m.state = v, memoDone
	if dropEmpty != nil && s.cut != 0 && s.depth > 0 && dropEmpty(v) {
		m.v, m.state = zero, memoNone
		if s.cut == cutDepth {
			m.state, m.depth, m.kept = memoShallow, uint8(s.depth), s.kept
		}
	} else if dropEmpty != nil && s.cut&cutDepth != 0 && s.depth > 0 {
		// What the limit cut off a helper asked first from deep in a
		// chain (a kernel, its API wrappers, their overloads) is not the
		// helper's summary: a caller nearer the top expands it again.
		m.state = memoPartial
		s.kept++
	} else {
		s.kept++
	}
	s.cut |= outer
	return v
}

// SummarizeWith is Summarize over funcs, the files' function index
// (FuncsOf(ff, files...)), for a caller that has it already: a unit's index
// is then joined once for its summaries and its rules.
func SummarizeWith(ff FileFacts, funcs *Funcs, files ...*grammar.File) *Summaries {
	s := &Summaries{
		funcs:    funcs,
		res:      NewResolverFrom(ff, files...),
		files:    map[*grammar.Tree]*grammar.File{},
		scopes:   map[*grammar.Node]declsByName{},
		effects:  map[*grammar.Node]*expansion[*effectList]{},
		indexes:  map[*grammar.Node]*EffectIndex{},
		scopeIx:  map[*grammar.Node]*scopeIndex{},
		params:   map[*grammar.Node][]Param{},
		siteRefs: map[*grammar.Node][]callerRef{},
		entry:    map[*grammar.Node]*expansion[[]entrySite]{},
		touches:  map[*grammar.Node]*expansion[[]Touch]{},
		touched:  map[touchKey]*expansion[*Touch]{},
		returns:  map[*grammar.Node]*originMemo{},
		facts:    &factTable{},
	}
	if g, ok := ff.(UnitGuards); ok {
		s.unitGuards = g.IncludeGuards
	}
	for _, f := range files {
		if f != nil && f.MacroOf == nil {
			s.funcFiles = append(s.funcFiles, factsOr(ff).Funcs(f))
		}
	}
	for _, f := range files {
		if f != nil && f.Tree != nil {
			s.files[f.Tree] = f
		}
	}
	return s
}

// Metered charges the summaries' lazy work to m, the steps of the fact
// holding them (MeterOf its computation), whichever rule asks: past them every answer is
// cut short, and the fact's readers are told. Ask them of a file's own
// unit (its reach), whose rules ask the same questions in the same order
// on every run, so that the total, and whether it passed, is a property of
// the input.
func (s *Summaries) Metered(m *Meter) *Summaries {
	s.meter = m
	return s
}

// spend counts n steps of the summaries' work; true once they ran out.
func (s *Summaries) spend(n int) bool { return s.meter.Spend(n) }

// effectsScanned is effectsOf(fn), its length spent: for a scan of it.
func (s *Summaries) effectsScanned(fn *grammar.Node) *effectList {
	l := s.effectsOf(fn)
	if s.spend(l.Len()) {
		return nil
	}
	return l
}

// UnitGuards is implemented by a unit that knows each file's guard model
// in its compile: a header's `#ifndef NO_ENTRY` is cut by the `#define
// NO_ENTRY` its includer wrote before including it. IncludeGuards returns
// the file's own guards when nothing changes them.
type UnitGuards interface {
	IncludeGuards(f *grammar.File) *grammar.Guards
}

// FileOf returns the file of the unit a node belongs to, or nil.
func (s *Summaries) FileOf(n *grammar.Node) *grammar.File {
	if n == nil {
		return nil
	}
	return s.files[n.Tree()]
}

func (s *Summaries) coresOf(n *grammar.Node) grammar.Cores {
	if f := s.FileOf(n); f != nil {
		return s.coresIn(f, n)
	}
	return grammar.AIC | grammar.AIV
}

// coresIn is the cores that compile node n of file f in the unit.
func (s *Summaries) coresIn(f *grammar.File, n *grammar.Node) grammar.Cores {
	return CoresIn(f, n, s.unitGuards)
}

// CoresIn is the cores that compile node n of f: f's own guards and core
// tests (grammar.File.CoresOf), narrowed by the guard model guards gives
// for f in a unit (the macros its includers set, the unit's chip, its
// core-valued macros); guards may be nil.
func CoresIn(f *grammar.File, n *grammar.Node, guards func(*grammar.File) *grammar.Guards) grammar.Cores {
	c := f.CoresOf(n)
	if guards != nil && c != grammar.None {
		if g := guards(f); g != nil && g != f.Guards {
			c &= g.CoresAt(n.Start)
		}
	}
	return c
}

// ---- provenance ----

// originOf returns the memory the pointer (or integer address) expression
// e points into.
func (s *Summaries) originOf(e *grammar.Node) Origin {
	if s.depth > 4*maxExpand || s.spend(1) {
		s.cut |= cutOther
		return Origin{}
	}
	s.depth++
	defer func() { s.depth-- }()
	e = Unparen(e)
	if e == nil {
		return Origin{}
	}
	switch e.Kind() {
	case "identifier":
		return s.identOrigin(e)
	case "this", "number_literal", "null", "nullptr", "true", "false", "string_literal", "char_literal":
		return Origin{}
	case "cast_expression":
		return s.originOf(e.ChildByField("value")).carve()
	case "binary_expression":
		op := operatorText(e)
		switch op {
		case "+", "-", "&", "|", "^":
		case "*":
			// `addr / kLine * kLine` aligns an address down to its line:
			// it stays in its region, like `addr & ~(kLine - 1)`.
			// The same name twice aligns whatever its value
			// (`addr / kLine * kLine` with kLine in a header not read).
			if l := Unparen(e.ChildByField("left")); l != nil && l.Kind() == "binary_expression" && operatorText(l) == "/" {
				a, aok := s.res.Eval(l.ChildByField("right"))
				m, mok := s.res.Eval(e.ChildByField("right"))
				if aok && mok && a == m && a > 0 || sameName(l.ChildByField("right"), e.ChildByField("right")) {
					return s.originOf(l.ChildByField("left"))
				}
			}
			return Origin{}
		default:
			return Origin{}
		}
		l, r := e.ChildByField("left"), e.ChildByField("right")
		o, other := s.originOf(l), r
		if !o.Known() && op != "-" {
			o, other = s.originOf(r), l
		}
		if !o.Known() {
			return Origin{}
		}
		v, ok := s.res.Eval(other)
		switch {
		case ok && (op == "+" || op == "-"):
			if op == "-" {
				v = -v
			}
			o.idx += v
		case ok && op == "&":
			// Aligning an address keeps it in its region.
		case op == "+" || op == "-":
			// An index stays in the region its pointer was carved at
			// (`counts + i`); so does translating an address to a peer's
			// window (`window + (p - base)`). A named offset carves one.
			if op == "+" {
				o.Region = joinRegion(o.Region, s.regionName(other))
			}
		default:
			o.OffUnknown = true
		}
		return o
	case "unary_expression":
		if operatorText(e) == "~" || operatorText(e) == "-" {
			return Origin{}
		}
		return s.originOf(e.ChildByField("argument"))
	case "conditional_expression":
		a, b := s.originOf(e.ChildByField("consequence")), s.originOf(e.ChildByField("alternative"))
		if a == b {
			return a
		}
		return Origin{}
	case "pointer_expression":
		if operatorText(e) != "&" {
			return Origin{}
		}
		// &p[i], &p->f, &p[i].x: the memory p points into.
		a := Unparen(e.ChildByField("argument"))
		for a != nil {
			switch {
			case a.Kind() == "subscript_expression":
				return s.originOf(a.ChildByField("argument"))
			case a.Kind() == "field_expression" && operatorText(a) == "->":
				return s.originOf(a.ChildByField("argument"))
			case a.Kind() == "field_expression":
				a = Unparen(a.ChildByField("argument"))
				continue
			case a.Kind() == "pointer_expression" && operatorText(a) == "*":
				return s.originOf(a.ChildByField("argument"))
			}
			break
		}
		return Origin{}
	case "subscript_expression":
		// args[k] holds a task input's address (or its descriptor's).
		base := Unparen(e.ChildByField("argument"))
		if base != nil && base.Kind() == "identifier" && s.isArgsName(base) {
			return s.argSlot(SubscriptIndex(e))
		}
		// `g[i]` of a GlobalTensor g is a view of g's memory (a helper's
		// argument, `GlobalTensor<T> rows = g[off];`).
		if base != nil && slices.ContainsFunc(s.funcs.TypesOf(Root(base)), func(t string) bool { return strings.Contains(t, "GlobalTensor") }) {
			return s.tensorViewOrigin(e)
		}
		return Origin{}
	case "field_expression":
		arg := Unparen(e.ChildByField("argument"))
		fld := e.ChildByField("field")
		if fld == nil {
			return Origin{}
		}
		if arg == nil || arg.Kind() == "this" {
			return Origin{Kind: NamedOrigin, Name: fld.Text()}
		}
		// A descriptor's fields describe the tensor it stands for:
		// t->buffer.addr, t->start_offset, view.address_.
		base, desc := e, false
		for base != nil && base.Kind() == "field_expression" {
			if f := base.ChildByField("field"); f != nil && descriptorFields[f.Text()] {
				desc = true
			}
			base = Unparen(base.ChildByField("argument"))
		}
		bo := s.originOf(base)
		if desc && (bo.Kind == ArgOrigin || bo.Kind == ParamOrigin) {
			return bo
		}
		if bo.Kind == ArgOrigin {
			// A member stored in a task input: `meta->tbl` is the
			// memory the pointer stored there points to.
			return Origin{Kind: NamedOrigin, Name: bo.String() + oneLine(e.Text()[base.End-e.Start:])}
		}
		return Origin{Kind: NamedOrigin, Name: oneLine(e.Text())}
	case "call_expression":
		return s.callOrigin(e)
	case "initializer_list", "compound_literal_expression":
		return Origin{}
	}
	return Origin{}
}

// regionName is the name an offset carves a region at: a field
// (`ctrl->rows_off`), a member or global, or a parameter of the
// enclosing function; "" for anything else (a local index, an
// expression).
func (s *Summaries) regionName(e *grammar.Node) string {
	return s.regionNameIn(e, 0)
}

// regionNameIn is regionName through at most a few const locals: one
// holding a named offset (`const uint64_t tableOff = d->table_off;`)
// names the region its value does, so `sym + tableOff` and `sym + outOff`
// are told apart as `sym + d->table_off` and `sym + d->out_off` are.
func (s *Summaries) regionNameIn(e *grammar.Node, depth int) string {
	e = Uncast(e)
	if e == nil {
		return ""
	}
	switch e.Kind() {
	case "field_expression":
		return oneLine(e.Text())
	case "conditional_expression":
		// `dense ? d->meta_off : d->record_off`: one of two named regions.
		if depth < 3 {
			a, b := s.regionNameIn(e.ChildByField("consequence"), depth+1), s.regionNameIn(e.ChildByField("alternative"), depth+1)
			if a != "" && b != "" {
				return regionAlternatives(append(strings.Split(a, "|"), strings.Split(b, "|")...))
			}
		}
	case "identifier":
		d := s.lookupName(e.Text(), e)
		if d == nil {
			return e.Text()
		}
		if depth < 3 && d.Kind() == "init_declarator" && constDeclaration(d.Parent()) {
			if v := d.ChildByField("value"); v != nil {
				return s.regionNameIn(v, depth+1)
			}
		}
	}
	return ""
}

// constDeclaration reports whether a declaration is written const (its
// variables hold their initial value).
func constDeclaration(decl *grammar.Node) bool {
	if decl == nil || decl.Kind() != "declaration" {
		return false
	}
	for c := decl.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == "type_qualifier" && c.Text() == "const" {
			return true
		}
	}
	return false
}

// Uncast is e without the parentheses and casts around it. It strips the
// casts around a dcci's operand: `dcci((__gm__ void
// *)slot, ...)` casts for the intrinsic's signature and maintains the
// lines `slot` points at, whatever its type; as a view (carve) the cast
// would make `slot + 16` a region of its own, apart from the stores
// through `slot`.
func Uncast(e *grammar.Node) *grammar.Node {
	for {
		e = Unparen(e)
		switch {
		case e == nil:
			return nil
		case e.Kind() == "cast_expression":
			e = e.ChildByField("value")
		case e.Kind() == "call_expression" && castType(e) != nil:
			a := e.ChildByField("arguments").NamedChildren()
			if len(a) != 1 {
				return e
			}
			e = a[0]
		default:
			return e
		}
	}
}

func (s *Summaries) callOrigin(e *grammar.Node) Origin {
	if castType(e) != nil {
		if a := e.ChildByField("arguments").NamedChildren(); len(a) > 0 {
			return s.originOf(a[0]).carve()
		}
		return Origin{}
	}
	c, ok := AsCall(e)
	if !ok {
		return Origin{}
	}
	if c.Receiver != nil {
		switch c.Name {
		case "GetPhyAddr", "data", "address", "GetAddr", "get":
			return s.originOf(c.Receiver)
		}
		return Origin{}
	}
	switch c.Name {
	case "GlobalTensor":
		// GlobalTensor<T, Shape, Stride>(ptr, shape, stride): a view.
		if len(c.Args) > 0 {
			return s.originOf(c.Args[0])
		}
		return Origin{}
	}
	// A function of the unit returning a pointer: its return's origin,
	// with parameters replaced by the arguments.
	for _, d := range s.funcs.Callees(c) {
		if d.Node.Contains(e) && d.Node.Tree() == e.Tree() {
			continue
		}
		if s.coresOf(d.Node) == grammar.None {
			continue
		}
		ret := s.returnOrigin(d)
		if ret.Known() {
			return s.substitute(ret, c, e)
		}
		return Origin{}
	}
	// A pointer from a function outside the unit: the call as written
	// names the memory.
	if len(c.Args) > 0 && s.isArgsName(Unparen(c.Args[0])) {
		// tensor_data(args, k)-style accessors the unit does not define.
		if len(c.Args) > 1 {
			return s.argSlot(c.Args[1])
		}
	}
	return Origin{Kind: NamedOrigin, Name: oneLine(e.Text())}
}

// SubscriptIndex returns the index expression of `a[i]` (nil for `a[i,
// j]` and anything else).
func SubscriptIndex(e *grammar.Node) *grammar.Node {
	if idx := e.ChildByField("index"); idx != nil {
		return idx
	}
	if l := e.ChildByField("indices"); l != nil {
		if c := l.NamedChildren(); len(c) == 1 {
			return c[0]
		}
	}
	return nil
}

// argSlot is the ArgOrigin of args[index].
func (s *Summaries) argSlot(index *grammar.Node) Origin {
	index = Unparen(index)
	if index == nil {
		return Origin{}
	}
	o := Origin{Kind: ArgOrigin, SlotParam: -1}
	if v, ok := s.res.Eval(index); ok {
		o.Slot = v
		return o
	}
	if index.Kind() == "identifier" {
		if fn := EnclosingFunction(index); fn != nil && fn.Kind() == "function_definition" {
			if d := s.lookup(index); d == nil {
				for _, p := range s.paramsOf(fn) {
					if p.Name == index.Text() {
						o.SlotParam = int(p.Index)
						return o
					}
				}
			}
		}
	}
	o.SlotText = oneLine(index.Text())
	return o
}

// isArgsName reports whether an identifier is the extern args pointer: a
// `__gm__ int64_t *` parameter (or a local copy of one).
func (s *Summaries) isArgsName(id *grammar.Node) bool {
	if id == nil || id.Kind() != "identifier" {
		return false
	}
	fn := EnclosingFunction(id)
	if fn == nil || fn.Kind() != "function_definition" {
		return false
	}
	if s.lookup(id) != nil {
		return false
	}
	f := s.FileOf(id)
	for _, p := range s.paramsOf(fn) {
		if p.Name == id.Text() {
			return f != nil && IsArgsParam(f, p) && ArgsPlaced(fn, p.Name)
		}
	}
	return false
}

func (s *Summaries) identOrigin(id *grammar.Node) Origin {
	return s.nameOrigin(id.Text(), id)
}

// nameOrigin is the origin of the variable name visible at node at.
func (s *Summaries) nameOrigin(name string, at *grammar.Node) Origin {
	if d := s.lookupName(name, at); d != nil {
		return s.declOrigin(d, at)
	}
	fn := EnclosingFunction(at)
	if fn != nil && fn.Kind() == "function_definition" {
		for _, p := range s.paramsOf(fn) {
			if p.Name != name {
				continue
			}
			if f := s.FileOf(at); f != nil && IsArgsParam(f, p) && ArgsPlaced(fn, p.Name) {
				return Origin{}
			}
			// An `auto` parameter (a macro's, in its shadow) is whatever
			// the argument is.
			if p.Pointer || p.TypeText == "auto" || strings.Contains(p.TypeText, "GM_ADDR") || strings.Contains(p.TypeText, "GlobalTensor") || strings.Contains(p.TypeText, "Tensor") {
				return Origin{Kind: ParamOrigin, Param: int(p.Index)}
			}
			return Origin{}
		}
	}
	return Origin{Kind: NamedOrigin, Name: name}
}

// declOrigin follows a local declaration to its initializer: the value the
// name holds as long as it is not reassigned. A GlobalTensor declared
// without one takes the pointer of its SetGlobalBuffer call.
func (s *Summaries) declOrigin(d *grammar.Node, use *grammar.Node) Origin {
	if d.Kind() == "function_declarator" {
		// `Signal sig(remote);` in a body parses as a function
		// declaration: it constructs sig from the variable remote.
		if pl := d.ChildByField("parameters"); pl != nil {
			if ps := pl.NamedChildren(); len(ps) > 0 && ps[0].Kind() == "parameter_declaration" {
				t := ps[0].ChildByField("type")
				if t == nil || t.Kind() != "type_identifier" {
					return Origin{}
				}
				switch decl := ps[0].ChildByField("declarator"); {
				case decl == nil:
					return s.nameOrigin(t.Text(), d)
				case decl.Kind() == "abstract_function_declarator":
					// `Signal sig(remote_of(ctx, p))`: a call, its
					// arguments parsed as parameters named by type.
					return s.vexingCallOrigin(t.Text(), decl, d)
				}
			}
		}
		return Origin{}
	}
	if init, ok := declInit(d); ok {
		if init == nil {
			return Origin{}
		}
		return s.originOf(init)
	}
	// x.SetGlobalBuffer(ptr, n) later in the scope.
	name := declName(d)
	if fn := EnclosingFunction(d); fn != nil && name != "" {
		if c, ok := s.globalBuffers(fn)[name]; ok && c.node.Start <= use.Start {
			return s.originOf(c.call.Args[0])
		}
	}
	return Origin{}
}

// vexingCallOrigin is the origin of a call of the unit's function name
// that a declaration's initializer parsed as a parameter: its return's,
// with a parameter replaced by the variable the argument names.
func (s *Summaries) vexingCallOrigin(name string, args, at *grammar.Node) Origin {
	var names []string
	if pl := args.ChildByField("parameters"); pl != nil {
		for _, p := range pl.NamedChildren() {
			t := p.ChildByField("type")
			if t == nil || t.Kind() != "type_identifier" || p.ChildByField("declarator") != nil {
				names = append(names, "")
				continue
			}
			names = append(names, t.Text())
		}
	}
	for _, d := range s.funcs.Lookup(name) {
		ret := s.returnOrigin(d)
		if ret.Kind != ParamOrigin {
			return ret
		}
		if ret.Param < len(names) && names[ret.Param] != "" {
			if a := s.nameOrigin(names[ret.Param], at); a.Known() {
				return a.shift(ret)
			}
		}
		return Origin{}
	}
	return Origin{}
}

// declInit is what the variable of declarator d is made from: the value
// of `T x = v`, the first argument of `T x(a, ...)`, `T x{a, ...}` or
// `T x = {a, ...}` (nil for an empty list). ok is false when d has no
// initializer.
func declInit(d *grammar.Node) (init *grammar.Node, ok bool) {
	if v := d.ChildByField("value"); v != nil {
		if v.Kind() == "initializer_list" || v.Kind() == "argument_list" {
			if a := v.NamedChildren(); len(a) > 0 {
				return a[0], true
			}
			return nil, true
		}
		return v, true
	}
	if d.Kind() == "init_declarator" {
		for _, c := range d.NamedChildren() {
			if c.Kind() == "argument_list" || c.Kind() == "initializer_list" {
				if a := c.NamedChildren(); len(a) > 0 {
					return a[0], true
				}
			}
		}
	}
	return nil, false
}

// bufferCall is a SetGlobalBuffer call: its node and its parse.
type bufferCall struct {
	node *grammar.Node
	call Call
}

// globalBuffers maps each receiver name to fn's first SetGlobalBuffer call
// on it, gathered once per function: a tensor's origin is asked per use,
// and scanning the calls before each use is quadratic in a long entry
// that passes one tensor to every helper.
func (s *Summaries) globalBuffers(fn *grammar.Node) map[string]bufferCall {
	if m, ok := s.buffers[fn]; ok {
		return m
	}
	if s.buffers == nil {
		s.buffers = map[*grammar.Node]map[string]bufferCall{}
	}
	var m map[string]bufferCall
	for _, n := range s.funcs.Calls(fn) {
		c, ok := AsCall(n)
		if !ok || c.Name != "SetGlobalBuffer" || c.Receiver == nil || len(c.Args) == 0 {
			continue
		}
		name := Unparen(c.Receiver).Text()
		if _, seen := m[name]; seen {
			continue
		}
		if m == nil {
			m = map[string]bufferCall{}
		}
		m[name] = bufferCall{n, c}
	}
	s.buffers[fn] = m
	return m
}

func declName(d *grammar.Node) string {
	n, _, _, _, _ := Declarator(d)
	if n == nil {
		return ""
	}
	return n.Text()
}

// lookup returns the local declarator (init_declarator or plain) that
// declares id in an enclosing block or for statement before it, or nil for
// parameters and names declared outside the function.
func (s *Summaries) lookup(id *grammar.Node) *grammar.Node {
	return s.lookupName(id.Text(), id)
}

func (s *Summaries) lookupName(name string, id *grammar.Node) *grammar.Node {
	fn := EnclosingFunction(id)
	if fn == nil {
		return s.lookupNameUp(name, id)
	}
	// The innermost scope that declares anything and holds id, then the
	// declaring scopes around it: walking up every parent instead costs
	// the depth of id, thousands in an else-if chain, per name looked up.
	ix := s.declaringScopes(fn)
	if ix == nil {
		return nil
	}
	k := sort.Search(len(ix.scopes), func(k int) bool { return ix.scopes[k].Index() >= id.Index() }) - 1
	for k >= 0 && !ix.scopes[k].Contains(id) {
		k = int(ix.parent[k])
	}
	for ; k >= 0; k = int(ix.parent[k]) {
		if best := lastDeclBefore(ix.declsOf(k).named(name), id); best != nil {
			return best
		}
	}
	return nil
}

// lookupNameUp is lookupName outside any function: up the parents.
func (s *Summaries) lookupNameUp(name string, id *grammar.Node) *grammar.Node {
	for p := id.Parent(); p != nil; p = p.Parent() {
		if isScopeKind(p.Kind()) {
			if best := lastDeclBefore(s.scopeDecls(p).named(name), id); best != nil {
				return best
			}
		}
	}
	return nil
}

// isScopeKind reports whether nodes of a kind hold declarations visible
// inside them (a switch: asked of every node of a function's walk).
func isScopeKind(kind string) bool {
	switch kind {
	case "compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement", "switch_statement":
		return true
	}
	return false
}

// lastDeclBefore is the last of a scope's declarators of a name that
// comes before id and is not id's own.
func lastDeclBefore(decls []scopeDecl, id *grammar.Node) *grammar.Node {
	var best *grammar.Node
	for _, sd := range decls {
		if d := sd.decl; d.Start < id.Start && !d.Contains(id) {
			best = d
		}
	}
	return best
}

// scopeDecl is a declarator of a scope and the node of the name it
// declares.
type scopeDecl struct{ name, decl *grammar.Node }

// declsByName are a scope's declarators sorted by name, each name's in
// source order: a sorted array rather than a map per scope, since an
// else-if chain has thousands of scopes, most declaring one name or none.
type declsByName []scopeDecl

// named returns the declarators of name.
func (l declsByName) named(name string) []scopeDecl {
	return equalRun(l, name, func(d scopeDecl, name string) int { return compareBytesString(d.name.Bytes(), name) })
}

// scopeIndex lists a function's scopes that declare something, in source
// order, each with the nearest such scope around it (-1: none) and its
// declarators (declsOf). Nested functions and lambdas are left out: a
// name is not looked up past them.
type scopeIndex struct {
	scopes []*grammar.Node
	parent []int32
	// decls holds the scopes' declarators, scope k's at
	// decls[ends[k-1]:ends[k]]: one array per function rather than one
	// per scope in a map.
	ends  []int32
	decls []scopeDecl
}

// declsOf is the declarators of scope k.
func (ix *scopeIndex) declsOf(k int) declsByName {
	start := int32(0)
	if k > 0 {
		start = ix.ends[k-1]
	}
	return ix.decls[start:ix.ends[k]:ix.ends[k]]
}

// declaringScopes is fn's scopeIndex (nil when no scope declares
// anything), memoized: a function's scopes are one walk of it.
func (s *Summaries) declaringScopes(fn *grammar.Node) *scopeIndex {
	if ix, ok := s.scopeIx[fn]; ok {
		return ix
	}
	ix := &scopeIndex{}
	var open []int32
	fn.Walk(func(n *grammar.Node) bool {
		if n != fn && (n.Kind() == "function_definition" || n.Kind() == "lambda_expression") {
			return false
		}
		if !isScopeKind(n.Kind()) {
			return true
		}
		decls := scopeDeclsOf(n)
		if len(decls) == 0 {
			return true
		}
		for len(open) > 0 && !ix.scopes[open[len(open)-1]].Contains(n) {
			open = open[:len(open)-1]
		}
		p := int32(-1)
		if len(open) > 0 {
			p = open[len(open)-1]
		}
		ix.scopes = append(ix.scopes, n)
		ix.parent = append(ix.parent, p)
		ix.decls = append(ix.decls, decls...)
		ix.ends = append(ix.ends, int32(len(ix.decls)))
		open = append(open, int32(len(ix.scopes)-1))
		return true
	})
	if len(ix.scopes) == 0 {
		ix = nil
	}
	s.scopeIx[fn] = ix
	return ix
}

// scopeDecls is scopeDeclsOf(scope) for a scope outside any function,
// memoized.
func (s *Summaries) scopeDecls(scope *grammar.Node) declsByName {
	if m, ok := s.scopes[scope]; ok {
		return m
	}
	m := scopeDeclsOf(scope)
	if len(m) > 0 {
		m = slices.Clip(m)
		s.scopes[scope] = m
	}
	return m
}

// scopeDeclsOf indexes the declarators a block (or the init of a
// for/if/while) declares directly, by name, in source order.
func scopeDeclsOf(scope *grammar.Node) declsByName {
	var m declsByName
	add := func(decl *grammar.Node) {
		if decl == nil || decl.Kind() != "declaration" {
			return
		}
		for _, d := range decl.ChildrenByField("declarator") {
			if n, _, _, _, _ := Declarator(d); n != nil {
				m = append(m, scopeDecl{n, d})
			} else if d.Kind() == "function_declarator" {
				if n := d.ChildByField("declarator"); n != nil && n.Kind() == "identifier" {
					m = append(m, scopeDecl{n, d})
				}
			}
		}
	}
	if scope.Kind() == "compound_statement" {
		for c := scope.FirstChild(); c != nil; c = c.NextSibling() {
			add(c)
			// Declarations inside preprocessor branches of the block.
			if strings.HasPrefix(c.Kind(), "preproc_") {
				c.Walk(func(n *grammar.Node) bool {
					if n.Kind() == "declaration" {
						add(n)
						return false
					}
					return n.Kind() != "compound_statement" && n.Kind() != "function_definition"
				})
			}
		}
	} else {
		for _, f := range []string{"initializer", "condition", "declarator"} {
			for _, c := range scope.ChildrenByField(f) {
				add(c)
				if c.Kind() == "condition_clause" {
					add(c.ChildByField("initializer"))
				}
			}
		}
	}
	slices.SortStableFunc(m, func(a, b scopeDecl) int { return bytes.Compare(a.name.Bytes(), b.name.Bytes()) })
	return m
}

// returnOrigin is the origin of what a function returns, relative to its
// parameters (unknown when its returns disagree).
func (s *Summaries) returnOrigin(d FuncDef) Origin {
	if m, ok := s.returns[d.Node]; ok {
		if m.busy {
			s.cut |= cutOther
			return Origin{}
		}
		return m.o
	}
	m := &originMemo{busy: true}
	s.returns[d.Node] = m
	var o Origin
	first := true
	if body := d.Body(); body != nil {
		ds := body.Descendants()
		for i := range ds {
			n := &ds[i]
			if n.Kind() != "return_statement" || EnclosingFunction(n) != d.Node || s.coresOf(n) == grammar.None {
				continue
			}
			var ro Origin
			if c := n.NamedChildren(); len(c) > 0 {
				if isNullConst(c[0]) {
					// `if (i >= n) return nullptr;`: no memory, so no
					// disagreement with the returns that point somewhere.
					continue
				}
				ro = s.originOf(c[0])
			}
			if first {
				o, first = ro, false
			} else if o != ro {
				o = Origin{}
			}
		}
	}
	m.o, m.busy = o, false
	return o
}

// substitute maps an origin relative to a callee's parameters to the
// caller's, for the call c (node e).
func (s *Summaries) substitute(o Origin, c Call, e *grammar.Node) Origin {
	switch {
	case o.Kind == ParamOrigin:
		if o.Param < len(c.Args) {
			if a := s.originOf(c.Args[o.Param]); a.Known() {
				return a.shift(o)
			}
		}
		return Origin{}
	case o.Kind == ArgOrigin && o.SlotParam >= 0:
		if o.SlotParam < len(c.Args) {
			if a := s.argSlot(c.Args[o.SlotParam]); a.Known() {
				return a.shift(o)
			}
		}
		return Origin{}
	}
	return o
}

// ---- effects ----

// effectsOf returns what fn does, in source order, with the calls to
// functions of the unit expanded in place (At is then the call). Origins
// are relative to fn's parameters.
func (s *Summaries) effectsOf(fn *grammar.Node) *effectList {
	empty := func(l *effectList) bool { return l.Len() == 0 }
	return expand(s, s.effects, fn, empty, func() *effectList { return s.computeEffects(fn) })
}

// effectsKept reports whether fn's effects are memoized: not an empty
// list made under the depth limit.
func (s *Summaries) effectsKept(fn *grammar.Node) bool {
	m, ok := s.effects[fn]
	return ok && m.state == memoDone
}

func (s *Summaries) computeEffects(fn *grammar.Node) *effectList {
	body := fn.ChildByField("body")
	f := s.FileOf(fn)
	if body == nil || f == nil {
		return nil
	}
	var b effectBuilder
	file := s.fileID(f)
	add := func(at *grammar.Node, x effectFact) {
		if x.cores != grammar.None {
			x.file = file
			b.add(at, s.addFact(x))
		}
	}
	ds := body.Descendants()
	if s.spend(len(ds)) {
		return nil
	}
	for i := range ds {
		n := &ds[i]
		switch n.Kind() {
		case "call_expression":
			cores := s.coresIn(f, n)
			if cores == grammar.None {
				continue
			}
			c, ok := AsCall(n)
			if !ok {
				continue
			}
			c, _ = s.funcs.Forward(c)
			if e, ok := s.directEffect(f, c); ok {
				for _, x := range e {
					add(n, effectFact{site: n, origin: x.origin, kind: x.Kind, all: x.All, cores: cores})
				}
				continue
			}
			for _, d := range s.funcs.OfClass(n, c, s.funcs.Callees(c)) {
				// A definition the call's arguments do not fit is another
				// function of that name (`optimizer_.Compute(in, out, n)`
				// beside the kernel's own `Compute(args)`).
				if d.Node == fn || s.coresOf(d.Node) == grammar.None || d.Body() == nil || !Takes(d.Node, len(c.Args)) {
					continue
				}
				s.expandCall(&b, fn, d.Node, n, c, cores)
				break
			}
		case "assignment_expression", "update_expression":
			var lhs *grammar.Node
			if n.Kind() == "assignment_expression" {
				lhs = n.ChildByField("left")
			} else {
				lhs = n.ChildByField("argument")
			}
			if o := s.storeOrigin(lhs); o.Known() {
				add(n, effectFact{kind: ScalarWrite, origin: s.intern(o), site: n, cores: s.coresIn(f, n)})
			}
		}
	}
	return b.list(s.facts)
}

// expandCall appends the effects of callee at its call n (c) in fn: its
// effects (condensed), but those the call's arguments make dead, with the
// callee's parameters replaced by the arguments, on the cores that
// compile the call.
func (s *Summaries) expandCall(b *effectBuilder, fn, callee, n *grammar.Node, c Call, cores grammar.Cores) {
	l := s.effectsScanned(callee)
	keep := l.condensed()
	// The answers per node (a run) and per memory: a block has many
	// effects on a few of each.
	var deadAt *grammar.Node
	dead := false
	type mapped struct{ from, to *Origin }
	var subst []mapped
	substitute := func(p *Origin) *Origin {
		for _, m := range subst {
			if m.from == p {
				return m.to
			}
		}
		to := s.intern(s.substitute(p.value(), c, n))
		subst = append(subst, mapped{p, to})
		return to
	}
	one := func(i int) {
		at := l.at(i)
		if at != deadAt {
			deadAt, dead = at, at.Tree() == callee.Tree() && s.deadForCall(callee, at, n, fn)
		}
		if dead {
			// `f(nullptr)` skips what f guards with the pointer.
			return
		}
		x := *l.fact(i)
		origin := substitute(x.origin)
		if (x.kind == Invalidate || x.kind == WriteBack || x.kind == DMAWrite || x.kind == ScalarWrite) && !x.all && origin == nil {
			return
		}
		if x.cores&cores == grammar.None {
			return
		}
		b.add(n, s.mapFact(l.id(i), origin, x.cores&cores))
	}
	if keep == nil {
		for i := range l.Len() {
			one(i)
		}
		return
	}
	for _, i := range keep {
		one(int(i))
	}
}

// condenseAbove is the length above which a callee's effects are condensed
// before they are expanded at a call: in a call graph where every helper
// calls two others the expanded lists double at each level.
// effectList.condensed keeps, in order, the first and the last occurrence
// of each distinct effect (kind, memory, cores) of a long list: what comes
// first and what comes last of each kind is what the scans over a call's
// block of effects ask, and the list stays as long as the distinct effects.
const condenseAbove = 256

// condenseBy keeps, in order, the first and the last element of each key
// of a list longer than condenseAbove.
func condenseBy[T any, K comparable](xs []T, key func(T) K) []T {
	if len(xs) <= condenseAbove {
		return xs
	}
	first := map[K]int{}
	last := map[K]int{}
	for i, x := range xs {
		k := key(x)
		if _, ok := first[k]; !ok {
			first[k] = i
		}
		last[k] = i
	}
	out := make([]T, 0, 2*len(first))
	for i, x := range xs {
		if k := key(x); first[k] == i || last[k] == i {
			out = append(out, x)
		}
	}
	return out
}

// storeOrigin is the memory a store to the lvalue writes: `p[i]`, `*p`,
// `p->f`, `p[i].x` write into p's memory; a store to a variable writes no
// memory of interest.
func (s *Summaries) storeOrigin(lv *grammar.Node) Origin {
	lv = Unparen(lv)
	for lv != nil {
		switch lv.Kind() {
		case "subscript_expression":
			return s.originOf(lv.ChildByField("argument"))
		case "pointer_expression":
			if operatorText(lv) == "*" {
				return s.originOf(lv.ChildByField("argument"))
			}
			return Origin{}
		case "field_expression":
			if operatorText(lv) == "->" {
				return s.originOf(lv.ChildByField("argument"))
			}
			lv = Unparen(lv.ChildByField("argument"))
			continue
		}
		return Origin{}
	}
	return Origin{}
}

// descriptorFields are the fields of the runtime's tensor descriptors and
// views that hold (part of) the address of the data they describe.
var descriptorFields = map[string]bool{"buffer": true, "addr": true, "start_offset": true, "address_": true, "data": true}

// dmaWriters are the calls whose first argument is a GM destination the
// call writes by DMA.
var dmaWriters = map[string]bool{
	"DataCopy": true, "DataCopyPad": true, "TSTORE": true, "TPUT": true, "Fixpipe": true,
	"copy_ubuf_to_gm": true, "copy_ubuf_to_gm_align_b8": true, "copy_ubuf_to_gm_align_b16": true,
	"copy_ubuf_to_gm_align_b32": true, "copy_matrix_cc_to_gm": true, "copy_cbuf_to_gm": true,
}

// directEffect decodes the intrinsics and library calls that are effects.
func (s *Summaries) directEffect(f *grammar.File, c Call) ([]Effect, bool) {
	if ptr, args, ok := dcciOperands(c); ok {
		d := Dcci{Args: args}
		all := d.HasArg("ENTIRE_DATA_CACHE")
		o := Origin{}
		if !all {
			o = s.originOf(Uncast(ptr))
			if c.Name == "DataCacheCleanAndInvalid" && !o.Known() {
				// DataCacheCleanAndInvalid takes a GlobalTensor: `g[i]`
				// is a view of g.
				o = s.tensorViewOrigin(ptr)
			}
		}
		p := s.intern(o)
		out := []Effect{{Kind: Invalidate, origin: p, All: all}}
		// dcci cleans and invalidates; a destination argument other than
		// OUT/ALL keeps the line from GM.
		dstGiven := len(args) >= 2
		if !dstGiven || d.HasArg("CACHELINE_OUT") || d.HasArg("CACHELINE_ALL") {
			out = append(out, Effect{Kind: WriteBack, origin: p, All: all})
		}
		return out, true
	}
	switch c.Name {
	case "dsb", "asc_sync_data_barrier":
		// The C API's asc_sync_data_barrier(arg) is the macro for dsb(arg).
		if c.Receiver != nil || len(c.Args) != 1 {
			return nil, false
		}
		t := c.Args[0].Text()
		if strings.Contains(t, "DSB_UB") || strings.Contains(t, "DSB_SEQ") {
			return nil, true
		}
		return []Effect{{Kind: Dsb}}, true
	case "DataSyncBarrier":
		return []Effect{{Kind: Dsb}}, true
	}
	if fc, ok := AsFlagCall(c.Node, s.res); ok {
		if fc.Kind == FlagWait {
			return []Effect{{Kind: Wait}}, true
		}
		return []Effect{{Kind: Signal}}, true
	}
	if IsHardwareSyncAll(c) {
		return []Effect{{Kind: Signal}, {Kind: Wait}}, true
	}
	switch c.Name {
	case "TNOTIFY":
		// pto::comm::TNOTIFY(signal, value, op): a remote (or loopback)
		// write of the signal word, which tells the peer to go on.
		if c.Receiver == nil && len(c.Args) > 0 {
			out := []Effect{{Kind: Signal}}
			if o := s.originOf(c.Args[0]); o.Known() {
				out = append([]Effect{{Kind: DMAWrite, origin: s.intern(o)}}, out...)
			}
			return out, true
		}
	case "TWAIT":
		// pto::comm::TWAIT(signal, value, cmp): waits for a peer's notify.
		if c.Receiver == nil && len(c.Args) > 0 {
			return []Effect{{Kind: Wait}}, true
		}
	case "IBSet", "IBWait", "SyncAll":
		// AscendC's inter-block sync through GM words (IBSet tells the
		// block waiting in IBWait to go on) and the software SyncAll(gm,
		// ub, cores) barrier built on them.
		if c.Receiver == nil && len(c.Args) >= 2 && (c.Name != "SyncAll" || len(c.Args) == 3) {
			switch c.Name {
			case "IBSet":
				return []Effect{{Kind: Signal}}, true
			case "IBWait":
				return []Effect{{Kind: Wait}}, true
			}
			return []Effect{{Kind: Signal}, {Kind: Wait}}, true
		}
	}
	if dmaWriters[c.Name] && c.Receiver == nil && len(c.Args) > 0 {
		o := s.originOf(c.Args[0])
		if !o.Known() {
			// `DataCopy(g[i], ub, n)`: a DMA destination is a tensor (or
			// a pointer), so a subscript there is a view of g, not a load.
			o = s.tensorViewOrigin(c.Args[0])
		}
		if o.Known() {
			return []Effect{{Kind: DMAWrite, origin: s.intern(o)}}, true
		}
		return nil, true
	}
	return nil, false
}

// tensorViewOrigin is the memory of `g[i]` where the context says g is a
// tensor (a DMA destination, a GlobalTensor cache operation, a
// GetValue/SetValue receiver): GlobalTensor's operator[] returns a view
// at offset i, the region `g + i` would be. Unknown for anything else.
func (s *Summaries) tensorViewOrigin(e *grammar.Node) Origin {
	e = Unparen(e)
	if e == nil || e.Kind() != "subscript_expression" {
		return Origin{}
	}
	base := Unparen(e.ChildByField("argument"))
	if base == nil || base.Kind() == "identifier" && s.isArgsName(base) {
		return Origin{}
	}
	o := s.originOf(base)
	if !o.Known() {
		return o
	}
	if v, ok := s.res.Eval(SubscriptIndex(e)); ok {
		o.idx += v
	}
	return o
}

// tensorArgCalls take GM tensors (or pointers) as arguments: a subscript
// passed to them directly is a GlobalTensor view, not a scalar load.
var tensorArgCalls = map[string]bool{
	"DataCopy": true, "DataCopyPad": true, "Fixpipe": true, "TLOAD": true, "TSTORE": true, "TPUT": true,
	"TGET": true, "SetGlobalBuffer": true, "DataCacheCleanAndInvalid": true,
}

// ---- facts from the callers ----

// callersNamed returns the calls of functions named name in the unit, outside
// code no core compiles, by file, then as FileFuncs.callSites orders them.
// The unit's calls are joined into one list by name on first need (from
// each file's, indexed once per parse): asked per function, a lookup in
// each file cost the unit's functions times its files (an SDK header's
// closure of 9,000 functions in 600 files: 5 s). When the unit was given
// the joined calls of a run of its files (JoinCallers), those are looked
// up there and the other files' in their own lists.
func (s *Summaries) callersNamed(name string) []callerRef {
	var out []callerRef
	keep := func(r callerRef) {
		if cs := s.site(r); s.coresIn(cs.File, cs.Call) != grammar.None {
			out = append(out, r)
		}
	}
	if s.joinCalls != nil {
		s.useCalls(s.joinCalls())
		s.joinCalls = nil
	}
	if j := s.joined; j != nil {
		for i := range s.funcFiles {
			switch {
			case i == s.joinedAt:
				for _, r := range j.named(name) {
					keep(callerRef{r.ref, r.file + int32(i)})
				}
			case i < s.joinedAt || i >= s.joinedAt+len(j.files):
				for _, ref := range s.funcFiles[i].callSites(name) {
					keep(callerRef{ref, int32(i)})
				}
			}
		}
		return out
	}
	if s.callers == nil {
		s.callers = joinCalls(s.funcFiles)
	}
	for _, r := range equalRun(s.callers, name, s.funcFiles.callerName) {
		keep(r)
	}
	return out
}

// fileFuncsList is a list of files' function indexes, as callerRef.file
// numbers them.
type fileFuncsList []*FileFuncs

// callerName compares the name r calls with name.
func (l fileFuncsList) callerName(r callerRef, name string) int {
	return compareBytesString(callNameBytes(l[r.file].callOf(r.ref)), name)
}

// joinCalls joins the files' calls into one list by called name: each
// file's sites are in name order already (once per parse), its run is
// merged with the others', by file on equal names, then as allSites lists
// them.
func joinCalls(files fileFuncsList) []callerRef {
	type named struct {
		name []byte
		ref  callerRef
	}
	n := 0
	for _, p := range files {
		n += len(p.allSites())
	}
	all := make([]named, 0, n)
	bounds := make([]int, 1, len(files)+1)
	for i, p := range files {
		for j, ref := range p.allSites() {
			all = append(all, named{p.siteName(j), callerRef{ref, int32(i)}})
		}
		bounds = append(bounds, len(all))
	}
	all = mergeRuns(all, bounds, func(a, b named) int { return bytes.Compare(a.name, b.name) })
	out := make([]callerRef, len(all))
	for i, x := range all {
		out[i] = x.ref
	}
	return out
}

// Calls are the calls of some files' functions joined by called name (as
// Summaries.callersNamed joins a unit's), for a front end to keep as a fact
// of those files alone: a unit made again after an edit of a file outside
// them joins its own files' calls with these (JoinCallers), not every
// file's again.
type Calls struct {
	files fileFuncsList
	refs  []callerRef
}

// JoinCalls joins the calls of the functions of files (macro shadows left
// out, as a unit's Summaries leave them), each file's from ff.
func JoinCalls(ff FileFacts, files ...*grammar.File) *Calls {
	c := &Calls{}
	for _, f := range files {
		if f != nil && f.MacroOf == nil {
			c.files = append(c.files, factsOr(ff).Funcs(f))
		}
	}
	c.refs = joinCalls(c.files)
	return c
}

// named are the calls of name, file numbers counted from c's first file.
func (c *Calls) named(name string) []callerRef {
	return equalRun(c.refs, name, c.files.callerName)
}

// JoinCallers has s look up the callers of a function in the joined
// calls calls gives (asked once, on first need: many units never ask for
// callers) for their files, when those are a run of s's own (the same
// indexes of the same parses, in order); otherwise s joins every file's
// calls itself, as without them.
func (s *Summaries) JoinCallers(calls func() *Calls) *Summaries {
	s.joinCalls = calls
	return s
}

// useCalls has s look up the callers in c for c's files, if they are a
// run of s's files.
func (s *Summaries) useCalls(c *Calls) {
	if c == nil || len(c.files) == 0 {
		return
	}
	at := slices.Index(s.funcFiles, c.files[0])
	if at < 0 || len(s.funcFiles)-at < len(c.files) || !slices.Equal(s.funcFiles[at:at+len(c.files)], c.files) {
		return
	}
	s.joined, s.joinedAt = c, at
}

// callerRef is a CallSite of the unit as its file's index has it (16
// bytes, not 48): a unit keeps one per call of each function it asks about.
type callerRef struct {
	ref  siteRef
	file int32 // in funcFiles
}

func (s *Summaries) site(r callerRef) CallSite { return s.funcFiles[r.file].site(r.ref) }

// ownCalls keeps the calls of fn's body that are fn's own: not inside a
// lambda or a function defined in it. One pass over fn's nodes (a walk up
// from each call is as long as the else-if chain around it).
func ownCalls(fn *grammar.Node, calls []*grammar.Node) []*grammar.Node {
	body := fn.ChildByField("body")
	if body == nil || len(calls) == 0 {
		return nil
	}
	var nested []span
	ds := body.Descendants()
	for i := range ds {
		if k := ds[i].Kind(); k == "lambda_expression" || k == "function_definition" {
			nested = append(nested, span{ds[i].Start, ds[i].End})
		}
	}
	if len(nested) == 0 {
		return calls
	}
	nested = mergeSpans(nested)
	out := make([]*grammar.Node, 0, len(calls))
	for _, c := range calls {
		k := sort.Search(len(nested), func(k int) bool { return nested[k].end > c.Start })
		if k < len(nested) && nested[k].start <= c.Start && c.End <= nested[k].end {
			continue
		}
		out = append(out, c)
	}
	return out
}

// callSitesOf returns the calls that reach fn (by name, whose callee
// resolution includes fn) from other functions.
func (s *Summaries) callSitesOf(fn *grammar.Node) []CallSite {
	return s.sitesOf(fn, false)
}

// sitesOf returns the calls that reach fn, its own recursive calls
// included when self is set.
func (s *Summaries) sitesOf(fn *grammar.Node, self bool) []CallSite {
	refs := s.siteRefsOf(fn, self)
	if len(refs) == 0 {
		return nil
	}
	out := make([]CallSite, len(refs))
	for i, r := range refs {
		out[i] = s.site(r)
	}
	return out
}

// siteRefsOf is sitesOf as references.
func (s *Summaries) siteRefsOf(fn *grammar.Node, self bool) []callerRef {
	refs := s.allSiteRefs(fn)
	if self || !slices.ContainsFunc(refs, func(r callerRef) bool { return s.site(r).Caller.Node == fn }) {
		return refs
	}
	return slices.DeleteFunc(slices.Clone(refs), func(r callerRef) bool { return s.site(r).Caller.Node == fn })
}

// allSiteRefs is siteRefsOf(fn, true), memoized: asked about every
// function, and again and again up a call graph.
func (s *Summaries) allSiteRefs(fn *grammar.Node) []callerRef {
	if refs, ok := s.siteRefs[fn]; ok {
		return refs
	}
	var out []callerRef
	if name := FunctionName(fn); name != "" {
		for _, r := range s.callersNamed(name) {
			c, ok := AsCall(s.site(r).Call)
			if !ok {
				continue
			}
			for _, d := range s.funcs.OfClass(s.site(r).Call, c, s.funcs.Callees(c)) {
				if d.Node == fn {
					out = append(out, r)
					break
				}
			}
		}
	}
	s.siteRefs[fn] = out
	return out
}

// entrySite is what one caller established before one call of a function:
// origins in the callee's terms.
type entrySite struct {
	site callerRef
	wait *Effect // a wait before the call (in the caller or above)
	// coherent is the memory invalidated before the call, mapped.
	coherent []*Origin
	all      bool // the whole cache was invalidated before the call
}

// entrySites computes, for every call of fn in the unit, what the caller
// (and, recursively, its callers) did before the call.
func (s *Summaries) entrySites(fn *grammar.Node) []entrySite {
	return expand(s, s.entry, fn, nil, func() []entrySite {
		var sites []entrySite
		for _, r := range s.siteRefsOf(fn, false) {
			cs := s.site(r)
			c, _ := AsCall(cs.Call)
			es := entrySite{site: r}
			// The caller's own callers first: what holds at its entry.
			state := s.stateBefore(cs.Caller.Node, cs.Call)
			es.all, es.wait = state.all, state.wait
			params := s.paramsOf(fn)
			var set originSet
			for _, inv := range state.coherent {
				// Map the caller's origin to the callee's: an argument
				// passed as parameter i, or the same task input / name.
				for i, a := range c.Args {
					if i < len(params) && inv.Covers(s.originOf(a)) {
						set.add(s.intern(Origin{Kind: ParamOrigin, Param: i}))
					}
				}
				if inv.Kind == ArgOrigin && inv.SlotParam < 0 || inv.Kind == NamedOrigin {
					set.add(inv)
				}
			}
			es.coherent = set.list
			sites = append(sites, es)
		}
		return slices.Clip(sites)
	})
}

// coherenceState is what holds at a point of a function: the lines
// invalidated before it (since the last wait), and the last wait.
type coherenceState struct {
	coherent []*Origin // a set: only which memory, not where
	all      bool
	wait     *Effect
}

// originSet is a set of shared origins (Summaries.intern), in the order
// they were added.
type originSet struct {
	list []*Origin
	in   map[*Origin]bool
}

func (set *originSet) add(p *Origin) {
	if set.in == nil {
		set.in = map[*Origin]bool{}
	}
	if !set.in[p] {
		set.in[p] = true
		set.list = append(set.list, p)
	}
}

// stateBefore is the coherence state just before node at in fn: what every
// caller established at fn's entry, then fn's own effects before at.
//
// Only what runs on a core that runs at counts: a wait under `if
// ASCEND_IS_AIV` does not come before code under `if ASCEND_IS_AIC`.
func (s *Summaries) stateBefore(fn, at *grammar.Node) coherenceState {
	var st coherenceState
	var set originSet
	cores := s.coresOf(at)
	sites := s.entrySites(fn)
	if len(sites) > 0 {
		st.all = true
		for i, es := range sites {
			st.all = st.all && es.all
			if st.wait == nil && es.wait != nil && es.wait.Cores&cores != 0 {
				w := *es.wait
				st.wait = &w
			}
			coherent := es.coherent
			if i == 0 {
				for _, o := range coherent {
					set.add(o)
				}
				continue
			}
			// Keep what every caller established.
			kept := originSet{}
			for _, inv := range set.list {
				for _, o := range coherent {
					if o.Same(*inv) {
						kept.add(inv)
						break
					}
				}
			}
			set = kept
		}
	}
	for _, e := range s.effectsScanned(fn).all() {
		if e.At.Start >= at.Start {
			break
		}
		if !Precedes(e.At, at) || e.Cores&cores == 0 {
			continue
		}
		switch e.Kind {
		case Invalidate:
			if e.All {
				st.all = true
			} else if e.origin != nil && e.origin.Known() {
				set.add(e.origin)
			}
		case Wait:
			w := e
			st.wait, st.all, set = &w, false, originSet{}
		}
	}
	st.coherent = set.list
	return st
}

// entryCoherence reports whether every caller of fn made memory o (in fn's
// terms) coherent before calling it. missing lists the calls whose caller
// did not, when others did; ok is false when fn has no caller in the unit.
func (s *Summaries) entryCoherence(fn *grammar.Node, o Origin) (ok bool, missing []CallSite) {
	sites := s.entrySites(fn)
	if len(sites) == 0 {
		return false, nil
	}
	for _, es := range sites {
		covered := es.all && es.wait == nil
		for _, inv := range es.coherent {
			if inv.Covers(o) {
				covered = true
			}
		}
		if !covered {
			missing = append(missing, s.site(es.site))
		}
	}
	if len(missing) == len(sites) {
		return false, nil
	}
	return len(missing) == 0, missing
}

// resolve maps an origin relative to fn's parameters to the origins its
// callers pass (transitively, up to maxExpand levels): the task inputs and
// named memory it can be. An origin that is not a parameter is itself.
func (s *Summaries) resolve(fn *grammar.Node, o Origin) []*Origin {
	if o.Kind != ParamOrigin && !(o.Kind == ArgOrigin && o.SlotParam >= 0) {
		return []*Origin{s.intern(o)}
	}
	// Its answer is memoized per depth: one that asks it depends on where.
	s.cut |= cutOther
	if s.depth > maxExpand {
		return nil
	}
	k := resolveKey{fnOrigin{fn, s.intern(o)}, s.depth}
	if out, ok := s.resolved[k]; ok {
		return out
	}
	if s.spend(1) {
		return nil
	}
	if s.resolved == nil {
		s.resolved = map[resolveKey][]*Origin{}
	}
	s.depth++
	defer func() { s.depth-- }()
	var out []*Origin
	for _, cs := range s.callSitesOf(fn) {
		c, _ := AsCall(cs.Call)
		for _, r := range s.resolve(cs.Caller.Node, s.substitute(o, c, cs.Call)) {
			// A set (equal origins share one copy): the paths to the same
			// memory are many.
			if r != nil && r.Known() && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	s.resolved[k] = out
	return out
}

// entries returns the unit's extern entries (C-linkage functions taking
// the args pointer); when there are none, the functions nothing calls.
func (s *Summaries) entries() []FuncDef {
	if !s.rooted {
		s.roots, s.rooted = s.findEntries(), true
	}
	return s.roots
}

func (s *Summaries) findEntries() []FuncDef {
	var out []FuncDef
	// All lists the shares' definitions in order.
	for _, p := range s.funcs.shares {
		for _, i := range p.externEntries() {
			if d := p.defs[i]; s.coresIn(d.File, d.Node) != grammar.None {
				out = append(out, d)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, d := range s.funcs.All() {
		if len(s.callSitesOf(d.Node)) == 0 && s.coresIn(d.File, d.Node) != grammar.None {
			out = append(out, d)
		}
	}
	return out
}

// writtenInTask reports whether some code of the task writes memory o (in
// fn's terms) by a scalar store or DMA: the entries' effects, with every
// helper expanded, name the task inputs they write.
func (s *Summaries) writtenInTask(fn *grammar.Node, o Origin) bool {
	k := writtenKey{fn, s.intern(o)}
	if v, ok := s.written[k]; ok {
		return v
	}
	if s.written == nil {
		s.written = map[writtenKey]bool{}
	}
	v := s.computeWritten(fn, o)
	s.written[k] = v
	return v
}

func (s *Summaries) computeWritten(fn *grammar.Node, o Origin) bool {
	targets := s.resolve(fn, o)
	if len(targets) == 0 {
		// Not known to its callers: look at fn's own writes.
		for _, e := range s.effectsScanned(fn).all() {
			if (e.Kind == ScalarWrite || e.Kind == DMAWrite) && e.Origin().SameRegion(o) {
				return true
			}
		}
		return false
	}
	for _, d := range s.entries() {
		for _, e := range s.effectsScanned(d.Node).all() {
			if e.Kind != ScalarWrite && e.Kind != DMAWrite {
				continue
			}
			for _, t := range targets {
				if e.Origin().SameRegion(t.value()) {
					return true
				}
			}
		}
	}
	return false
}

// Precedes reports whether node a, written before node b in the same
// function, can run before it: false when they are in different branches
// of one if/else, conditional expression or switch.
func Precedes(a, b *grammar.Node) bool {
	if a.Tree() != b.Tree() || a.Start >= b.Start || a.Contains(b) {
		return false
	}
	for c, p := b, b.Parent(); p != nil; c, p = p, p.Parent() {
		if !p.Contains(a) {
			continue
		}
		switch p.Kind() {
		case "if_statement":
			if c.Field() == "alternative" {
				if cons := p.ChildByField("consequence"); cons != nil && cons.Contains(a) {
					return false
				}
			}
		case "else_clause":
			// tree-sitter wraps the alternative: the consequence is the
			// if statement's.
		case "conditional_expression":
			if c.Field() == "alternative" {
				if cons := p.ChildByField("consequence"); cons != nil && cons.Contains(a) {
					return false
				}
			}
		case "case_statement":
			return true
		case "switch_statement":
			return false
		}
		return p.Kind() != "else_clause" || precedesElse(p, a)
	}
	return true
}

// precedesElse handles `if (...) {a} else {b}` as tree-sitter shapes it:
// the else_clause is the if statement's alternative.
func precedesElse(elseClause, a *grammar.Node) bool {
	ifs := elseClause.Parent()
	if ifs == nil || ifs.Kind() != "if_statement" {
		return true
	}
	if cons := ifs.ChildByField("consequence"); cons != nil && cons.Contains(a) {
		return false
	}
	return true
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// OriginOf returns the memory the pointer (or integer address) expression
// e points into.
func (s *Summaries) OriginOf(e *grammar.Node) Origin {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.originOf(e)
}

// dmaReaders are the calls whose second argument is a GM source the call
// reads by DMA into an on-chip buffer.
var dmaReaders = map[string]bool{"DataCopy": true, "DataCopyPad": true, "TLOAD": true, "copy_gm_to_ubuf": true,
	"copy_gm_to_cbuf": true}

// DMARead returns the memory a DMA read at call reads (`DataCopy(ub,
// g[i], n)`, `copy_gm_to_ubuf(ub, p, ...)`): the source, when it is GM
// memory the unit knows. ok is false for any other call.
func (s *Summaries) DMARead(call *grammar.Node) (Origin, bool) {
	c, ok := AsCall(call)
	if !ok || !dmaReaders[c.Name] || c.Receiver != nil || len(c.Args) < 2 {
		return Origin{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.originOf(c.Args[1])
	if !o.Known() {
		o = s.tensorViewOrigin(c.Args[1])
	}
	return o, o.Known()
}

// Index returns the index of fn's effects (Effects). The indexes of the
// last functions asked about are kept (up to indexesKept): the rules ask
// about one function after another, and an index per function of a unit
// of thousands, kept for its life, was most of what its summaries held.
func (s *Summaries) Index(fn *grammar.Node) *EffectIndex {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ix, ok := s.indexes[fn]; ok {
		return ix
	}
	effects := s.effectsOf(fn)
	ix := newEffectIndex(effects, s.intern)
	if s.effectsKept(fn) {
		// Not a miss under the depth limit, whose list is not kept
		// either.
		if len(s.indexes) == indexesKept {
			clear(s.indexes)
		}
		s.indexes[fn] = ix
	}
	return ix
}

const indexesKept = 32

// paramsOf is Params(fn), memoized.
func (s *Summaries) paramsOf(fn *grammar.Node) []Param {
	ps, ok := s.params[fn]
	if !ok {
		ps = Params(fn)
		s.params[fn] = ps
	}
	return ps
}

// EntryCoherence reports whether every caller of fn made memory o (in fn's
// terms) coherent before calling it. missing lists the calls whose caller
// did not, when others did; ok is false when fn has no caller in the unit.
func (s *Summaries) EntryCoherence(fn *grammar.Node, o Origin) (ok bool, missing []CallSite) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entryCoherence(fn, o)
}

// EntryWaitMissing returns a cross-core wait some caller of fn (or its
// callers) performs before a call after which memory o is not coherent,
// or nil: a read is stale only where the caller that waits is one that
// skips the invalidation (a fused kernel that waits and invalidates, next
// to an entry that neither waits nor invalidates, leaves it coherent).
func (s *Summaries) EntryWaitMissing(fn *grammar.Node, o Origin) *Effect {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, es := range s.entrySites(fn) {
		if es.wait == nil {
			continue
		}
		covered := false
		for _, inv := range es.coherent {
			if inv.Covers(o) {
				covered = true
			}
		}
		if !covered {
			return es.wait
		}
	}
	return nil
}

// WrittenInTask reports whether some code of the task writes memory o (in
// fn's terms) by a scalar store or DMA.
func (s *Summaries) WrittenInTask(fn *grammar.Node, o Origin) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writtenInTask(fn, o)
}

// span is a stretch [start, end) of a file.
type span struct{ start, end uint32 }

// CallersWriteBack reports whether every call of fn in the unit is
// followed, in its caller (or, recursively, the caller's callers), by a
// write-back of memory o (in fn's terms) and then, when dsb is set, a dsb:
// fn is a building block whose callers publish what it stores.
func (s *Summaries) CallersWriteBack(fn *grammar.Node, o Origin, dsb bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.callersWriteBack(fn, o, dsb, 0)
}

func (s *Summaries) callersWriteBack(fn *grammar.Node, o Origin, dsb bool, depth int) bool {
	if depth > maxExpand || !o.Known() {
		return false
	}
	k, m := fnOrigin{fn, s.intern(o)}, &s.wroteBack[0]
	if !dsb {
		m = &s.wroteBack[1]
	}
	if bits := (*m)[k]; bits&(1<<(2*depth)) != 0 {
		return bits&(2<<(2*depth)) != 0
	}
	if *m == nil {
		*m = map[fnOrigin]uint32{}
	}
	v := s.computeCallersWriteBack(fn, o, dsb, depth)
	bits := (*m)[k] | 1<<(2*depth)
	if v {
		bits |= 2 << (2 * depth)
	}
	(*m)[k] = bits
	return v
}

func (s *Summaries) computeCallersWriteBack(fn *grammar.Node, o Origin, dsb bool, depth int) bool {
	sites := s.callSitesOf(fn)
	if len(sites) == 0 || s.spend(len(sites)) {
		return false
	}
	for _, cs := range sites {
		c, _ := AsCall(cs.Call)
		ao := s.substitute(o, c, cs.Call)
		if !ao.Known() {
			return false
		}
		if !s.writtenBackAfter(cs.Caller.Node, cs.Call, ao, dsb) && !s.callersWriteBack(cs.Caller.Node, ao, dsb, depth+1) {
			return false
		}
	}
	return true
}

// writtenBackAfter reports whether fn, after node at, writes memory o back
// and then (when dsb is set) issues a dsb.
func (s *Summaries) writtenBackAfter(fn, at *grammar.Node, o Origin, dsb bool) bool {
	wb := false
	for _, e := range s.effectsScanned(fn).all() {
		if e.At.Tree() != at.Tree() || e.At.Start < at.End {
			continue
		}
		switch {
		case !wb && e.Kind == WriteBack && e.Covers(o):
			if !dsb {
				return true
			}
			wb = true
		case wb && e.Kind == Dsb:
			return true
		}
	}
	return false
}
