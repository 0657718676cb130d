package cxx

// Attempt runs walk and returns what it returns; when walk gives up with a
// panic of a value of type D instead, Attempt returns that value. Any other
// panic goes on. The walks that follow callees (EXT012's drain summaries,
// EXT015's event walk and summaries) bound how deep they recurse this way:
// an attempt past the depth is given up, the deep callee is walked on its
// own, and the attempt is made again.
func Attempt[T, D any](walk func() T) (out T, deep *D) {
	defer func() {
		if r := recover(); r != nil {
			d, ok := r.(D)
			if !ok {
				panic(r)
			}
			deep = &d
		}
	}()
	return walk(), nil
}
