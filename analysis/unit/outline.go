package unit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A fact that reads of each file only its outline (its preprocessor
// directives and #includes, not where they stand nor the code between
// them) is the same after an edit inside a function body. Such a fact's
// key has Rekey: the store keeps its latest value per unit outline, and a
// unit made again after an edit that left every outline as it was makes
// its value from that one (re-keyed to the new parses) instead of
// computing it afresh.

// outlineKey is a file's outline, hashed: the text of each directive in
// order, each #include directive with the include it is read as, then
// the file's includes.
var outlineKey = &FileKey[[sha256.Size]byte]{
	Name: "unit.outline",
	Compute: func(_ context.Context, f *grammar.File) [sha256.Size]byte {
		h := sha256.New()
		incs := map[int]grammar.Include{}
		for _, inc := range f.Includes {
			incs[inc.Line] = inc
		}
		include := func(inc grammar.Include) {
			delim := "\"\x00"
			if inc.System {
				delim = "<\x00"
			}
			h.Write([]byte(delim + inc.Path + "\x00"))
		}
		if f.Guards != nil {
			for _, d := range f.Guards.Directives {
				h.Write(f.Src[d.Start:d.End])
				h.Write([]byte{0})
				if inc, ok := incs[d.Line]; ok && d.Kind == "include" {
					include(inc)
				}
			}
		}
		h.Write([]byte{1})
		for _, inc := range f.Includes {
			include(inc)
		}
		var out [sha256.Size]byte
		h.Sum(out[:0])
		return out
	},
}

// outlineID names u's inputs as Key does, its files by their paths and
// outlines, hashed, in place of their parses (not numbered by the store:
// an edit that changes an outline would leave a number kept forever).
func (u *Unit) outlineID() string {
	h := sha256.New()
	for _, f := range u.Files {
		o := FileFact(u, f, outlineKey)
		h.Write([]byte(f.Path + "\x00"))
		h.Write(o[:])
	}
	b := make([]byte, 0, len(u.Entry)+2*sha256.Size+16)
	b = append(append(b, "outline|"...), u.Entry...)
	b = strconv.AppendInt(append(b, '|'), int64(u.Kind), 10)
	b = hex.AppendEncode(append(b, '|'), h.Sum(nil))
	s := u.store
	s.mu.Lock()
	for _, st := range u.Stubs {
		b = strconv.AppendUint(append(b, '|', 's'), s.idLocked(st), 10)
	}
	s.mu.Unlock()
	return string(b)
}

// outlined is the value of a fact by outline, with the files of the unit
// it was made for.
type outlined struct {
	v     any
	files []*grammar.File
}

// rekeyed is k's value for u: re-keyed from the latest value of a unit
// with u's outlines when the store holds one, else computed. Either way
// it becomes the latest.
func rekeyed[T any](ctx context.Context, u *Unit, k *UnitKey[T]) T {
	s := u.store
	pseudo, _, _ := strings.Cut(u.Key, "|")
	id := factID{key: k, unit: pseudo + "|" + u.outlineID()}
	var v T
	if c := s.cell(id); c != nil {
		prev := c.v.(outlined)
		v = k.Rekey(ctx, u, prev.v.(T), prev.files)
	} else {
		v = k.Compute(ctx, u)
	}
	if ctx.Err() == nil {
		done := make(chan struct{})
		close(done)
		s.mu.Lock()
		s.facts[id] = &factCell{done: done, v: outlined{v, u.Files}, ok: true, name: k.Name, pins: u.Files, stubs: u.Stubs}
		s.mu.Unlock()
	}
	return v
}
