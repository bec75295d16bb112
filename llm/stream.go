package llm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// wireChunk is one streamed chat.completion.chunk.
type wireChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Delta *struct {
			Content json.RawMessage `json:"content"`
			Refusal string          `json:"refusal"`
		} `json:"delta"`
		Text         *string `json:"text"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage      `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// readStream assembles a reply from server-sent events: `data:` lines
// holding chat.completion.chunk objects, ended by `data: [DONE]`. Events
// are separated by blank lines; comment lines (":") and other fields are
// ignored. A stream that ends without [DONE] is accepted when a finish
// reason was seen (some servers just close the connection).
func (c *Client) readStream(body io.Reader, onDelta func(string) error) (*ChatResponse, *attemptErr) {
	fail := func(code, msg string, cause error, retry bool) *attemptErr {
		return &attemptErr{err: &Error{Code: code, Model: c.ep.Model, URL: c.shownURL, Message: c.red.apply(msg), Err: cause}, retry: retry}
	}
	br := bufio.NewReaderSize(body, 64<<10)
	var (
		text      strings.Builder
		r         = &ChatResponse{}
		data      []string
		event     string
		done      bool
		total     int64
		chunks    int
		sawFinish bool
	)
	dispatch := func() *attemptErr {
		defer func() { data, event = data[:0], "" }()
		if len(data) == 0 {
			return nil
		}
		payload := strings.Join(data, "\n")
		if strings.TrimSpace(payload) == "[DONE]" {
			done = true
			return nil
		}
		if event == "error" {
			return fail(CodeServer, "the server sent an error in the stream: "+serverMessage([]byte(payload)), nil, true)
		}
		var ch wireChunk
		if err := json.Unmarshal([]byte(payload), &ch); err != nil {
			return fail(CodeBadReply, "a streamed chunk is not JSON ("+err.Error()+"): "+shorten(payload), err, false)
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			return fail(CodeServer, "the server sent an error in the stream: "+serverMessage([]byte(payload)), nil, true)
		}
		chunks++
		if ch.Model != "" {
			r.Model = ch.Model
		}
		if ch.Usage != nil {
			r.Usage = ch.Usage.usage()
		}
		if len(ch.Choices) == 0 {
			return nil // the usage chunk of stream_options.include_usage
		}
		cho := ch.Choices[0]
		var piece string
		switch {
		case cho.Delta != nil:
			if s, ok := contentText(cho.Delta.Content); ok {
				piece = s
			}
		case cho.Text != nil:
			piece = *cho.Text
		}
		if cho.FinishReason != nil && *cho.FinishReason != "" {
			r.FinishReason = *cho.FinishReason
			sawFinish = true
		}
		if piece != "" {
			text.WriteString(piece)
			if onDelta != nil {
				if err := onDelta(piece); err != nil {
					return &attemptErr{consumer: err, err: &Error{}}
				}
			}
		}
		return nil
	}
	for !done {
		line, err := br.ReadString('\n')
		total += int64(len(line))
		if total > c.opts.MaxReplyBytes {
			return nil, fail(CodeBadReply, fmt.Sprintf("the streamed reply is larger than %d bytes", c.opts.MaxReplyBytes), nil, false)
		}
		if line != "" {
			l := strings.TrimRight(line, "\r\n")
			switch {
			case l == "":
				if ae := dispatch(); ae != nil {
					return nil, ae
				}
			case strings.HasPrefix(l, ":"):
				// comment / keep-alive
			default:
				field, value, _ := strings.Cut(l, ":")
				value = strings.TrimPrefix(value, " ")
				switch field {
				case "data":
					data = append(data, value)
				case "event":
					event = value
				}
			}
		}
		if err != nil {
			if ae := dispatch(); ae != nil {
				return nil, ae
			}
			if done {
				break
			}
			if !errors.Is(err, io.EOF) {
				return nil, fail(CodeUnreachable, "the stream broke: "+c.transportText(err), redactedErr{c.transportText(err)}, true)
			}
			if sawFinish {
				break
			}
			if chunks == 0 {
				return nil, fail(CodeBadReply, "the reply is not an event stream of chat completion chunks", nil, false)
			}
			return nil, fail(CodeBadReply, "the stream ended before [DONE] or a finish reason", nil, true)
		}
	}
	r.Text = text.String()
	if chunks == 0 {
		return nil, fail(CodeBadReply, "the stream ended without any chunk", nil, false)
	}
	return r, nil
}
