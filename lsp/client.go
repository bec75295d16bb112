package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// notify sends a notification to the client, logging failures.
func (s *Server) notify(method string, params any) {
	b, err := marshal(params)
	if err != nil {
		s.log.Error("encode notification", "method", method, "err", err)
		return
	}
	if err := s.conn.Notify(s.ctx, method, jsonrpc2.RawMessage(b)); err != nil && s.ctx.Err() == nil {
		s.log.Warn("notify", "method", method, "err", err)
	}
}

// call sends a request to the client. Never call it from the read loop.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	b, err := marshal(params)
	if err != nil {
		return err
	}
	var raw jsonrpc2.RawMessage
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, method, jsonrpc2.RawMessage(b), &raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if result != nil && len(raw) > 0 {
		return json.Unmarshal(raw, result)
	}
	return nil
}

// showMessage shows a message in the editor.
func (s *Server) showMessage(typ protocol.MessageType, text string) {
	s.notify("window/showMessage", map[string]any{"type": typ, "message": text})
}

// marshal encodes a result or params: protocol types through the protocol
// package's union-aware codec, everything else with encoding/json.
func marshal(v any) (jsonrpc2.RawMessage, error) {
	switch v.(type) {
	case nil:
		return jsonrpc2.RawMessage("null"), nil
	case jsonrpc2.RawMessage:
		return v.(jsonrpc2.RawMessage), nil
	case *protocol.Hover, []protocol.DocumentSymbol, []protocol.Location, *protocol.PublishDiagnosticsParams:
		b, err := protocol.Marshal(v)
		return jsonrpc2.RawMessage(b), err
	}
	if fromProtocol(v) {
		b, err := protocol.Marshal(v)
		return jsonrpc2.RawMessage(b), err
	}
	b, err := json.Marshal(v)
	return jsonrpc2.RawMessage(b), err
}

// fromProtocol reports whether v is a go.lsp.dev/protocol type (or a
// pointer to or slice of one), which only the protocol package's codec
// encodes right (its unions and optional fields).
func fromProtocol(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == "go.lsp.dev/protocol"
}
