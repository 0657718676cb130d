package rules

// sharedText hands out one string per distinct text among a rule's
// findings: a machine-made kernel repeats the same call thousands of
// times, and each finding holding its own copy of the same message is
// most of what its findings cost.
type sharedText map[string]string

// get returns the string for key, made by build (nil: key itself) the
// first time. The caller's key may be a fresh concatenation: the map
// keeps the first one.
func (t *sharedText) get(key string, build func() string) string {
	if s, ok := (*t)[key]; ok {
		return s
	}
	if *t == nil {
		*t = sharedText{}
	}
	s := key
	if build != nil {
		s = build()
	}
	(*t)[key] = s
	return s
}
