package cxx

import (
	"context"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A macro that pastes or quotes its parameters (`#define SET_FLAG(t, w, e)
// AscendC::SetFlag<AscendC::HardEvent::t##_##w>((e))`, `#define
// PIPE_BARRIER(p) AscendC::PipeBarrier<PIPE_##p>()`) has no body the tree
// can read until the pasted arguments are known. A unit reads it once per
// list of pasted arguments its code uses: the body expanded as the
// preprocessor would (ExpandMacros) with those arguments put in and the
// other parameters left as they are, parsed as a function of a macro
// shadow at the offsets of the #define, named PastedName. A use reaches
// its instance as a use of any other macro reaches its body
// (Funcs.Callees, MacroBodies.UsesIn), its other arguments standing for
// the parameters: `SET_FLAG(MTE2, V, id)` is `SetFlag<HardEvent::MTE2_V>`
// of id.

// PastingMacros is implemented by a unit that knows its macros.
type PastingMacros interface {
	// PastingMacros are, by name, the macros the unit compiles one
	// definition of that is a function-like macro whose body is
	// statements pasting or quoting parameters (Pastes).
	PastingMacros() map[string]*Macro
}

// Pastes reports whether m is read per pasted argument list: a
// function-like macro whose body is statements pasting or quoting
// parameters.
func (m *Macro) Pastes() bool {
	return m != nil && m.FuncLike && len(m.Pasted) > 0 && m.Cores != grammar.None && statementLike(m.Body)
}

// pastedMark separates a pasting macro's name from its instance's key.
const pastedMark = "__pasted_"

// PastedName is the name of the function a use of m with args (their
// texts) reaches; "" when the use lacks a pasted argument.
func PastedName(m *Macro, args []string) string {
	h := fnv.New32a()
	for _, k := range m.Pasted {
		if k >= len(args) && m.Params[k] != "__VA_ARGS__" {
			return ""
		}
		if m.Params[k] == "__VA_ARGS__" || k == len(m.Params)-1 && len(args) > len(m.Params) {
			for _, a := range args[min(k, len(args)):] {
				h.Write([]byte(a))
				h.Write([]byte{0})
			}
			continue
		}
		h.Write([]byte(args[k]))
		h.Write([]byte{0})
	}
	return m.Name + pastedMark + strconv.FormatUint(uint64(h.Sum32()), 36)
}

// ArgTexts are the texts of a call's arguments, blanks folded: the key
// of a pasted instance.
func ArgTexts(args []*grammar.Node) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Join(strings.Fields(a.Text()), " ")
	}
	return out
}

// PastedUse is one list of arguments a pasting macro is used with.
type PastedUse struct {
	Macro *Macro
	Args  []string
}

// maxPastedShadows bounds the shadows of a file's pasting macros (each
// shadow holds one instance of each): past them an instance is unread.
const maxPastedShadows = 64

// PastedShadows parses the instances of uses: one function each, named
// PastedName, whose body is the macro's expanded with def (the unit's
// definitions) for the use's pasted arguments, the other parameters left
// as they are, at the offsets of the #define's body in a shadow of its
// file.
func PastedShadows(ctx context.Context, uses []PastedUse, def func(string) *Macro) []*grammar.File {
	slices.SortStableFunc(uses, func(a, b PastedUse) int {
		if a.Macro.File != b.Macro.File {
			return strings.Compare(a.Macro.File.Path, b.Macro.File.Path)
		}
		return int(a.Macro.BodyStart) - int(b.Macro.BodyStart)
	})
	var files []*grammar.File
	sets := map[*grammar.File]*shadowSet{}
	keys := map[*grammar.File]*strings.Builder{}
	for _, u := range uses {
		m := u.Macro
		name := PastedName(m, u.Args)
		if name == "" {
			continue
		}
		args := make([]string, 0, max(len(m.Params), len(u.Args)))
		for k, p := range m.Params {
			switch {
			case !slices.Contains(m.Pasted, k):
				args = append(args, p)
			case p == "__VA_ARGS__" || k == len(m.Params)-1 && len(u.Args) > len(m.Params):
				args = append(args, u.Args[min(k, len(u.Args)):]...)
			default:
				args = append(args, u.Args[k])
			}
		}
		exp, ok := ExpandMacros(m.Name+"("+strings.Join(args, ", ")+")", def)
		if !ok || strings.Contains(exp, "#") {
			continue
		}
		set := sets[m.File]
		if set == nil {
			set, keys[m.File] = &shadowSet{}, &strings.Builder{}
			sets[m.File] = set
			files = append(files, m.File)
		}
		if set.place(m.File.Src, m.BodyStart, m.header(name), []byte(exp), maxPastedShadows) != nil {
			k := keys[m.File]
			k.WriteString(name)
			k.WriteByte(0)
			k.WriteString(exp)
			k.WriteByte(0)
		}
	}
	var out []*grammar.File
	for _, f := range files {
		// The instances of the file's macros a unit asked for last: an
		// edit elsewhere in the unit asks for the same ones again.
		cache := uses[0].Macro.instances
		for _, u := range uses {
			if u.Macro.File == f {
				cache = u.Macro.instances
				break
			}
		}
		key := keys[f].String()
		if got, ok := cache.get(key); ok {
			out = append(out, got...)
			continue
		}
		var parsed []*grammar.File
		for _, sh := range sets[f].list {
			if ctx.Err() != nil {
				return out
			}
			if sf := sh.parse(ctx, f); sf != nil {
				parsed = append(parsed, sf)
			}
		}
		if ctx.Err() == nil && cache != nil {
			cache.put(key, parsed)
		}
		out = append(out, parsed...)
	}
	return out
}

// pastedInstances keeps the instances of a file's pasting macros parsed
// last, by what they hold (names and expanded bodies, in order).
type pastedInstances struct {
	mu    sync.Mutex
	key   string
	files []*grammar.File
}

func (c *pastedInstances) get(key string) ([]*grammar.File, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.files, c.key == key && c.files != nil
}

func (c *pastedInstances) put(key string, files []*grammar.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.files = key, files
}

// pastedBase is the pasting macro an instance's name is of ("" for
// another name).
func pastedBase(name string) string {
	base, _, ok := strings.Cut(name, pastedMark)
	if !ok {
		return ""
	}
	return base
}
