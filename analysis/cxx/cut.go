package cxx

import "context"

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
