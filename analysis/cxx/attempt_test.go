package cxx

import "testing"

type testDeep struct{ at int }

func TestAttempt(t *testing.T) {
	out, deep := Attempt[int, testDeep](func() int { return 7 })
	if out != 7 || deep != nil {
		t.Errorf("a walk that finishes: got %d, %v; want 7, nil", out, deep)
	}
	out, deep = Attempt[int, testDeep](func() int { panic(testDeep{at: 3}) })
	if out != 0 || deep == nil || deep.at != 3 {
		t.Errorf("a walk given up: got %d, %v; want 0, &{3}", out, deep)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("another panic: recovered %v, want it to go on as \"other\"", r)
		}
	}()
	Attempt[int, testDeep](func() int { panic("other") })
	t.Error("another panic was swallowed")
}
