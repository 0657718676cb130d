package grammar

import "testing"

// The store's nodes keep their indexes across segments, a rollback drops
// whole segments past it, and finish returns them in order.
func TestNodeStore(t *testing.T) {
	var s nodeStore
	defer s.free()
	write := func(need, n int) {
		room := s.room(need)
		if len(room) < need {
			t.Fatalf("room %d, want %d", len(room), need)
		}
		for i := 0; i < n; i++ {
			room[i].index = int32(s.n + i)
		}
		s.commit(n)
	}
	write(segmentNodes-10, segmentNodes-20) // 20 left: the next piece needs a new segment
	write(100, 50)
	write(segmentNodes*2, 70) // a piece larger than a segment
	if len(s.segs) != 3 {
		t.Fatalf("%d segments, want 3", len(s.segs))
	}
	for _, i := range []int{0, segmentNodes - 21, segmentNodes - 20, segmentNodes + 29, segmentNodes + 99} {
		if got := s.at(i).index; got != int32(i) {
			t.Fatalf("at(%d) holds node %d", i, got)
		}
	}
	s.truncate(segmentNodes - 20 + 10) // back into the second segment
	if len(s.segs) != 2 || s.n != segmentNodes-10 {
		t.Fatalf("after truncate: %d segments, %d nodes", len(s.segs), s.n)
	}
	write(5, 5)
	nodes := s.finish()
	if len(nodes) != segmentNodes-5 || s.segs != nil {
		t.Fatalf("finish: %d nodes, %d segments left", len(nodes), len(s.segs))
	}
	for i := range nodes {
		if nodes[i].index != int32(i) {
			t.Fatalf("node %d holds %d", i, nodes[i].index)
		}
	}
}
