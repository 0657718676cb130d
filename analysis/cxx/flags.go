package cxx

import (
	"bytes"
	"slices"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// FlagKind says whether a cross-core flag call sets or waits.
type FlagKind int

const (
	FlagSet FlagKind = iota + 1
	FlagWait
)

func (k FlagKind) String() string {
	if k == FlagSet {
		return "set"
	}
	return "wait"
}

// FlagCall is one cross-core (FFTS) flag operation, decoded:
//
//	CrossCoreSetFlag<mode, pipe>(id)        set, mode from the template
//	CrossCoreWaitFlag<mode, pipe>(id)       wait, mode defaults to 0
//	NotifyEvent<pipe>(id)                   set, mode 2
//	WaitEvent(id)                           wait, mode 2 (NotifyEvent's partner)
//	ffts_cross_core_sync(pipe, cfg)         set, cfg = 0x1 | mode<<4 | flag<<8
//	wait_flag_dev(id)                       wait, mode unknown (Raw)
//
// A cfg may also be written `GetffstMsg(mode, id)`.
type FlagCall struct {
	Node *grammar.Node // the call_expression
	// IDNode is the expression that holds the flag id alone (the call
	// argument, the `x` of `x << 8` in a raw cfg, GetffstMsg's second
	// argument). When a raw cfg cannot be taken apart it is the whole cfg
	// and IDInCfg is set: rewriting the id then means rewriting the cfg.
	IDNode *grammar.Node
	// Cfg is a raw set's config expression (nil otherwise).
	Cfg *grammar.Node
	// Flags are the possible flag ids (one for a constant, several for a
	// `c ? a : b` the resolver cannot decide); empty when unknown.
	Flags []int64
	// Mode is the FFTS mode (0 all cubes or all vectors, 1 the two vectors
	// of a cluster, 2 a cube and its vectors); valid when ModeKnown.
	Mode int64
	Kind FlagKind
	// The flags last: a unit keeps its files' flag calls (72 bytes each).
	ModeKnown bool
	// ModeDefaulted is set for a wait whose mode was not written (the
	// template default 0): the hardware wait does not encode a mode.
	ModeDefaulted bool
	IDInCfg       bool
	// Raw is true for ffts_cross_core_sync and wait_flag_dev.
	Raw bool
}

// Call is the call taken apart, decoded on demand: a unit keeps every
// flag call of its files, and a decoded call is larger than the rest.
func (fc *FlagCall) Call() Call {
	c, _ := AsCall(fc.Node)
	return c
}

// HasFlag reports whether id is one of the call's possible flag ids.
func (fc *FlagCall) HasFlag(id int64) bool { return slices.Contains(fc.Flags, id) }

// AsFlagCall decodes a cross-core flag call; ok is false for any other node.
func AsFlagCall(n *grammar.Node, r *Resolver) (FlagCall, bool) {
	call, ok := AsCall(n)
	if !ok {
		return FlagCall{}, false
	}
	return flagCallOf(call, r)
}

// flagCallOf decodes a flag call taken apart (a forwarded one's callee
// and arguments are the expansion's: Funcs.Forward); Node is the call's.
func flagCallOf(call Call, r *Resolver) (FlagCall, bool) {
	n := call.Node
	if call.Receiver != nil {
		return FlagCall{}, false
	}
	fc := FlagCall{Node: n}
	switch call.Name {
	case "CrossCoreSetFlag", "CrossCoreWaitFlag", "NotifyEvent", "WaitEvent", "ffts_cross_core_sync", "wait_flag_dev":
		// A flag id held in a local initialised once is that constant.
		r = BindLocals(n, r)
	}
	switch call.Name {
	case "CrossCoreSetFlag", "CrossCoreWaitFlag", "NotifyEvent", "WaitEvent":
		if !call.InNamespace("AscendC") || len(call.Args) != 1 {
			return FlagCall{}, false
		}
		fc.IDNode = call.Args[0]
		switch call.Name {
		case "CrossCoreSetFlag":
			fc.Kind = FlagSet
			if len(call.TArgs) > 0 {
				fc.Mode, fc.ModeKnown = evalOne(r, call.TArgs[0])
			}
		case "CrossCoreWaitFlag":
			fc.Kind = FlagWait
			if len(call.TArgs) > 0 {
				fc.Mode, fc.ModeKnown = evalOne(r, call.TArgs[0])
			} else {
				fc.Mode, fc.ModeKnown, fc.ModeDefaulted = 0, true, true
			}
		case "NotifyEvent":
			fc.Kind, fc.Mode, fc.ModeKnown = FlagSet, 2, true
		case "WaitEvent":
			fc.Kind, fc.Mode, fc.ModeKnown = FlagWait, 2, true
		}
		fc.Flags = evalAll(r, fc.IDNode)
	case "ffts_cross_core_sync":
		if !call.InNamespace() || len(call.Args) != 2 {
			return FlagCall{}, false
		}
		fc.Kind, fc.Raw, fc.Cfg = FlagSet, true, call.Args[1]
		decodeCfg(&fc, r)
	case "wait_flag_dev":
		if !call.InNamespace() || len(call.Args) != 1 {
			return FlagCall{}, false
		}
		fc.Kind, fc.Raw, fc.IDNode = FlagWait, true, call.Args[0]
		fc.Flags = evalAll(r, fc.IDNode)
	default:
		return FlagCall{}, false
	}
	return fc, true
}

func evalOne(r *Resolver, n *grammar.Node) (int64, bool) {
	if r == nil {
		return 0, false
	}
	return r.Eval(n)
}

// readConfigs adds the flag ids of a raw set's possible config values
// (bits 8-11) and its mode (bits 4-5) when they all agree on it.
func (fc *FlagCall) readConfigs(cfgs []int64) {
	var modes []int64
	for _, v := range cfgs {
		modes = appendUnique(modes, (v>>4)&3)
		fc.Flags = appendUnique(fc.Flags, (v>>8)&0xF)
	}
	if len(modes) == 1 {
		fc.Mode, fc.ModeKnown = modes[0], true
	}
}

// decodeCfg fills the mode and flag ids of a raw set from its config.
func decodeCfg(fc *FlagCall, r *Resolver) {
	cfg := Unparen(fc.Cfg)
	// GetffstMsg(mode, id) builds the same config.
	if c, ok := AsCall(cfg); ok && c.Name == "GetffstMsg" && len(c.Args) == 2 {
		fc.Mode, fc.ModeKnown = evalOne(r, c.Args[0])
		fc.IDNode = c.Args[1]
		fc.Flags = evalAll(r, c.Args[1])
		return
	}
	fc.readConfigs(evalAll(r, cfg))
	// Find the `x << 8` term so a fix can rewrite the id alone; an id that
	// overflows the 4-bit field is reported as written.
	if x := ShiftedTerm(cfg, 8); x != nil {
		fc.IDNode = x
		if ids := evalAll(r, x); len(ids) > 0 {
			for _, id := range ids {
				if id > 0xF || id < 0 {
					fc.Flags = ids
					break
				}
			}
		}
		return
	}
	fc.IDNode, fc.IDInCfg = fc.Cfg, true
}

// shiftedTerm finds x in an or/plus chain containing `x << by`.
func ShiftedTerm(n *grammar.Node, by int64) *grammar.Node {
	n = Unparen(n)
	if n == nil || n.Kind() != "binary_expression" {
		return nil
	}
	op := n.ChildByField("operator")
	if op == nil {
		return nil
	}
	switch op.Text() {
	case "<<":
		if v, ok := ParseInt(Unparen(n.ChildByField("right")).Text()); ok && v == by {
			return n.ChildByField("left")
		}
	case "|", "+":
		if x := ShiftedTerm(n.ChildByField("left"), by); x != nil {
			return x
		}
		return ShiftedTerm(n.ChildByField("right"), by)
	}
	return nil
}

// FlagCalls decodes the cross-core flag calls among nodes (typically a
// file's call_expression nodes from the shared kind index).
func FlagCalls(nodes []*grammar.Node, r *Resolver) []FlagCall {
	var out []FlagCall
	for _, n := range nodes {
		if fc, ok := AsFlagCall(n, r); ok {
			out = append(out, fc)
		}
	}
	// At its size: a unit keeps its files' flag calls, about 200 bytes
	// each, and append leaves up to as much room again.
	return slices.Clip(append([]FlagCall(nil), out...))
}

// FileFlagCalls decodes every flag call of a file; with facts that index
// the functions (a unit's), a raw set's config built by a helper is
// decoded too (cfgHelper).
func FileFlagCalls(ff FileFacts, f *grammar.File, r *Resolver) []FlagCall {
	out := FlagCalls(factsOr(ff).Calls(f).Named(flagCallNames...), r)
	if fi, ok := ff.(FuncIndexer); ok {
		for i := range out {
			if fc := &out[i]; fc.Raw && fc.Kind == FlagSet && len(fc.Flags) == 0 {
				cfgHelper(fc, fi.FuncIndex(), r)
			}
		}
	}
	return out
}

// FuncIndexer is facts that index the functions they hold (a unit).
type FuncIndexer interface{ FuncIndex() *Funcs }

// cfgHelper decodes a raw set whose config is a call of a helper that
// returns one expression of its parameters (`GetSyncConf(mode, id)`
// returning `1 | (mode << 4) | (id << 8)`): the expression with the
// parameters bound to the call's arguments, the id's argument as IDNode.
func cfgHelper(fc *FlagCall, fs *Funcs, r *Resolver) {
	c, ok := AsCall(Unparen(fc.Cfg))
	if !ok || c.Receiver != nil || r == nil {
		return
	}
	defs := fs.Lookup(c.Name)
	if len(defs) != 1 {
		return
	}
	body := defs[0].Body()
	if body == nil {
		return
	}
	var stmts []*grammar.Node
	for _, n := range body.NamedChildren() {
		if n.Kind() != "comment" {
			stmts = append(stmts, n)
		}
	}
	if len(stmts) != 1 || stmts[0].Kind() != "return_statement" || len(stmts[0].NamedChildren()) != 1 {
		return
	}
	expr := stmts[0].NamedChildren()[0]
	params := Params(defs[0].Node)
	if len(params) != len(c.Args) {
		return
	}
	ar := BindLocals(fc.Node, r)
	vals := map[string][]int64{}
	var idArg *grammar.Node
	x := ShiftedTerm(expr, 8)
	for i, p := range params {
		v := ar.EvalAll(c.Args[i])
		if len(v) == 0 {
			return
		}
		vals[p.Name] = v
		if x != nil && Unparen(x).Kind() == "identifier" && Unparen(x).Text() == p.Name {
			idArg = c.Args[i]
		}
	}
	fc.readConfigs(r.Bind(vals).EvalAll(expr))
	if idArg != nil {
		fc.IDNode, fc.IDInCfg = idArg, false
	}
}

// flagCallNames are the calls AsFlagCall decodes.
var flagCallNames = []string{"CrossCoreSetFlag", "CrossCoreWaitFlag", "NotifyEvent", "WaitEvent", "ffts_cross_core_sync", "wait_flag_dev"}

// barrierCallNames are the calls HardwareBarriers looks at.
var barrierCallNames = append([]string{"SyncAll"}, flagCallNames...)

// Site is a node in a particular file.
type Site struct {
	File *grammar.File
	Node *grammar.Node
}

// IsHardwareSyncAll reports whether a call is AscendC's hardware barrier:
// `SyncAll()` or `SyncAll<...>()` with no arguments. The three-argument
// software form `SyncAll(gm, ub, cores)` is not.
func IsHardwareSyncAll(c Call) bool {
	return c.Name == "SyncAll" && c.Receiver == nil && c.InNamespace("AscendC") && len(c.Args) == 0
}

// IsSoftwareSyncAll reports whether c is AscendC's software barrier over
// every core of the launch: `SyncAll(gmWorkspace, ubWorkspace)`, or with a
// core count of 0 (all cores). A count of some cores leaves the others
// out of it.
func IsSoftwareSyncAll(c Call, r *Resolver) bool {
	if c.Name != "SyncAll" || c.Receiver != nil || !c.InNamespace("AscendC") || len(c.Args) < 2 || len(c.Args) > 3 {
		return false
	}
	if len(c.Args) == 3 {
		v, ok := evalOne(r, c.Args[2])
		return ok && v == 0
	}
	return true
}

// SyncAllAIVOnly reports whether a hardware SyncAll call is the vector-only
// barrier (`isAIVOnly`, the default): known is false when its template
// argument is not a constant.
func SyncAllAIVOnly(c Call, r *Resolver) (aivOnly, known bool) {
	switch len(c.TArgs) {
	case 0:
		return true, true
	case 1:
		v, ok := evalOne(r, c.TArgs[0])
		return ok && v != 0, ok
	}
	return false, false
}

// BarrierKind says what makes a site a hardware barrier.
type BarrierKind int

const (
	BarrierSyncAll  BarrierKind = iota + 1 // SyncAll() / SyncAll<...>()
	BarrierFlagSet                         // a mode-0 flag set
	BarrierFlagWait                        // a wait on a mode-0 flag
	// BarrierSoftware: a barrier cores build in GM (AscendC's
	// `SyncAll(gmWorkspace, ubWorkspace)`): no FFTS flag, but every core
	// must arrive all the same. HardwareBarriers never returns it.
	BarrierSoftware
)

// Barrier is a hardware barrier site: a point every core of the launch (of
// one type, for mode 0) must reach.
type Barrier struct {
	Node *grammar.Node
	Kind BarrierKind
	// For SyncAll: whether it is the vector-only form, when known.
	AIVOnly, AIVOnlyKnown bool
	// For flags: the decoded call.
	Flag *FlagCall
}

// HardwareBarriers lists a file's hardware barrier sites in source order:
// every hardware SyncAll, every flag set whose mode is known to be 0, and
// every wait that pairs with a mode-0 set of the same file (same possible
// flag id) or that spells mode 0 explicitly. A wait whose mode is only the
// template default is not a barrier on its own: `CrossCoreWaitFlag(id)` is
// also how a mode-2 handshake waits. Code only the simulator compiles is
// skipped.
func HardwareBarriers(ff FileFacts, f *grammar.File, r *Resolver) []Barrier {
	nodes := factsOr(ff).Calls(f).Named(barrierCallNames...)
	calls := make([]Call, 0, len(nodes))
	for _, n := range nodes {
		if c, ok := AsCall(n); ok && f.CoresOf(n) != grammar.None {
			calls = append(calls, c)
		}
	}
	// A forwarding macro's use is the call it expands to.
	if fw, ok := ff.(ForwardedCalls); ok {
		for _, c := range fw.ForwardedUses(f, barrierCallNames...) {
			if f.CoresOf(c.Node) != grammar.None {
				calls = append(calls, c)
			}
		}
		slices.SortStableFunc(calls, func(a, b Call) int { return int(a.Node.Start) - int(b.Node.Start) })
	}
	flags := make([]*FlagCall, len(calls))
	mode0 := map[int64]bool{}
	for i, c := range calls {
		if fc, ok := flagCallOf(c, r); ok {
			flags[i] = &fc
			if fc.Kind == FlagSet && fc.ModeKnown && fc.Mode == 0 {
				for _, id := range fc.Flags {
					mode0[id] = true
				}
			}
		}
	}
	var out []Barrier
	for i, c := range calls {
		n := c.Node
		if fc := flags[i]; fc != nil {
			switch {
			case fc.Kind == FlagSet && fc.ModeKnown && fc.Mode == 0:
				out = append(out, Barrier{Node: n, Kind: BarrierFlagSet, Flag: fc})
			case fc.Kind == FlagWait && fc.ModeKnown && fc.Mode == 0 && !fc.ModeDefaulted:
				out = append(out, Barrier{Node: n, Kind: BarrierFlagWait, Flag: fc})
			case fc.Kind == FlagWait && (!fc.ModeKnown || fc.Mode == 0) && anyIn(fc.Flags, mode0):
				out = append(out, Barrier{Node: n, Kind: BarrierFlagWait, Flag: fc})
			}
			continue
		}
		if !IsHardwareSyncAll(c) {
			continue
		}
		b := Barrier{Node: n, Kind: BarrierSyncAll}
		b.AIVOnly, b.AIVOnlyKnown = SyncAllAIVOnly(c, r)
		out = append(out, b)
	}
	return out
}

func anyIn(ids []int64, set map[int64]bool) bool {
	for _, id := range ids {
		if set[id] {
			return true
		}
	}
	return false
}

// ReservedBySyncAll reports whether a flag id is one the hardware SyncAll
// uses (11 cube, 12 vector, 13 cube->vector, 14 vector-only).
func ReservedBySyncAll(id int64) bool { return id >= 11 && id <= 14 }

// MaxFlagID is the highest FFTS flag id (4-bit field).
const MaxFlagID = 15

// IntraBlockMode is the cross-core mode only Ascend 950 (A5, dav-c310)
// has: a cube and one of its two vector cores signal each other alone
// (set_intra_block / wait_intra_block). On A2/A3 the FFTS config keeps two
// mode bits (`(mode & 3) << 4` in GetffstMsg), so mode 4 is sent as mode 0.
const IntraBlockMode = 4

// IntraBlockSecondVector is what a mode-4 id adds when the cube signals or
// waits for the second vector core: the cube's ids 16–26 pair with that
// core's 0–10 (the CrossCoreSetFlag(ISASI) reference for Ascend 950).
const IntraBlockSecondVector = 16

// FlagIDFits reports whether id is a flag id of the chip for mode: FFTS
// ids 0–15 (modes 0–2, both chips), and on A5 mode 4 the documented 0–10
// and 16–26 with the ids between them (11–15, used by the SyncAll).
func FlagIDFits(arch grammar.Arch, mode int64, id int64) bool {
	if arch == grammar.ArchA5 && mode == IntraBlockMode {
		return id >= 0 && id <= 10+IntraBlockSecondVector
	}
	return id >= 0 && id <= MaxFlagID
}

// ReservedBySyncAllOn reports whether the hardware SyncAll of the chip
// uses id in mode's flag space: FFTS ids 11–14 on both chips, and on A5
// the intra-block ids 12, 13 and their second-vector twins 28, 29 (the
// mixed SyncAll's vector→cube and cube→vector handshakes).
func ReservedBySyncAllOn(arch grammar.Arch, mode int64, id int64) bool {
	if arch == grammar.ArchA5 && mode == IntraBlockMode {
		switch id {
		case 12, 13, 12 + IntraBlockSecondVector, 13 + IntraBlockSecondVector:
			return true
		}
		return false
	}
	return ReservedBySyncAll(id)
}

// NamedConstant returns the single definition behind an id expression that
// is just a name (`kFlag`, `Flags::kReady`, `FLAG_X`), so a fix can edit the
// definition rather than the use. Only a name with exactly one definition
// qualifies.
func NamedConstant(r *Resolver, n *grammar.Node) *Def {
	n = Unparen(n)
	if n == nil || r == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier", "qualified_identifier":
	default:
		return nil
	}
	// Several definitions (scopes, #if branches) would need several edits.
	defs := r.Lookup(n.Text())
	if len(defs) != 1 || len(r.fork().evalDef(defs[0])) != 1 {
		return nil
	}
	return defs[0]
}

