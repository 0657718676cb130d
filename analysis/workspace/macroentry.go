package workspace

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
	for _, p := range known {
		s := w.scanOf(p)
		if s == nil || s.entry {
			continue
		}
		for _, m := range s.macroWords {
			if kernel[m] {
				out[p] = true
				break
			}
		}
	}
	return out
}

// isMacroEntry reports whether path is a macroEntries file of the units
// index.
func (w *Workspace) isMacroEntry(path string) bool {
	w.unitsOf(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.macroEntry[path]
}
