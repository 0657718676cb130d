package grammar

import (
	"regexp"
	"strings"
)

// CoresOf returns the cores that compile and run n: the preprocessor guards
// at its start narrowed by enclosing C++ core-type conditions
// (`if ASCEND_IS_AIV {`, `if (g_coreType == AscendC::AIC)`, `if constexpr`).
// A plain `if` on g_coreType compiles on both cores, but its branch is dead
// on the other one, so it narrows the same way.
func (f *File) CoresOf(n *Node) Cores {
	if n == nil {
		return Both
	}
	c := f.Guards.CoresAt(n.Start)
	for child, p := n, n.Parent(); p != nil; child, p = p, p.Parent() {
		if p.Kind != "if_statement" {
			continue
		}
		core, ok := CoreCondition(p.ChildByField("condition"))
		if !ok {
			continue
		}
		switch child.Field {
		case "consequence":
			c &= core
		case "alternative":
			c &= Both &^ core
		}
	}
	return c
}

var coreCondRE = regexp.MustCompile(`^(?:AscendC::)?g_coreType(==|!=)(?:AscendC::)?(AIV|AIC)$|^(?:AscendC::)?(AIV|AIC)(==|!=)(?:AscendC::)?g_coreType$`)

// CoreCondition returns the core a C++ condition selects, when it is a
// core-type test.
func CoreCondition(cond *Node) (Cores, bool) {
	if cond == nil {
		return None, false
	}
	text := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '(', ')':
			return -1
		}
		return r
	}, cond.Text())
	text = strings.TrimPrefix(text, "constexpr")
	neg := false
	for strings.HasPrefix(text, "!") {
		neg = !neg
		text = text[1:]
	}
	var core Cores
	switch text {
	case "ASCEND_IS_AIV":
		core = AIV
	case "ASCEND_IS_AIC":
		core = AIC
	case "ASCEND_IS_NOT_AIV":
		core = AIC
	case "ASCEND_IS_NOT_AIC":
		core = AIV
	default:
		m := coreCondRE.FindStringSubmatch(text)
		if m == nil {
			return None, false
		}
		op, name := m[1], m[2]
		if name == "" {
			op, name = m[4], m[3]
		}
		core = AIV
		if name == "AIC" {
			core = AIC
		}
		if op == "!=" {
			neg = !neg
		}
	}
	if neg {
		core = Both &^ core
	}
	return core, true
}

// Dump renders a node as an S-expression with field names, for debugging and
// tests.
func Dump(n *Node) string {
	var b strings.Builder
	var rec func(n *Node, depth int)
	rec = func(n *Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		if n.Field != "" {
			b.WriteString(n.Field + ": ")
		}
		b.WriteString("(" + n.Kind)
		if n.FirstChild() == nil {
			b.WriteString(" " + strings.ReplaceAll(n.Text(), "\n", "\\n"))
		}
		b.WriteString(")\n")
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.IsNamed() {
				rec(c, depth+1)
			}
		}
	}
	rec(n, 0)
	return b.String()
}