func evalAll(r *Resolver, n *grammar.Node) []int64 {
	if r == nil {
		return nil
	}
	return r.EvalAll(n)
}

// FlagSite is a decoded flag call in a file. For a call of a wrapper (a
// function whose flag call takes its mode or id from the wrapper's template
// parameters or arguments, like `FftsCrossCoreSync<PIPE_MTE3, 2>(kFlag)`),
// Node and Call are the wrapper's call site, the mode and ids are decoded
// with the site's values bound, IDNode is the site's argument that carries
// the id (nil when the id is not one argument), and Inner is the flag call
// inside the wrapper.
type FlagSite struct {
	File *grammar.File
	FlagCall
	Inner     *grammar.Node
	InnerFile *grammar.File
}

// Cores returns the cores that compile the site (and, for a wrapper call,
// the wrapper's flag call).
func (s *FlagSite) Cores() grammar.Cores {
	c := s.File.CoresOf(s.Node)
	if s.Inner != nil {
		c &= s.InnerFile.CoresOf(s.Inner)
	}
	return c
}

// FlagSites decodes the flag calls of files: the direct ones, then the
// calls of wrappers (one level) whose flag call depends on the wrapper's
// parameters. r must know the constants of every file.
func FlagSites(ff FileFacts, files []*grammar.File, r *Resolver) []FlagSite {
	ff = factsOr(ff)
	var out []FlagSite
	for _, f := range files {
		for _, fc := range FileFlagCalls(ff, f, r) {
			if readsParam(fc) {
				// A parameter that shares a constant's name is not that
				// constant: the id is known only at the call sites.
				fc.Flags = nil
			}
			out = append(out, FlagSite{File: f, FlagCall: fc})
		}
		// A forwarding macro's use is the call it expands to.
		if fw, ok := ff.(ForwardedCalls); ok {
			for _, c := range fw.ForwardedUses(f, flagCallNames...) {
				if fc, ok := flagCallOf(c, r); ok {
					out = append(out, FlagSite{File: f, FlagCall: fc})
				}
			}
		}
	}
	direct := len(out)
	for i := 0; i < direct; i++ {
		s := out[i]
		if s.ModeKnown && len(s.Flags) > 0 || s.Kind == FlagWait && len(s.Flags) > 0 {
			continue
		}
		w := EnclosingFunction(s.Node)
		if w == nil || w.Kind() != "function_definition" {
			continue
		}
		name := FunctionName(w)
		tparams, params := templateParams(w), Params(w)
		cls := ClassTemplateOf(w)
		ctparams := templateParams(cls)
		if name == "" || !mentionsAny(s.Node, append(slices.Clip(tparams), ctparams...), params) {
			continue
		}
		var sites []wrapperSite
		for _, f := range files {
			for _, n := range ff.Calls(f).Named(name) {
				if c, ok := AsCall(n); ok {
					sites = append(sites, wrapperSite{f, c})
				}
			}
		}
		for _, site := range sites {
			if site.File == s.File && w.Contains(site.Call.Node) || len(site.Call.Args) > len(params) || len(site.Call.TArgs) > len(tparams) {
				continue
			}
			var classVals map[string][]int64
			if cls != nil {
				// A method of a class template: the instance the site
				// calls it on gives the class's parameters.
				args, ok := InstanceArgs(files, site.Call, cls, r)
				if !ok {
					continue
				}
				classVals = BindClassTemplate(cls, args, r)
			}
			if ws, ok := instantiate(s, w, tparams, params, site, classVals, r); ok {
				out = append(out, ws)
			}
		}
	}
	return out
}

