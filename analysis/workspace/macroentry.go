package workspace

import "path/filepath"

// macroEntries returns the files of known that declare kernels only by
// instantiating a kernel macro (scan.go): a function-like macro of the
// tree whose body declares a `__global__` kernel, or names such a macro
// (`BATCH_DEF(type)` using `GLOBAL_FUNC_DEF(op_##type)`), used by the
// file's code (`TYPES_DEF(BATCH_DEF);`, `BATCH_DEF(float);`). Each is the
// entry of a unit, as a file defining its kernel by hand is.
func (w *Workspace) macroEntries(known []string) map[string]bool {
	kernel := map[string]bool{}
	var defs []macroDef
	for _, p := range known {
		if s := w.scanOf(p); s != nil {
			for _, k := range s.kernelDefs {
				kernel[k] = true
			}
			defs = append(defs, s.macroDefs...)
		}
	}
	if len(kernel) == 0 {
		return nil
	}
	// A macro naming a kernel macro declares kernels too: to a fixed
	// point (each round adds a level of nesting).
	for grew := true; grew; {
		grew = false
		for _, d := range defs {
			if kernel[d.name] {
				continue
			}
			for _, r := range d.refs {
				if kernel[r] {
					kernel[d.name], grew = true, true
					break
				}
			}
		}
	}
	out := map[string]bool{}
	var headers []string
	for _, p := range known {
		s := w.scanOf(p)
		if s == nil || s.entry {
			continue
		}
		for _, m := range s.macroWords {
			if kernel[m] {
				out[p] = true
				if isHeaderPath(p) {
					headers = append(headers, p)
				}
				break
			}
		}
	}
	if len(headers) > 0 {
		w.entriesAbove(known, headers, out)
	}
	return out
}

// entriesAbove makes the sources that include each of headers (directly
// or through other headers) the entries in its place: the source is what
// is compiled, and its #defines and includes before the header are the
// header's context (the kernel macro's own header, often). A header no
// source includes stays its own entry.
func (w *Workspace) entriesAbove(known, headers []string, out map[string]bool) {
	includers := map[string][]string{}
	for _, q := range known {
		for _, inc := range w.includes(q) {
			includers[inc] = append(includers[inc], q)
		}
	}
	for _, h := range headers {
		var sources []string
		seen := map[string]bool{h: true}
		for queue := []string{h}; len(queue) > 0; queue = queue[1:] {
			for _, q := range includers[queue[0]] {
				if seen[q] {
					continue
				}
				seen[q] = true
				if isHeaderPath(q) {
					queue = append(queue, q)
				} else {
					sources = append(sources, q)
				}
			}
		}
		if len(sources) == 0 {
			continue
		}
		delete(out, h)
		for _, q := range sources {
			if s := w.scanOf(q); s != nil && !s.entry {
				out[q] = true
			}
		}
	}
}

// isHeaderPath reports whether a C++ file is a header by its name: one
// other files include, not one a build compiles.
func isHeaderPath(p string) bool {
	switch filepath.Ext(p) {
	case ".h", ".hpp", ".hh", ".hxx", ".inc":
		return true
	}
	return false
}

// isMacroEntry reports whether path is a macroEntries file of the units
// index.
func (w *Workspace) isMacroEntry(path string) bool {
	w.unitsOf(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.macroEntry[path]
}
