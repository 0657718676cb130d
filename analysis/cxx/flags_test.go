package cxx

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func parse(t testing.TB, path, src string) *grammar.File {
	t.Helper()
	f, err := grammar.ParseFile(context.Background(), nil, path, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const flagsHeader = `#pragma once
#define HDR_FLAG 12 // the header's id
`

const flagsSrc = `#include "flags.h"
constexpr uint16_t kReady = 13;
enum Ev { EV_A, EV_B = 9, EV_C, EV_D };
constexpr int kCfg = 0x1 | (0 << 4) | (3 << 8);
void f(int c) {
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kReady);
  CrossCoreWaitFlag(kReady);
  AscendC::CrossCoreWaitFlag<1, PIPE_S>(EV_C);
  NotifyEvent<PIPE_FIX>(HDR_FLAG);
  AscendC::WaitEvent(4);
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (2 << 4) | (EV_D << 8));
  ffts_cross_core_sync(PIPE_MTE3, kCfg);
  ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x02, 7));
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (16 << 8));
  wait_flag_dev(c ? 5 : 6);
  CrossCoreSetFlag<0, PIPE_MTE3>(n);
  obj.WaitEvent(3);
  Other::WaitEvent(3);
  CrossCoreSetFlag<mode, PIPE_MTE3>(2);
}
`

func TestFlagCalls(t *testing.T) {
	h := parse(t, "flags.h", flagsHeader)
	f := parse(t, "k.cpp", flagsSrc)
	r := NewResolver(h, f)
	got := FileFlagCalls(nil, f, r)
	type row struct {
		Text    string
		Kind    FlagKind
		Mode    string
		Flags   []int64
		ID      string
		InCfg   bool
		Raw     bool
		Default bool
	}
	var rows []row
	for _, fc := range got {
		mode := "?"
		if fc.ModeKnown {
			mode = fmt.Sprint(fc.Mode)
		}
		id := ""
		if fc.IDNode != nil {
			id = fc.IDNode.Text()
		}
		rows = append(rows, row{fc.Call().Qualified, fc.Kind, mode, fc.Flags, id, fc.IDInCfg, fc.Raw, fc.ModeDefaulted})
	}
	want := []row{
		{"AscendC::CrossCoreSetFlag", FlagSet, "2", []int64{13}, "kReady", false, false, false},
		{"CrossCoreWaitFlag", FlagWait, "0", []int64{13}, "kReady", false, false, true},
		{"AscendC::CrossCoreWaitFlag", FlagWait, "1", []int64{10}, "EV_C", false, false, false},
		{"NotifyEvent", FlagSet, "2", []int64{12}, "HDR_FLAG", false, false, false},
		{"AscendC::WaitEvent", FlagWait, "2", []int64{4}, "4", false, false, false},
		{"ffts_cross_core_sync", FlagSet, "2", []int64{11}, "EV_D", false, true, false},
		{"ffts_cross_core_sync", FlagSet, "0", []int64{3}, "kCfg", true, true, false},
		{"ffts_cross_core_sync", FlagSet, "2", []int64{7}, "7", false, true, false},
		{"ffts_cross_core_sync", FlagSet, "0", []int64{16}, "16", false, true, false},
		{"wait_flag_dev", FlagWait, "?", []int64{5, 6}, "c ? 5 : 6", false, true, false},
		{"CrossCoreSetFlag", FlagSet, "0", nil, "n", false, false, false},
		{"CrossCoreSetFlag", FlagSet, "?", []int64{2}, "2", false, false, false},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("flag calls:\n got %+v\nwant %+v", rows, want)
	}
}

func TestHardwareSyncAll(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"void f() { AscendC::SyncAll<false>(); }", true},
		{"void f() { SyncAll(); }", true},
		{"void f() { AscendC::SyncAll<>(); }", true},
		{"void f() { AscendC::SyncAll(gm, ub, n); }", false},
		{"void f() { pto::SyncAll(); }", false},
		{"void f() { obj.SyncAll(); }", false},
		{"void f() {\n#ifdef __CPU_SIM\n  AscendC::SyncAll();\n#endif\n}", false},
		{"void f() {\n#ifdef __DAV_C220_VEC__\n  AscendC::SyncAll();\n#endif\n}", true},
	}
	for _, c := range cases {
		f := parse(t, "k.cpp", c.src)
		got, site := UsesHardwareSyncAll(nil, parse(t, "other.cpp", "int x;"), f)
		if got != c.want {
			t.Errorf("%q: UsesHardwareSyncAll = %v, want %v", c.src, got, c.want)
		}
		if got && (site.File != f || site.Node == nil || site.Node.Kind() != "call_expression") {
			t.Errorf("%q: bad site %+v", c.src, site)
		}
	}
}

func TestHardwareBarriers(t *testing.T) {
	src := `constexpr bool kAIV = false;
void f() {
  AscendC::SyncAll<kAIV>();
  AscendC::SyncAll();
  AscendC::SyncAll(gm, ub, n);
  CrossCoreSetFlag<0, PIPE_MTE3>(3);
  CrossCoreWaitFlag(3);
  CrossCoreSetFlag<2, PIPE_MTE3>(4);
  CrossCoreWaitFlag(4);
  CrossCoreWaitFlag<0>(5);
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (6 << 8));
  wait_flag_dev(6);
  wait_flag_dev(7);
#ifdef __CPU_SIM
  CrossCoreSetFlag<0, PIPE_MTE3>(8);
#endif
  wait_flag_dev(8);
}
`
	f := parse(t, "k.cpp", src)
	r := NewResolver(f)
	var got []string
	for _, b := range HardwareBarriers(nil, f, r) {
		s := fmt.Sprintf("%d %s", b.Kind, b.Node.Text())
		if b.Kind == BarrierSyncAll {
			s += fmt.Sprintf(" aivOnly=%v/%v", b.AIVOnly, b.AIVOnlyKnown)
		}
		got = append(got, s)
	}
	want := []string{
		"1 AscendC::SyncAll<kAIV>() aivOnly=false/true",
		"1 AscendC::SyncAll() aivOnly=true/true",
		"2 CrossCoreSetFlag<0, PIPE_MTE3>(3)",
		"3 CrossCoreWaitFlag(3)",
		"3 CrossCoreWaitFlag<0>(5)",
		"2 ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (6 << 8))",
		"3 wait_flag_dev(6)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("barriers:\n got %q\nwant %q", got, want)
	}
}