// ClassTemplateOf returns the class template whose body defines method w
// (the class_specifier under a template_declaration), or nil.
func ClassTemplateOf(w *grammar.Node) *grammar.Node {
	cls := w.Ancestor("class_specifier", "struct_specifier")
	if cls == nil || cls.Parent() == nil || cls.Parent().Kind() != "template_declaration" {
		return nil
	}
	return cls
}

// InstanceArgs returns the template arguments of the instance of class
// template cls a call calls its method on: `Ring<12>::Set()`, an
// alias of one instance (`using R = Ring<12>; R::Set()`), or an object or
// member declared in the files as one instance (`Ring<12> ring_;` then
// `ring_.Set()`). ok is false when the site names no such instance, or
// names several.
func InstanceArgs(files []*grammar.File, call Call, cls *grammar.Node, r *Resolver) ([]*grammar.Node, bool) {
	name := cls.ChildByField("name")
	if name == nil {
		return nil, false
	}
	clsName := BaseName(name.Text())
	argsOf := func(t *grammar.Node) ([]*grammar.Node, bool) {
		if t != nil && t.Kind() == "template_type" {
			if n := t.ChildByField("name"); n != nil && BaseName(n.Text()) == clsName {
				if al := t.ChildByField("arguments"); al != nil {
					return al.NamedChildren(), true
				}
				return nil, true
			}
		}
		return nil, false
	}
	var scopeT *grammar.Node
	// The scope next to the method's name: `cv::Ready::Post` is Ready.
	for fn := call.Node.ChildByField("function"); fn != nil && fn.Kind() == "qualified_identifier"; fn = fn.ChildByField("name") {
		scopeT = fn.ChildByField("scope")
	}
	if scopeT != nil {
		if scopeT.Kind() != "template_type" {
			if ts := r.templates[scopeT.Text()]; len(ts) == 1 {
				scopeT = ts[0]
			}
		}
		return argsOf(scopeT)
	}
	recv := call.Receiver
	if recv == nil {
		return nil, false
	}
	if recv.Kind() == "field_expression" {
		recv = recv.ChildByField("field") // this->ring_
	}
	if recv == nil || recv.Kind() != "identifier" && recv.Kind() != "field_identifier" {
		return nil, false
	}
	var found []*grammar.Node
	seen := ""
	for _, f := range files {
		if !bytes.Contains(f.Src, []byte(recv.Text())) {
			continue
		}
		for _, d := range slices.Concat(f.Tree.OfKind("declaration"), f.Tree.OfKind("field_declaration")) {
			t := d.ChildByField("type")
			args, ok := argsOf(t)
			if !ok {
				if t == nil || r.templates[t.Text()] == nil || len(r.templates[t.Text()]) != 1 {
					continue
				}
				if args, ok = argsOf(r.templates[t.Text()][0]); !ok {
					continue
				}
			}
			for _, decl := range d.ChildrenByField("declarator") {
				if DeclaredName(decl) != recv.Text() {
					continue
				}
				key := ""
				for _, a := range args {
					key += a.Text() + ","
				}
				if found != nil && key != seen {
					return nil, false // instances of different arguments
				}
				found, seen = args, key
				if found == nil {
					found = []*grammar.Node{}
				}
			}
		}
	}
	return found, found != nil
}

