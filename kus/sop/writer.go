package sop

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
)

// Writer builds a SOP document from Go values. Each method writes one object
// (its constructor followed by one set statement per non-empty field) and
// returns the statement id it used: the value's own ID when it is a legal,
// unused id, otherwise a generated one (i1, i2... for intents, k1... for KUs,
// with the set statements numbered in the same series). Text is quoted with [Quote] whenever it is not a plain
// atom, so no value can break out of its statement.
//
// The Writer does not validate meaning; run [Interpret] on the output for
// that. It records the first structural problem (an unknown reference, an
// empty required argument) in Err.
type Writer struct {
	b       strings.Builder
	used    map[string]bool // reserved or written statement ids
	written map[string]bool // written statement ids
	objects map[string]bool // written object ids
	next    map[string]int  // last generated number per prefix
	err     error
	// deferRefs holds back set statements with reference values until
	// Flush, so objects may be written in definition order even when a
	// later set points to an object defined after them.
	deferRefs bool
	deferred  []Statement
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer {
	return &Writer{used: map[string]bool{}, written: map[string]bool{}, objects: map[string]bool{}, next: map[string]int{}}
}

// String returns the document written so far.
func (w *Writer) String() string { return w.b.String() }

// Err returns the first problem met while writing, or nil.
func (w *Writer) Err() error { return w.err }

func (w *Writer) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("sop writer: "+format, args...)
	}
}

// Reserve marks ids as taken so that generated ids avoid them; use it before
// writing values whose own ids come later.
func (w *Writer) Reserve(ids ...string) {
	for _, id := range ids {
		if IsID(id) {
			w.used[id] = true
		}
	}
}

// Comment writes `# text`, one comment line per line of text.
func (w *Writer) Comment(text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.ReplaceAll(line, "\r", "")
		w.b.WriteString("# ")
		w.b.WriteString(strings.ToValidUTF8(line, "\ufffd"))
		w.b.WriteByte('\n')
	}
}

// claim returns id when legal and not written yet (a reserved id is free
// for its owner), or a fresh prefix<n>. object tells whether the statement
// is a constructor, which references may name.
func (w *Writer) claim(id, prefix string, object bool) string {
	if id == "" || !IsID(id) || w.written[id] {
		if id != "" {
			w.fail("id %q is illegal or already used; a new id is generated", id)
		}
		id = w.gen(prefix)
	}
	w.used[id] = true
	w.written[id] = true
	if object {
		w.objects[id] = true
	}
	return id
}

// gen returns the next unused prefix<n>.
func (w *Writer) gen(prefix string) string {
	for {
		w.next[prefix]++
		id := prefix + strconv.Itoa(w.next[prefix])
		if !w.used[id] {
			w.used[id] = true
			return id
		}
	}
}

// genSet returns a fresh id for a set or constrain statement.
func (w *Writer) genSet(prefix string) string {
	id := w.gen(prefix)
	w.written[id] = true
	return id
}

func (w *Writer) line(id, command string, args ...Arg) {
	Statement{ID: id, Command: command, Args: args}.write(&w.b)
	w.b.WriteByte('\n')
}

var prefixes = map[string]string{
	KindIntent: "i", KindSeed: "s", KindSubproblem: "sp", KindPlugin: "p", KindKU: "k",
	KindValidate: "v", KindPolicy: "pol", KindObjective: "obj", KindCandidate: "c",
	KindCompare: "cmp", KindChallenge: "ch", KindBranch: "b", KindResultRecord: "rr",
}

// object writes a constructor, its set statements and its text constraints.
func (w *Writer) object(kind, id string, scal map[string]string, lists map[string][]string, constraints []string) string {
	spec := kinds[kind]
	prefix := prefixes[kind]
	id = w.claim(id, prefix, false)
	var args []Arg
	params := map[string]bool{}
	for i, p := range spec.params {
		params[p] = true
		v := scal[p]
		if v == "" {
			if i >= len(spec.params)-spec.optional {
				break
			}
			w.fail("%s @%s: %s is empty", kind, id, p)
			args = append(args, Str(""))
			continue
		}
		args = append(args, w.arg(spec.field(p), v))
	}
	w.line(id, kind, args...)
	w.objects[id] = true
	for _, f := range spec.fields {
		if params[f.name] && scal[f.name] != "" {
			continue
		}
		if f.list {
			vals := lists[f.name]
			if len(vals) == 0 {
				continue
			}
			items := make([]Arg, len(vals))
			for i, v := range vals {
				items[i] = w.arg(&f, v)
			}
			w.line(w.genSet(prefix), "set", Ref(id), Atom(f.name), List(items...))
			continue
		}
		if v := scal[f.name]; v != "" {
			if f.kind == vRef && w.deferRefs {
				w.deferred = append(w.deferred, Statement{ID: w.genSet(prefix), Command: "set",
					Args: []Arg{Ref(id), Atom(f.name), Ref(v)}})
				continue
			}
			w.line(w.genSet(prefix), "set", Ref(id), Atom(f.name), w.arg(&f, v))
		}
	}
	for _, c := range constraints {
		w.line(w.genSet(prefix), "constrain", Ref(id), Str(c))
	}
	return id
}

