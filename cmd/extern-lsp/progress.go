package main

import (
	"fmt"
	"io"
	"sync"
)

// progressMin is the number of files from which progress is worth showing.
const progressMin = 50

// progressBar shows "checked i/N files" on stderr when it is a terminal. A
// nil *progressBar is a valid no-op, so callers need not check.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	last  int
}

func newProgress(w io.Writer, total int) *progressBar {
	if total < progressMin || !isTerminal(w) {
		return nil
	}
	return &progressBar{w: w, total: total}
}

func (p *progressBar) set(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Redraw on each whole percent only: a terminal write per file would
	// cost more than checking small files.
	if n != p.total && n*100/p.total == p.last*100/p.total {
		return
	}
	p.last = n
	fmt.Fprintf(p.w, "\r\x1b[Kextern-lsp: checked %d/%d files", n, p.total)
}

func (p *progressBar) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\x1b[K")
}