// BindClassTemplate values class template cls's parameters from the
// arguments of an instance, the rest from their defaults.
func BindClassTemplate(cls *grammar.Node, args []*grammar.Node, r *Resolver) map[string][]int64 {
	vals := map[string][]int64{}
	for i, tp := range templateParams(cls) {
		if tp.name == "" {
			continue
		}
		switch {
		case i < len(args):
			vals[tp.name] = r.EvalAll(args[i])
		case tp.def != nil:
			vals[tp.name] = r.Bind(vals).EvalAll(tp.def)
		default:
			vals[tp.name] = nil
		}
	}
	return vals
}

// wrapperSite is a call of a flag call's wrapper.
type wrapperSite struct {
	File *grammar.File
	Call Call
}

// templateParam is a template parameter: its name and default value.
type templateParam struct {
	name string
	def  *grammar.Node
}

// IsTemplateParam reports whether name is a template parameter of fn or
// of a class enclosing it.
func IsTemplateParam(fn *grammar.Node, name string) bool {
	for p := fn; p != nil; p = p.Parent() {
		for _, tp := range templateParams(p) {
			if tp.name == name {
				return true
			}
		}
	}
	return false
}

// TemplateParam finds a template parameter of fn's own template
// declaration by name: its position and its default (nil for none); pos
// is -1 when fn declares none of that name.
func TemplateParam(fn *grammar.Node, name string) (pos int, def *grammar.Node) {
	for i, tp := range templateParams(fn) {
		if tp.name == name {
			return i, tp.def
		}
	}
	return -1, nil
}

