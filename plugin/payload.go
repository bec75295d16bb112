package plugin

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mrpvm/mrpvm/kus"
)

// Payload is the structured input every plugin receives: the task
// apart from its background evidence, never one concatenated Markdown
// string.
type Payload struct {
	Prompt  string        `json:"prompt"`  // the intent or core requirement
	Context []ContextItem `json:"context"` // background evidence, most relevant first
}

// ContextItem is one piece of background evidence, usually a KU.
type ContextItem struct {
	Title      string `json:"title"`      // short KU title
	SourceLink string `json:"sourceLink"` // bibliographic source or URI
	Text       string `json:"text"`       // the KU text
}

// MarshalJSON writes context as [] rather than null.
func (p Payload) MarshalJSON() ([]byte, error) {
	type plain Payload
	q := plain(p)
	if q.Context == nil {
		q.Context = []ContextItem{}
	}
	return json.Marshal(q)
}

// ContextItemOf turns a KU into a context item. The source link is the
// source id with the KU id as fragment and, when known, its line:
// "notes/a.md#notes/a.md::0::1" or "notes/a.md:12#...".
func ContextItemOf(k *kus.KU) ContextItem {
	title := k.Title
	if title == "" {
		title = k.Topic
	}
	link := k.SourceID
	if k.Range.StartLine > 0 {
		link = fmt.Sprintf("%s:%d", link, k.Range.StartLine)
	}
	if k.ID != "" {
		link += "#" + k.ID
	}
	return ContextItem{Title: title, SourceLink: link, Text: k.Text()}
}

// ContextOf turns KUs into context items, in order, skipping nils.
func ContextOf(units []*kus.KU) []ContextItem {
	out := make([]ContextItem, 0, len(units))
	for _, k := range units {
		if k != nil {
			out = append(out, ContextItemOf(k))
		}
	}
	return out
}

// Validate checks that a payload has a prompt and that every context item
// has text.
func (p *Payload) Validate() error {
	var errs []error
	if p.Prompt == "" {
		errs = append(errs, errors.New("payload prompt is empty"))
	}
	for i, c := range p.Context {
		if c.Text == "" {
			errs = append(errs, fmt.Errorf("payload context[%d] has no text", i))
		}
	}
	return errors.Join(errs...)
}
