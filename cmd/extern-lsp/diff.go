package main

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// unifiedDiff returns a unified diff of two texts (empty when equal) that
// `patch` and `git apply` accept, "\ No newline at end of file" included.
func unifiedDiff(oldName, newName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Group the edit script into hunks with context.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i - diffContext
		if start < 0 {
			start = 0
		}
		end := i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			// Extend through a short run of equal lines to the next change.
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run < len(ops) && run-end <= 2*diffContext {
				end = run
				continue
			}
			end += diffContext
			if end > len(ops) {
				end = len(ops)
			}
			break
		}
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

type diffOp struct {
	kind       byte // ' ', '-', '+'
	text       string
	aLine      int // 0-based line in a (for ' ' and '-')
	bLine      int // 0-based line in b (for ' ' and '+')
	noNewlineA bool
	noNewlineB bool
}

func writeHunk(out *strings.Builder, ops []diffOp) {
	aStart, bStart, aN, bN := -1, -1, 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			if aStart < 0 {
				aStart = op.aLine
			}
			aN++
		}
		if op.kind != '-' {
			if bStart < 0 {
				bStart = op.bLine
			}
			bN++
		}
	}
	// An empty side is numbered by the line before it (GNU convention).
	if aStart < 0 {
		aStart = ops[0].aLine - 1
	}
	if bStart < 0 {
		bStart = ops[0].bLine - 1
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
	for _, op := range ops {
		out.WriteByte(op.kind)
		out.WriteString(op.text)
		out.WriteByte('\n')
		if (op.kind == '-' && op.noNewlineA) || (op.kind == '+' && op.noNewlineB) || (op.kind == ' ' && (op.noNewlineA || op.noNewlineB)) {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type line struct {
	text      string
	noNewline bool
}

func splitLines(s []byte) []line {
	if len(s) == 0 {
		return nil
	}
	parts := strings.SplitAfter(string(s), "\n")
	var out []line
	for _, p := range parts {
		if p == "" {
			continue
		}
		if strings.HasSuffix(p, "\n") {
			out = append(out, line{text: p[:len(p)-1]})
		} else {
			out = append(out, line{text: p, noNewline: true})
		}
	}
	return out
}

// diffLines is Myers' O(ND) diff over lines, after trimming the common
// prefix and suffix (fixes touch few lines of long files).
func diffLines(a, b []line) []diffOp {
	eq := func(i, j int) bool { return a[i] == b[j] }
	pre := 0
	for pre < len(a) && pre < len(b) && eq(pre, pre) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && eq(len(a)-1-suf, len(b)-1-suf) {
		suf++
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{kind: ' ', text: a[i].text, aLine: i, bLine: i})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for k := suf; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		ops = append(ops, diffOp{kind: ' ', text: a[i].text, aLine: i, bLine: j, noNewlineA: a[i].noNewline, noNewlineB: b[j].noNewline})
	}
	return ops
}

func myers(a, b []line, aOff, bOff int) []diffOp {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
				x = v[max+k+1]
			} else {
				x = v[max+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[max+k] = x
			if x >= n && y >= m {
				return backtrack(trace, v, a, b, d, aOff, bOff)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, last []int, a, b []line, d, aOff, bOff int) []diffOp {
	n, m := len(a), len(b)
	max := n + m
	x, y := n, m
	var rev []diffOp
	trace = append(trace, last)
	for ; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[max+prevK]
		prevY := prevX - prevK
		if d == 0 {
			prevX, prevY = 0, 0
		}
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, diffOp{kind: ' ', text: a[x].text, aLine: aOff + x, bLine: bOff + y, noNewlineA: a[x].noNewline, noNewlineB: b[y].noNewline})
		}
		if d == 0 {
			break
		}
		if x == prevX {
			y--
			rev = append(rev, diffOp{kind: '+', text: b[y].text, aLine: aOff + x, bLine: bOff + y, noNewlineB: b[y].noNewline})
		} else {
			x--
			rev = append(rev, diffOp{kind: '-', text: a[x].text, aLine: aOff + x, bLine: bOff + y, noNewlineA: a[x].noNewline})
		}
	}
	out := make([]diffOp, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}
