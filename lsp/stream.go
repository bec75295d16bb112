package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// frameIO is the raw frame access of jsonrpc2's header stream.
type frameIO interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// tolerantStream wraps jsonrpc2's Content-Length stream so that a frame
// whose body is not a JSON-RPC message is answered with a parse or
// invalid-request error instead of ending the connection, which is what
// jsonrpc2's own read loop does with a decode error. Frames whose header is
// broken still end the connection: there is no way to find the next frame.
type tolerantStream struct {
	inner jsonrpc2.Stream
	raw   frameIO
	log   func(format string, args ...any)
}

func newTolerantStream(inner jsonrpc2.Stream, log func(string, ...any)) (jsonrpc2.Stream, error) {
	raw, ok := inner.(frameIO)
	if !ok {
		return nil, errors.New("lsp: jsonrpc2 stream has no frame access")
	}
	return &tolerantStream{inner: inner, raw: raw, log: log}, nil
}

// Read returns the next well-formed message, answering malformed frames.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	badRun := false
	for {
		body, n, err := s.raw.ReadFrame(ctx)
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
