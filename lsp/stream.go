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

// Read returns the next well-formed message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			if errors.Is(err, errFrame) {
				s.logf("dropped a malformed frame: %v", err)
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

// readFrame reads headers and the body. Header garbage (no colon, a bad or
// missing Content-Length) is reported as errFrame after skipping to where a
// new header can start.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	bad := ""
	sawHeader := false
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && strings.TrimSpace(line) != "" {
				s.logf("input ended inside a header: %.80q", line)
			}
			return nil, total, err
		}
		// A truncated body leaves its tail in front of the next header:
		// resynchronise on the header name wherever it starts.
		if i := strings.Index(line, "Content-Length:"); i > 0 {
			s.logf("skipped %d bytes of garbage before a header", i)
			line = line[i:]
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
			bad = fmt.Sprintf("header line without a colon: %.80q", t)
			continue
		}
		name, value := strings.TrimSpace(t[:colon]), strings.TrimSpace(t[colon+1:])
		if strings.EqualFold(name, "Content-Length") {
			v, perr := strconv.ParseInt(value, 10, 64)
			if perr != nil || v <= 0 || v > maxFrame {
				bad = fmt.Sprintf("bad Content-Length %q", value)
				continue
			}
			length = v
		}
	}
	if bad == "" && length < 0 {
		bad = "missing Content-Length"
	}
	if bad != "" {
		return nil, total, fmt.Errorf("%w: %s", errFrame, bad)
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, err
	}
	return body, total, nil
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
