package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message; a larger Content-Length is a corrupt header,
// not a request to allocate gigabytes.
const maxFrame = 256 << 20

// stream is LSP's Content-Length framing made tolerant: jsonrpc2's own
// stream returns an error for a bad header or body and the connection then
// closes itself. Here a bad frame is logged, answered with a JSON-RPC error
// when it carried a body, and reading resumes at the next header; only the
// end of input (or a read error) ends the stream.
type stream struct {
	in   *bufio.Reader
	out  io.Writer
	c    io.Closer
	wmu  sync.Mutex
	logf func(format string, args ...any)
}

func newStream(r io.Reader, w io.Writer, c io.Closer, logf func(string, ...any)) *stream {
	return &stream{in: bufio.NewReaderSize(r, 64<<10), out: w, c: c, logf: logf}
}

var errFrame = errors.New("bad frame")

// frameError is a rejected frame; reply says the client is told too (a
// frame whose length is ambiguous: the request in it goes unanswered).
type frameError struct {
	msg   string
	reply bool
}

func (e *frameError) Error() string   { return errFrame.Error() + ": " + e.msg }
func (e *frameError) Is(t error) bool { return t == errFrame }

// maxHeaderLine bounds a header line: a longer one is garbage (a body
// whose header was lost, say), of which only the tail is kept, to find
// the next header in it.
const maxHeaderLine = 4096

// Read returns the next well-formed message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			var fe *frameError
			if errors.As(err, &fe) {
				s.logf("dropped a malformed frame: %v", err)
				if fe.reply {
					s.replyFrameError(fe.msg)
				}
				continue
			}
			return nil, n, err
		}
		msg, derr := jsonrpc2.DecodeMessage(body)
		if derr != nil {
			s.logf("invalid JSON-RPC message (%v): %.200q", derr, body)
			s.replyError(body, derr)
			continue
		}
		return msg, n, nil
	}
}

// readLine reads up to and including '\n', keeping at most the line's last
// maxHeaderLine bytes; long says bytes were dropped.
func (s *stream) readLine() (line string, n int64, long bool, err error) {
	var buf []byte
	for {
		chunk, rerr := s.in.ReadSlice('\n')
		n += int64(len(chunk))
		buf = append(buf, chunk...)
		if len(buf) > maxHeaderLine {
			long = true
			buf = append(buf[:0], buf[len(buf)-maxHeaderLine:]...)
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		return string(buf), n, long, rerr
	}
}

// readFrame reads headers and the body. Header garbage (no colon, a bad,
// missing or twice given Content-Length, a line over maxHeaderLine) is
// reported as a *frameError after skipping to where a new header can
// start; the body of a frame whose length is ambiguous is not read, and
// reading resynchronises on the next Content-Length header in it or after.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	bad, reply := "", false
	sawHeader, sawLength := false, false
	for {
		line, n, long, err := s.readLine()
		total += n
		if err != nil {
			if err == io.EOF && strings.TrimSpace(line) != "" {
				s.logf("input ended inside a header: %.80q", line)
			}
			return nil, total, err
		}
		// A truncated body (or one whose header was rejected) leaves its
		// tail in front of the next header: resynchronise on the header
		// name wherever it starts, forgetting the garbage before it.
		if i := strings.Index(line, "Content-Length:"); i > 0 || i == 0 && (long || bad != "" && !sawLength) {
			s.logf("skipped garbage before a header")
			line = line[i:]
			length, bad, reply, sawLength = -1, "", false, false
		} else if long {
			bad = fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)
			sawHeader = true
			continue
		}
		t := strings.TrimSpace(line)
		if t == "" {
			if !sawHeader {
				continue // stray blank line between frames
			}
			break
		}
		sawHeader = true
		colon := strings.IndexByte(t, ':')
		if colon < 0 {
			if bad == "" {
				bad = fmt.Sprintf("header line without a colon: %.80q", t)
			}
			continue
		}
		name, value := strings.TrimSpace(t[:colon]), strings.TrimSpace(t[colon+1:])
		if strings.EqualFold(name, "Content-Length") {
			sawLength = true
			v, perr := strconv.ParseInt(value, 10, 64)
			switch {
			case perr != nil || v <= 0 || v > maxFrame:
				bad = fmt.Sprintf("bad Content-Length %q", value)
			case length >= 0 && v != length:
				// Either length would misread: the shorter leaves the
				// body's tail as garbage, the longer swallows the next
				// message.
				bad, reply = fmt.Sprintf("two Content-Length headers (%d and %d): message dropped", length, v), true
			default:
				length = v
			}
		}
	}
	if bad == "" && length < 0 {
		bad = "missing Content-Length"
	}
	if bad != "" {
		return nil, total, &frameError{msg: bad, reply: reply}
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, err
	}
	return body, total, nil
}

// replyFrameError tells the client a frame was dropped: an invalid request
// error without an id (the id is in the body that was not read).
func (s *stream) replyFrameError(msg string) {
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": jsonrpc2.InvalidRequest, "message": "invalid message framing: " + msg},
	})
	s.writeRaw(resp)
}

// replyError answers a body that is not a valid message: a parse error for
// bad JSON, invalid request otherwise, with the request's id when it has one.
func (s *stream) replyError(body []byte, derr error) {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	code, msg := jsonrpc2.ParseError, "parse error: "+derr.Error()
	id := json.RawMessage("null")
	if json.Unmarshal(body, &probe) == nil {
		code, msg = jsonrpc2.InvalidRequest, "invalid request: "+derr.Error()
		if len(probe.ID) > 0 && (probe.ID[0] == '"' || probe.ID[0] == '-' || probe.ID[0] >= '0' && probe.ID[0] <= '9') {
			id = probe.ID
		}
		if probe.Method == nil && len(probe.ID) > 0 {
			// A malformed response from the client: nothing to answer.
			return
		}
	}
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": msg},
	})
	s.writeRaw(resp)
}

// Write sends one message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(data)
}

func (s *stream) writeRaw(data []byte) (int64, error) {
	var buf bytes.Buffer
	buf.Grow(len(data) + 32)
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(data))
	buf.Write(data)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := s.out.Write(buf.Bytes())
	return int64(n), err
}

// Close closes the underlying connection.
func (s *stream) Close() error {
	if s.c != nil {
		return s.c.Close()
	}
	return nil
}
