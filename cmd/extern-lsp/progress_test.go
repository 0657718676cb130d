package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgressOnlyOnTerminals(t *testing.T) {
	var b bytes.Buffer
	if p := newProgress(&b, 1000); p != nil {
		t.Error("progress on a non-terminal")
	}
	var nilBar *progressBar
	nilBar.set(3) // a nil bar is a no-op
	nilBar.done()
}

func TestProgressRedrawsPerPercent(t *testing.T) {
	var b bytes.Buffer
	p := &progressBar{w: &b, total: 1000}
	for i := 1; i <= 1000; i++ {
		p.set(i)
	}
	p.done()
	if n := strings.Count(b.String(), "\r"); n != 101 {
		t.Errorf("%d redraws, want 100 and the clear", n)
	}
	if !strings.Contains(b.String(), "checked 1000/1000 files") || !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Errorf("output %q", b.String())
	}
}

func TestColor(t *testing.T) {
	if useColor(&bytes.Buffer{}, false) {
		t.Error("colour on a buffer")
	}
	r := &reporter{color: true}
	if got := r.paint(ansiRed, "error"); got != "\x1b[1;31merror\x1b[0m" {
		t.Errorf("paint %q", got)
	}
	r.color = false
	if got := r.paint(ansiRed, "error"); got != "error" {
		t.Errorf("no colour: %q", got)
	}
}