func templateParams(fn *grammar.Node) []templateParam {
	t := fn.Parent()
	if t == nil || t.Kind() != "template_declaration" {
		return nil
	}
	pl := t.ChildByField("parameters")
	if pl == nil {
		return nil
	}
	var out []templateParam
	for _, p := range pl.NamedChildren() {
		switch p.Kind() {
		case "parameter_declaration", "optional_parameter_declaration", "type_parameter_declaration", "optional_type_parameter_declaration":
		default:
			continue
		}
		tp := templateParam{def: p.ChildByField("default_value")}
		if d := p.ChildByField("declarator"); d != nil {
			tp.name = d.Text()
		} else if n := p.ChildByField("name"); n != nil {
			tp.name = n.Text()
		}
		out = append(out, tp)
	}
	return out
}

func mentionsAny(n *grammar.Node, tparams []templateParam, params []Param) bool {
	names := map[string]bool{}
	for _, t := range tparams {
		names[t.name] = true
	}
	for _, p := range params {
		names[p.Name] = true
	}
	ds := n.Descendants()
	for i := range ds {
		if k := ds[i].Kind(); (k == "identifier" || k == "type_identifier") && names[ds[i].Text()] {
			return true
		}
	}
	return false
}

// instantiate decodes the wrapper's flag call inner at one call site: the
// wrapper's template parameters and arguments bound to the site's values,
// then its local variables initialised before the flag call.
func instantiate(inner FlagSite, w *grammar.Node, tparams []templateParam, params []Param, site wrapperSite, classVals map[string][]int64, r *Resolver) (FlagSite, bool) {
	vals := map[string][]int64{}
	for k, v := range classVals {
		vals[k] = v
	}
	for i, tp := range tparams {
		if tp.name == "" {
			continue
		}
		switch {
		case i < len(site.Call.TArgs):
			vals[tp.name] = r.EvalAll(site.Call.TArgs[i])
		case tp.def != nil:
			vals[tp.name] = r.EvalAll(tp.def)
		default:
			vals[tp.name] = nil
		}
	}
	for i, p := range params {
		if p.Name == "" {
			continue
		}
		if i < len(site.Call.Args) {
			vals[p.Name] = r.EvalAll(site.Call.Args[i])
		} else {
			vals[p.Name] = nil
		}
	}
	br := r.Bind(vals)
	locals := map[string]*grammar.Node{}
	if body := w.ChildByField("body"); body != nil {
		ds := body.Descendants()
		for i := range ds {
			d := &ds[i]
			if d.Start >= inner.Node.Start {
				break
			}
			if d.Kind() != "init_declarator" {
				continue
			}
			name, v := d.ChildByField("declarator"), d.ChildByField("value")
			if name == nil || v == nil || name.Kind() != "identifier" {
				continue
			}
			vals[name.Text()] = br.EvalAll(v)
			locals[name.Text()] = v
			br = r.Bind(vals)
		}
	}
	fc, ok := AsFlagCall(inner.Node, br)
	if !ok {
		return FlagSite{}, false
	}
	// An id read through a parameter the site does not pin (`flag.id` of a
	// flag object) stays unknown, whatever a same-named constant says.
	if fc.IDNode != nil {
		if root := idRoot(fc.IDNode); root != "" {
			if v, bound := vals[root]; bound && len(v) == 0 {
				fc.Flags = nil
			}
		}
	}
	out := FlagSite{File: site.File, FlagCall: fc, Inner: inner.Node, InnerFile: inner.File}
	out.Node, out.IDNode, out.IDInCfg = site.Call.Node, nil, false
	id, inCfg := Uncast(fc.IDNode), fc.IDInCfg
	if inCfg && id != nil && id.Kind() == "identifier" && locals[id.Text()] != nil {
		// `uint64_t config = 1 | (mode << 4) | (flagId << 8);`
		if x := ShiftedTerm(locals[id.Text()], 8); x != nil {
			id, inCfg = Unparen(x), false
		}
	}
	if id != nil && id.Kind() == "identifier" {
		for i, p := range params {
			if p.Name == id.Text() && i < len(site.Call.Args) {
				out.IDNode, out.IDInCfg = site.Call.Args[i], inCfg
			}
		}
	}
	return out, true
}

// idRoot is the variable an id expression reads: `id`, `flag.id` → flag.
func idRoot(n *grammar.Node) string {
	n = Uncast(n)
	for n != nil && n.Kind() == "field_expression" {
		n = Uncast(n.ChildByField("argument"))
	}
	if n != nil && n.Kind() == "identifier" {
		return n.Text()
	}
	return ""
}

// readsParam reports whether a flag call's id is read through a parameter
// of its enclosing function.
func readsParam(fc FlagCall) bool {
	root := ""
	if fc.IDNode != nil {
		root = idRoot(fc.IDNode)
	}
	if root == "" {
		return false
	}
	w := EnclosingFunction(fc.Node)
	if w == nil || w.Kind() != "function_definition" {
		return false
	}
	for _, p := range Params(w) {
		if p.Name == root {
			return true
		}
	}
	return false
}
