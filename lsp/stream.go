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

	"go.lsp.dev/jsonrpc2"
)

// frameWriter is the raw frame output of jsonrpc2's header stream.
type frameWriter interface {
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// tolerantStream reads Content-Length frames itself and writes through
// jsonrpc2's header stream. A frame whose body is not a JSON-RPC message is
// answered with a parse or invalid-request error instead of ending the
// connection (what jsonrpc2's own read loop does), and a frame whose length
// is wrong (a client counting characters instead of bytes) is survived: the
// reader resynchronises on the next "Content-Length:" header.
type tolerantStream struct {
	inner jsonrpc2.Stream
	raw   frameWriter
	in    *frameReader
	log   func(format string, args ...any)
}

func newTolerantStream(inner jsonrpc2.Stream, r io.Reader, log func(string, ...any)) (jsonrpc2.Stream, error) {
	raw, ok := inner.(frameWriter)
	if !ok {
		return nil, errors.New("lsp: jsonrpc2 stream has no frame access")
	}
	return &tolerantStream{inner: inner, raw: raw, in: newFrameReader(r), log: log}, nil
}

// maxFrame bounds a frame body; a larger Content-Length is treated as a
// broken header (the reader skips to the next header rather than
// allocating it).
const maxFrame = 256 << 20

var contentLength = []byte("Content-Length:")

// frameReader splits a byte stream into Content-Length frames, finding the
// next header again after a broken one.
type frameReader struct {
	r *bufio.Reader
}

func newFrameReader(r io.Reader) *frameReader { return &frameReader{r: bufio.NewReader(r)} }

// unread puts b back in front of the stream.
func (f *frameReader) unread(b []byte) {
	f.r = bufio.NewReader(io.MultiReader(bytes.NewReader(bytes.Clone(b)), f.r))
}

// ReadFrame returns the next frame's body. A header block that is not
// Content-Length/Content-Type lines returns an error wrapping
// jsonrpc2.ErrInvalidHeader, after skipping to the next line that holds
// "Content-Length:", so the following call reads the next frame.
func (f *frameReader) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	length := int64(-1)
	var read int64
	headers := 0
	for {
		line, err := f.r.ReadSlice('\n')
		read += int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			// A header line longer than the buffer is no header.
			return nil, read, f.resync(fmt.Errorf("%w: header line too long", jsonrpc2.ErrInvalidHeader), nil)
		}
		if err != nil {
			return nil, read, err
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		if len(trimmed) == 0 {
			if length < 0 {
				if headers == 0 {
					continue // blank lines between frames
				}
				return nil, read, f.resync(fmt.Errorf("%w: no Content-Length", jsonrpc2.ErrInvalidHeader), nil)
			}
			break
		}
		headers++
		name, value, ok := bytes.Cut(trimmed, []byte(":"))
		switch {
		case ok && bytes.EqualFold(name, contentLength[:len(contentLength)-1]):
			n, perr := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
			if perr != nil || n <= 0 || n > maxFrame {
				return nil, read, f.resync(fmt.Errorf("%w: Content-Length %q", jsonrpc2.ErrInvalidHeader, bytes.TrimSpace(value)), nil)
			}
			length = n
		case ok && bytes.EqualFold(name, []byte("Content-Type")):
		default:
			// Leftover bytes of a mis-sized frame, or noise: resume at a
			// header inside this line when there is one.
			return nil, read, f.resync(fmt.Errorf("%w: %q", jsonrpc2.ErrInvalidHeader, clipBytes(trimmed)), trimmed)
		}
	}
	body := make([]byte, length)
	n, err := io.ReadFull(f.r, body)
	read += int64(n)
	if err != nil {
		return nil, read, err
	}
	return body, read, nil
}

// resync skips input up to the next "Content-Length:" (looking first in
// line, the rejected header line) and returns cause.
func (f *frameReader) resync(cause error, line []byte) error {
	if i := bytes.Index(line, contentLength); i >= 0 {
		f.unread(append(bytes.Clone(line[i:]), '\n'))
		return cause
	}
	for {
		l, err := f.r.ReadSlice('\n')
		if i := bytes.Index(l, contentLength); i >= 0 {
			f.unread(l[i:])
			return cause
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return err // the stream ended before another frame
		}
	}
}

// jsonValueEnd returns the offset just past the JSON value body starts
// with, or 0 when it does not start with one.
func jsonValueEnd(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return 0
	}
	return int(dec.InputOffset())
}

func clipBytes(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}

// Read returns the next well-formed message, answering malformed frames.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	badRun := false
	for {
		body, n, err := s.in.ReadFrame(ctx)
		if errors.Is(err, jsonrpc2.ErrInvalidHeader) {
			// A broken header block (a bad line, a zero length): answer once
			// and resynchronise on the next well-formed header.
			s.log("malformed frame header: %v", err)
			if !badRun {
				badRun = true
				if werr := s.writeError(ctx, []byte("null"), jsonrpc2.ParseError, "parse error: "+err.Error()); werr != nil {
					return nil, 0, werr
				}
			}
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		badRun = false
		msg, derr := jsonrpc2.DecodeMessage(body)
		if derr == nil {
			return msg, n, nil
		}
		s.log("malformed frame (%d bytes): %v", len(body), derr)
		if end := jsonValueEnd(body); end > 0 && end < len(body) {
			// The frame claimed more bytes than it had and swallowed the
			// start of the next one: serve the message it holds and read
			// the rest again.
			s.in.unread(body[end:])
			body = body[:end]
			if msg, err := jsonrpc2.DecodeMessage(body); err == nil {
				return msg, n, nil
			}
		}
		if werr := s.answerMalformed(ctx, body, derr); werr != nil {
			return nil, 0, werr
		}
	}
}

// answerMalformed writes the error response for a bad frame: -32700 when the
// body is not JSON, -32600 when it is JSON but not a request (with the id
// when one can be read). A malformed notification gets no answer.
func (s *tolerantStream) answerMalformed(ctx context.Context, body []byte, derr error) error {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	code, msg := jsonrpc2.ParseError, "parse error: "+derr.Error()
	idJSON := []byte("null")
	if json.Unmarshal(body, &probe) == nil {
		if probe.Method != nil && len(probe.ID) == 0 {
			return nil // a broken notification: nothing to answer
		}
		code, msg = jsonrpc2.InvalidRequest, "invalid request: "+derr.Error()
		if len(probe.ID) > 0 && (probe.ID[0] == '"' || (probe.ID[0] >= '0' && probe.ID[0] <= '9') || probe.ID[0] == '-') {
			idJSON = probe.ID
		}
	}
	return s.writeError(ctx, idJSON, code, msg)
}

// writeError writes an error response frame.
func (s *tolerantStream) writeError(ctx context.Context, idJSON []byte, code jsonrpc2.Code, msg string) error {
	m, _ := json.Marshal(msg)
	frame := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, idJSON, int64(code), m)
	_, err := s.raw.WriteFrame(ctx, frame)
	return err
}

func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.inner.Write(ctx, msg)
}

func (s *tolerantStream) Close() error { return s.inner.Close() }