// arg renders a field value: references as $id, free text (and KU ids)
// always quoted, other values as atoms when they can be.
func (w *Writer) arg(f *fieldSpec, v string) Arg {
	switch {
	case f.kind == vRef:
		return w.ref(v)
	case f.kind == vText && !f.bare:
		return Str(v)
	}
	return Text(v)
}

func (w *Writer) ref(id string) Arg {
	if !w.objects[id] {
		w.fail("reference $%s to an object not written yet", id)
	}
	return Ref(id)
}

// flush writes the deferred set statements.
func (w *Writer) flush() {
	for _, st := range w.deferred {
		w.ref(st.Args[2].Value)
		w.line(st.ID, st.Command, st.Args...)
	}
	w.deferred = nil
}

// Intent writes an intent with its fields and constraints.
func (w *Writer) Intent(in *Intent) string {
	scal, lists := intentFields(in)
	return w.object(KindIntent, in.ID, scal, lists, in.Constraints)
}

// Seed writes a seed; s.Intent must name an intent or subproblem already written.
func (w *Writer) Seed(s *Seed) string {
	return w.object(KindSeed, s.ID, map[string]string{"intent": s.Intent, "mode": s.Mode,
		"action": s.Action, "focus": s.Focus}, nil, nil)
}

// Plugin writes a plugin reference.
func (w *Writer) Plugin(p *PluginRef) string {
	return w.object(KindPlugin, p.ID, map[string]string{"type": p.Type, "pluginId": p.PluginID,
		"reason": p.Reason}, nil, nil)
}

// KU writes a Knowledge Unit under statement id (generated when ""). Every
// SOP field of the KU is written except zero values; Hash and Range are not
// part of SOP.
func (w *Writer) KU(id string, k *kus.KU) string {
	scal, lists := kuFieldValues(k)
	return w.object(KindKU, id, scal, lists, nil)
}

// Object writes a generic object (subproblem, validate, policy, ...).
func (w *Writer) Object(o *Object) string {
	if kinds[o.Kind] == nil {
		w.fail("unknown kind %q", o.Kind)
		return ""
	}
	return w.object(o.Kind, o.ID, o.Fields, o.Lists, o.Constraints)
}

// Relation writes `@id <type> $from $to` (a list when there are several targets).
func (w *Writer) Relation(r *Relation) string {
	id := w.claim(r.ID, "r", false)
	var to Arg
	if len(r.To) == 1 {
		to = w.ref(r.To[0])
	} else {
		items := make([]Arg, len(r.To))
		for i, t := range r.To {
			items[i] = w.ref(t)
		}
		to = List(items...)
	}
	w.line(id, r.Type, w.ref(r.From), to)
	return id
}

// Status writes a status, fail or deactivate statement (status when
// s.Command is empty).
func (w *Writer) Status(s *Status) string {
	id := w.claim(s.ID, "st", false)
	cmd := s.Command
	if cmd == "" {
		cmd = "status"
	}
	args := []Arg{w.ref(s.Target)}
	if cmd == "status" {
		args = append(args, Text(s.Value))
	}
	if s.Reason != "" {
		args = append(args, Str(s.Reason))
	}
	w.line(id, cmd, args...)
	return id
}

// Write renders a Result as a SOP document: the objects in r.Order (or, when
// Order is empty, intents, seeds, plugins, KUs and other objects in that
// order; KUs then get generated ids), then the set statements whose value is
// a reference, then relations, then statuses. Interpret(Write(r)) yields r
// again, up to Lines.
func Write(r *Result) (string, error) {
	w := NewWriter()
	w.deferRefs = true
	for _, id := range r.Order {
		w.Reserve(id)
	}
	for _, rel := range r.Relations {
		w.Reserve(rel.ID)
	}
	for _, s := range r.Statuses {
		w.Reserve(s.ID)
	}
	write := func(id string, v any) {
		switch o := v.(type) {
		case *Intent:
			w.Intent(o)
		case *Seed:
			w.Seed(o)
		case *PluginRef:
			w.Plugin(o)
		case *kus.KU:
			w.KU(id, o)
		case *Object:
			w.Object(o)
		default:
			w.fail("no object for id %q", id)
		}
	}
	if len(r.Order) > 0 {
		for _, id := range r.Order {
			write(id, r.ByID[id])
		}
	} else {
		for _, in := range r.Intents {
			write(in.ID, in)
		}
		for _, s := range r.Seeds {
			write(s.ID, s)
		}
		for _, p := range r.Plugins {
			write(p.ID, p)
		}
		for _, k := range r.KUs {
			write("", k)
		}
		for _, o := range r.Objects {
			write(o.ID, o)
		}
	}
	w.flush()
	for _, rel := range r.Relations {
		w.Relation(rel)
	}
	for _, s := range r.Statuses {
		w.Status(s)
	}
	if err := w.Err(); err != nil {
		return w.String(), err
	}
	return w.String(), nil
}
