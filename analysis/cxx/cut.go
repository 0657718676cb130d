package cxx

import (
	"context"
	"sync/atomic"
)

// An analysis that gives up part of its work (a search past its own
// bound) says so through its context, so that the caller reports the file
// as not fully analysed rather than as clean.

type cutKey struct{}

// WithCut returns ctx carrying cut, called when an analysis run under it
// gives up part of its work, with what it gave up.
func WithCut(ctx context.Context, cut func(why string)) context.Context {
	return context.WithValue(ctx, cutKey{}, cut)
}

// noteCut tells ctx's caller, if it listens, that the analysis gave up.
func noteCut(ctx context.Context, why string) {
	if f, ok := ctx.Value(cutKey{}).(func(string)); ok {
		f(why)
	}
}

// A Meter counts the steps of one shared computation: a fact the store
// computes once and the rules of every file read (unit.UnitKey.Steps). Its steps are the fact's, not the asking rule's, so whether it
// finished is a property of its input, whichever rule asks first. A
// computation past its steps stops and answers what it has: its readers
// are told (unit.RunCut) and drop their findings.
type Meter struct {
	left  atomic.Int64
	limit int64
	spent atomic.Bool
}

// NewMeter returns a meter of limit steps (limit <= 0: none).
func NewMeter(limit int64) *Meter {
	m := &Meter{limit: limit}
	m.left.Store(limit)
	return m
}

// Spend takes n steps and reports whether the steps ran out (now or
// before): the computation then stops.
func (m *Meter) Spend(n int) bool {
	if m == nil || m.limit <= 0 {
		return false
	}
	if m.spent.Load() {
		return true
	}
	if m.left.Add(-int64(n)) >= 0 {
		return false
	}
	m.spent.Store(true)
	return true
}

// Spent reports whether the computation ran out of steps.
func (m *Meter) Spent() bool { return m != nil && m.spent.Load() }

// Limit is the meter's step budget.
func (m *Meter) Limit() int64 { return m.limit }

type meterKey struct{}

// WithMeter returns ctx carrying m, the meter of the computation run
// under it.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// MeterOf returns the meter of the computation run under ctx (nil: not
// metered). A lazy value that computes more when asked later keeps it:
// that work is charged to the same steps.
func MeterOf(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}