func TestNamedConstant(t *testing.T) {
	src := `#define FLAG_M 12 /* reserved? */ // yes
constexpr int kA = 11;
enum { E0, E1 };
#if X
constexpr int kDup = 1;
#else
constexpr int kDup = 2;
#endif
void f() { g(FLAG_M, kA, E1, kDup, kA + 1, (kA), NS::kA); }
`
	f := parse(t, "k.cpp", src)
	r := NewResolver(f)
	var call *grammar.Node
	for _, n := range callNodes(f) {
		call = n
	}
	c, _ := AsCall(call)
	var got []string
	for _, a := range c.Args {
		d := NamedConstant(r, a)
		if d == nil {
			got = append(got, "-")
			continue
		}
		v, _ := r.Eval(a)
		got = append(got, fmt.Sprintf("%s=%d", d.Name, v))
	}
	want := []string{"FLAG_M=12", "kA=11", "E1=1", "-", "-", "kA=11", "kA=11"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NamedConstant: got %q, want %q", got, want)
	}
}

func TestMacroValue(t *testing.T) {
	for in, want := range map[string]string{
		"12 // c":         "12",
		" (3 + 9) ":       "(3 + 9)",
		"1 /* a */ | 2":   "1   | 2",
		"4 /* open":       "4",
		"0x10/*x*/<<4//y": "0x10 <<4",
	} {
		if got := MacroValue(in); got != want {
			t.Errorf("MacroValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzAsFlagCall(f *testing.F) {
	f.Add(flagsSrc)
	f.Add("void f(){ ffts_cross_core_sync(PIPE_MTE3, ((((1)))) | (x << 8)); }")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := grammar.ParseFile(context.Background(), nil, "k.cpp", []byte(src), nil)
		if err != nil {
			return
		}
		r := NewResolver(file)
		FileFlagCalls(nil, file, r)
		HardwareBarriers(nil, file, r)
		UsesHardwareSyncAll(nil, file)
	})
}

func TestFlagSitesWrappers(t *testing.T) {
	h := parse(t, "sync.h", `#pragma once
template <pipe_t pipe, uint8_t mode>
__aicore__ inline void FftsCrossCoreSync(uint64_t flagId) {
  uint64_t config = 1 | (mode << 4) | (flagId << 8);
  ffts_cross_core_sync(pipe, config);
}
template <uint8_t MODE = 2, pipe_t PIPE = PIPE_MTE3>
__aicore__ inline void Notify(uint16_t id) { AscendC::CrossCoreSetFlag<MODE, PIPE>(id); }
struct Flag { uint16_t id; };
__aicore__ inline void NotifyFlag(Flag &flag) { AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(flag.id); }
constexpr uint16_t id = 9;
`)
	f := parse(t, "k.cpp", `#include "sync.h"
constexpr uint64_t kDone = 6;
void k(Flag f, int n) {
  FftsCrossCoreSync<PIPE_FIX, 2>(kDone);
  Notify(4);
  Notify<0>(kDone + 1);
  NotifyFlag(f);
  Notify(n);
}
`)
	r := NewResolver(h, f)
	var got []string
	for _, s := range FlagSites(nil, []*grammar.File{h, f}, r) {
		id := ""
		if s.IDNode != nil {
			id = s.IDNode.Text()
		}
		got = append(got, fmt.Sprintf("%s %q mode=%d/%v flags=%v id=%q inner=%v", s.File.Path, s.Node.Text(), s.Mode, s.ModeKnown, s.Flags, id, s.Inner != nil))
	}
	want := []string{
		`sync.h "ffts_cross_core_sync(pipe, config)" mode=0/false flags=[] id="config" inner=false`,
		`sync.h "AscendC::CrossCoreSetFlag<MODE, PIPE>(id)" mode=0/false flags=[] id="id" inner=false`,
		`sync.h "AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(flag.id)" mode=2/true flags=[] id="flag.id" inner=false`,
		`k.cpp "FftsCrossCoreSync<PIPE_FIX, 2>(kDone)" mode=2/true flags=[6] id="kDone" inner=true`,
		`k.cpp "Notify(4)" mode=2/true flags=[4] id="4" inner=true`,
		`k.cpp "Notify<0>(kDone + 1)" mode=0/true flags=[7] id="kDone + 1" inner=true`,
		`k.cpp "Notify(n)" mode=2/true flags=[] id="n" inner=true`,
		`k.cpp "NotifyFlag(f)" mode=2/true flags=[] id="" inner=true`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func callNodes(f *grammar.File) []*grammar.Node {
	if f == nil || f.Tree == nil {
		return nil
	}
	var out []*grammar.Node
	for i := range f.Tree.Nodes {
		if f.Tree.Nodes[i].Kind() == "call_expression" {
			out = append(out, &f.Tree.Nodes[i])
		}
	}
	return out
}
