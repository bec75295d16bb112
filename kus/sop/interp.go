package sop

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
)

// Intent is an admitted `intent` object.
type Intent struct {
	ID          string   // statement id
	Act         string   // one of kus.Acts
	Target      string   // what the task is about
	Output      string   // the expected output shape, e.g. comparative_recommendation
	Context     string   `json:",omitempty"`
	Criterion   string   `json:",omitempty"`
	Evidence    []string `json:",omitempty"`
	Format      string   `json:",omitempty"`
	Language    string   `json:",omitempty"`
	Constraints []string `json:",omitempty"` // from `constrain $intent "text"`, in order
}

// Seed is an admitted `seed $intent <mode> <action> ["focus"]` object.
type Seed struct {
	ID     string
	Intent string // statement id of the intent or subproblem
	Mode   string
	Action string
	Focus  string `json:",omitempty"`
}

// PluginRef is an admitted `plugin <type> <id>` object.
type PluginRef struct {
	ID       string
	Type     string // one of PluginTypes
	PluginID string
	Reason   string `json:",omitempty"`
}

// Object is an admitted object of the kinds without a dedicated type:
// subproblem, validate, policy, objective, candidate, compare, challenge,
// branch and result_record. Fields holds scalar fields (references as
// statement ids, numbers in canonical form), Lists the list fields;
// [Fields] tells the legal names per kind.
type Object struct {
	ID          string
	Kind        string
	Fields      map[string]string   `json:",omitempty"`
	Lists       map[string][]string `json:",omitempty"`
	Constraints []string            `json:",omitempty"` // from `constrain $obj "text"`
}

// Relation is an edge `@id <type> $from $to` (or a list of targets).
type Relation struct {
	ID   string
	Type string // one of RelationCommands
	From string
	To   []string
}

// Status is a `status`, `fail` or `deactivate` statement.
type Status struct {
	ID      string
	Command string // status, fail or deactivate
	Target  string
	Value   string // the status; failed for fail, deactivated for deactivate
	Reason  string `json:",omitempty"`
}

// Result is an admitted document.
type Result struct {
	Intents   []*Intent    `json:",omitempty"`
	Seeds     []*Seed      `json:",omitempty"`
	Plugins   []*PluginRef `json:",omitempty"`
	KUs       []*kus.KU    `json:",omitempty"`
	Objects   []*Object    `json:",omitempty"`
	Relations []*Relation  `json:",omitempty"`
	Statuses  []*Status    `json:",omitempty"`
	// Order holds the ids of all objects in definition order.
	Order []string `json:",omitempty"`
	// ByID maps an object id to its *Intent, *Seed, *PluginRef, *kus.KU or *Object.
	ByID map[string]any `json:"-"`
	// Lines maps every statement id to its line.
	Lines map[string]int `json:"-"`
}

// KindOf returns the kind of the object with statement id id, or "".
func (r *Result) KindOf(id string) string {
	switch o := r.ByID[id].(type) {
	case *Intent:
		return KindIntent
	case *Seed:
		return KindSeed
	case *PluginRef:
		return KindPlugin
	case *kus.KU:
		return KindKU
	case *Object:
		return o.Kind
	}
	return ""
}

// KU returns the KU declared by statement id, or nil.
func (r *Result) KU(id string) *kus.KU {
	k, _ := r.ByID[id].(*kus.KU)
	return k
}

// StatusOf returns the last status given to the object id ("" when none).
func (r *Result) StatusOf(id string) string {
	for i := len(r.Statuses) - 1; i >= 0; i-- {
		if r.Statuses[i].Target == id {
			return r.Statuses[i].Value
		}
	}
	return ""
}

// Active reports whether the object id exists and its last status is
// neither failed nor deactivated.
func (r *Result) Active(id string) bool {
	if _, ok := r.ByID[id]; !ok {
		return false
	}
	s := r.StatusOf(id)
	return s != "failed" && s != "deactivated"
}

// ActiveKUs returns the KUs whose last status is neither failed nor deactivated.
func (r *Result) ActiveKUs() []*kus.KU {
	out := make([]*kus.KU, 0, len(r.KUs))
	for _, id := range r.Order {
		if k, ok := r.ByID[id].(*kus.KU); ok && r.Active(id) {
			out = append(out, k)
		}
	}
	return out
}

// ObjectsOf returns the generic objects of one kind (for example validate or
// policy), in definition order.
func (r *Result) ObjectsOf(kind string) []*Object {
	var out []*Object
	for _, o := range r.Objects {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// RelationsFrom returns the relations of type typ (any type when "") that
// start at id.
func (r *Result) RelationsFrom(id, typ string) []*Relation {
	var out []*Relation
	for _, rel := range r.Relations {
		if rel.From == id && (typ == "" || rel.Type == typ) {
			out = append(out, rel)
		}
	}
	return out
}

// Interpret parses, validates and executes src with [DefaultLimits].
func Interpret(src string) (*Result, error) { return DefaultLimits.Interpret(src) }

// Interpret parses, validates and executes src. On any problem it returns a
// nil Result and an [Errors] list (at most MaxErrors entries plus a final
// sop_too_many_errors); a document is admitted only as a whole.
func (l Limits) Interpret(src string) (*Result, error) {
	c := &collector{max: l.MaxErrors}
	p, broken := l.parse(src, c)
	if c.full {
		return nil, c.err()
	}
	return l.run(p, broken, c)
}

// Run validates and executes an already parsed program with [DefaultLimits].
func Run(p *Program) (*Result, error) { return DefaultLimits.Run(p) }

// Run validates and executes an already parsed program (for example one
// built by hand). Errors are as for [Limits.Interpret].
func (l Limits) Run(p *Program) (*Result, error) {
	c := &collector{max: l.MaxErrors}
	if l.MaxStatements > 0 && len(p.Statements) > l.MaxStatements {
		c.fatal(0, "", CodeTooLarge, "%d statements, the limit is %d", len(p.Statements), l.MaxStatements)
		return nil, c.err()
	}
	return l.run(p, nil, c)
}

// obj is an object under construction. Field values are kept by the
// field's index in spec.fields; "" means unset (empty values are refused).
type obj struct {
	id, kind    string
	line        int
	spec        *kindSpec
	vals        []string
	setAt       []int
	lists       [][]string
	constraints []string
}

// get returns the value of a scalar field given by its canonical name.
func (o *obj) get(name string) string { return o.vals[o.spec.idx[name]] }

// has reports whether a scalar field given by its canonical name is set.
func (o *obj) has(name string) bool { return o.get(name) != "" }

// maps returns the set fields as maps (nil when none).
func (o *obj) maps() (map[string]string, map[string][]string) {
	var scal map[string]string
	var lists map[string][]string
	for i, f := range o.spec.fields {
		if v := o.vals[i]; v != "" {
			if scal == nil {
				scal = map[string]string{}
			}
			scal[f.name] = v
		}
		if l := o.lists[i]; len(l) > 0 {
			if lists == nil {
				lists = map[string][]string{}
			}
			lists[f.name] = l
		}
	}
	return scal, lists
}

type runner struct {
	c        *collector
	prog     *Program
	pc       int // index of the statement being executed
	objs     map[string]*obj
	order    []*obj
	poisoned map[string]bool
	kuIDs    map[string]string // KU id -> statement id
	rels     []*Relation
	stats    []*Status
	lines    map[string]int // id -> line of every statement executed so far
	st       *Statement
}

// command returns the command of the executed statement id.
func (r *runner) command(id string) string {
	for i := 0; i < r.pc; i++ {
		if r.prog.Statements[i].ID == id {
			return r.prog.Statements[i].Command
		}
	}
	return ""
}

// laterLine returns the line of a statement id after the current one, or 0.
func (r *runner) laterLine(id string) int {
	for i := r.pc + 1; i < len(r.prog.Statements); i++ {
		if r.prog.Statements[i].ID == id {
			return r.prog.Statements[i].Line
		}
	}
	return 0
}

func (l Limits) run(p *Program, broken map[string]bool, c *collector) (*Result, error) {
	r := &runner{
		c:        c,
		prog:     p,
		objs:     make(map[string]*obj, len(p.Statements)/4),
		poisoned: map[string]bool{},
		kuIDs:    map[string]string{},
		lines:    make(map[string]int, len(p.Statements)),
	}
	for id := range broken {
		r.poisoned[id] = true
	}
	for i := range p.Statements {
		if c.full {
			break
		}
		r.pc = i
		r.exec(&p.Statements[i])
	}
	if !c.full {
		r.finish()
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return r.result(), nil
}

func (r *runner) errf(col int, code Code, format string, args ...any) {
	r.c.add(r.st.Line, col, r.st.ID, code, format, args...)
}

func (r *runner) exec(st *Statement) {
	r.st = st
	if !IsID(st.ID) {
		r.errf(0, CodeSyntax, "bad id %q (ids match [A-Za-z0-9_:-]+)", st.ID)
		return
	}
	if line, dup := r.lines[st.ID]; dup {
		r.errf(0, CodeDuplicateID, "@%s is already used at line %d", st.ID, line)
		return
	}
	r.lines[st.ID] = st.Line
	switch {
	case kinds[st.Command] != nil:
		r.construct(st)
	case st.Command == "set":
		r.set(st)
	case slices.Contains(RelationCommands, st.Command):
		r.relation(st)
	case slices.Contains(StatusCommands, st.Command):
		r.status(st)
	default:
		r.poisoned[st.ID] = true
		r.errf(0, CodeUnknownCommand, "unknown command %q; commands: %s set %s %s", st.Command,
			strings.Join(Constructors, " "), strings.Join(RelationCommands, " "), strings.Join(StatusCommands, " "))
	}
}

// resolve checks a $ref argument. kinds restricts the object kinds (any
// object when empty). When the target is poisoned it returns false without
// reporting, and poisons the current statement.
func (r *runner) resolve(a Arg, kinds []string, what string) (*obj, bool) {
	if a.Kind != ArgRef {
		r.errf(a.Col, CodeBadValue, "%s must be a $reference, found %s %s", what, a.Kind, snippet(a.String()))
		return nil, false
	}
	id := a.Value
	if o := r.objs[id]; o != nil {
		if len(kinds) > 0 && !slices.Contains(kinds, o.kind) {
			r.errf(a.Col, CodeBadRef, "$%s is %s; %s must be %s", id, article(o.kind), what, article(strings.Join(kinds, " or ")))
			return nil, false
		}
		return o, true
	}
	if r.poisoned[id] {
		r.poisoned[r.st.ID] = true
		return nil, false
	}
	_, seen := r.lines[id]
	switch {
	case id == r.st.ID:
		r.errf(a.Col, CodeBadRef, "$%s refers to the statement itself", id)
	case seen:
		r.errf(a.Col, CodeBadRef, "$%s is a %s statement, not an object", id, r.command(id))
	case r.laterLine(id) > 0:
		r.errf(a.Col, CodeForwardRef, "$%s is defined later, at line %d; references must point to earlier statements", id, r.laterLine(id))
	default:
		r.errf(a.Col, CodeUnknownRef, "$%s is not defined", id)
	}
	r.poisoned[r.st.ID] = true
	return nil, false
}

func (r *runner) construct(st *Statement) {
	spec := kinds[st.Command]
	min := len(spec.params) - spec.optional
	if len(st.Args) < min || len(st.Args) > len(spec.params) {
		r.poisoned[st.ID] = true
		r.errf(0, CodeBadArity, "%s takes %s, got %d argument(s); usage: @%s %s", st.Command,
			arity(min, len(spec.params)), len(st.Args), st.ID, spec.usage(st.Command))
		return
	}
	n := len(spec.fields)
	o := &obj{id: st.ID, kind: st.Command, line: st.Line, spec: spec,
		vals: make([]string, n), setAt: make([]int, n), lists: make([][]string, n)}
	ok := true
	for i, a := range st.Args {
		f := &spec.fields[spec.idx[spec.params[i]]]
		vals, good := r.value(f, a)
		if good && st.Command == KindKU && f.name == "id" {
			if prev, dup := r.kuIDs[vals[0]]; dup {
				r.errf(a.Col, CodeDuplicateID, "KU id %q is already declared by @%s", vals[0], prev)
				good = false
			}
		}
		if !good {
			ok = false
			continue
		}
		r.assign(o, f, vals, a.Col)
	}
	if !ok {
		r.poisoned[st.ID] = true
		return
	}
	if st.Command == KindKU {
		r.kuIDs[o.get("id")] = st.ID
	}
	r.objs[st.ID] = o
	r.order = append(r.order, o)
}

// article prefixes a kind with a or an.
func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

func arity(min, max int) string {
	if min == max {
		return strconv.Itoa(min) + " argument(s)"
	}
	return strconv.Itoa(min) + " to " + strconv.Itoa(max) + " arguments"
}

func (r *runner) set(st *Statement) {
	if len(st.Args) != 3 {
		r.poisoned[st.ID] = true
		r.errf(0, CodeBadArity, "set takes 3 arguments, got %d; usage: @%s set $ref field value", len(st.Args), st.ID)
		return
	}
	o, ok := r.resolve(st.Args[0], nil, "the object of set")
	if !ok {
		return
	}
	fa := st.Args[1]
	if fa.Kind != ArgAtom {
		r.errf(fa.Col, CodeBadField, "the field of set must be a bare name, found %s %s", fa.Kind, snippet(fa.String()))
		return
	}
	fi := o.spec.index(fa.Value)
	if fi < 0 {
		hint := ""
		if o.spec.constrainable && strings.HasPrefix(strings.ToLower(fa.Value), "constrain") {
			hint = fmt.Sprintf(" (write `@x constrain $%s \"...\"` for a constraint)", o.id)
		}
		r.errf(fa.Col, CodeBadField, "%s has no field %q%s; fields: %s", o.kind, fa.Value, hint, o.spec.fieldNames())
		return
	}
	f := &o.spec.fields[fi]
	vals, ok := r.value(f, st.Args[2])
	if !ok {
		return
	}
	r.assign(o, f, vals, st.Args[2].Col)
}

// assign stores vals into o, checking duplicates and KU rules.
func (r *runner) assign(o *obj, f *fieldSpec, vals []string, col int) {
	if o.kind == KindKU {
		switch f.name {
		case "claim", "procedure":
			other := "procedure"
			if f.name == "procedure" {
				other = "claim"
			}
			if o.has(other) {
				r.errf(col, CodeClaimAndProcedure, "KU @%s already has a %s (line %d); a KU has exactly one of claim and procedure",
					o.id, other, o.setAt[o.spec.idx[other]])
				return
			}
		case "symbolicSubject", "symbolicRelation", "symbolicObject", "confidence":
			if o.get("kuType") != kus.TypeAtomic {
				r.errf(col, CodeBadField, "%s: symbolic facts belong to atomic KUs only, @%s is %s",
					f.name, o.id, o.get("kuType"))
				return
			}
		}
	}
	i := o.spec.idx[f.name]
	if f.list {
		o.lists[i] = append(o.lists[i], vals...)
		return
	}
	if o.vals[i] != "" {
		r.errf(col, CodeDuplicateField, "field %s of @%s is already set at line %d", f.name, o.id, o.setAt[i])
		return
	}
	o.vals[i] = vals[0]
	o.setAt[i] = r.st.Line
}

// value checks one argument against a field and returns its canonical values.
func (r *runner) value(f *fieldSpec, a Arg) ([]string, bool) {
	if a.Kind == ArgList {
		if !f.list {
			r.errf(a.Col, CodeBadValue, "%s takes one value, found a list", f.name)
			return nil, false
		}
		if len(a.Items) == 0 {
			r.errf(a.Col, CodeBadValue, "%s: empty list", f.name)
			return nil, false
		}
		out := make([]string, 0, len(a.Items))
		ok := true
		for _, it := range a.Items {
			v, good := r.scalar(f, it)
			ok = ok && good
			out = append(out, v)
		}
		return out, ok
	}
	v, ok := r.scalar(f, a)
	if !ok {
		return nil, false
	}
	return []string{v}, true
}

func (r *runner) scalar(f *fieldSpec, a Arg) (string, bool) {
	if f.kind == vRef {
		o, ok := r.resolve(a, f.refKinds, f.name)
		if !ok {
			return "", false
		}
		return o.id, true
	}
	if a.Kind != ArgAtom && a.Kind != ArgString {
		r.errf(a.Col, CodeBadValue, "%s takes text, found %s %s", f.name, a.Kind, snippet(a.String()))
		return "", false
	}
	s := a.Value
	if strings.TrimSpace(s) == "" {
		r.errf(a.Col, CodeBadValue, "%s: empty value", f.name)
		return "", false
	}
	switch f.kind {
	case vToken:
		if strings.ContainsFunc(s, unicode.IsSpace) {
			r.errf(a.Col, CodeBadValue, "%s: %s must be one word without spaces", f.name, snippet(s))
			return "", false
		}
	case vEnum:
		for _, e := range f.enum {
			if strings.EqualFold(e, s) {
				return e, true
			}
		}
		r.errf(a.Col, CodeBadValue, "%s: %s is not one of %s", f.name, snippet(s), strings.Join(f.enum, " "))
		return "", false
	case vNumber:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < f.min || v > f.max {
			if f.max < huge {
				r.errf(a.Col, CodeBadValue, "%s: %s is not a number in [%g, %g]", f.name, snippet(s), f.min, f.max)
			} else {
				r.errf(a.Col, CodeBadValue, "%s: %s is not a number", f.name, snippet(s))
			}
			return "", false
		}
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case vInt:
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			r.errf(a.Col, CodeBadValue, "%s: %s is not a non-negative integer", f.name, snippet(s))
			return "", false
		}
		return strconv.Itoa(v), true
	case vTime:
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			r.errf(a.Col, CodeBadValue, "%s: %s is not an RFC 3339 time", f.name, snippet(s))
			return "", false
		}
		return t.Format(time.RFC3339Nano), true
	}
	return s, true
}

func (r *runner) relation(st *Statement) {
	if len(st.Args) != 2 {
		r.poisoned[st.ID] = true
		r.errf(0, CodeBadArity, "%s takes 2 arguments, got %d; usage: @%s %s $from $to", st.Command, len(st.Args), st.ID, st.Command)
		return
	}
	from, ok := r.resolve(st.Args[0], nil, "the source of "+st.Command)
	if !ok {
		return
	}
	to := st.Args[1]
	if st.Command == "constrain" {
		if !from.spec.constrainable {
			r.errf(st.Args[0].Col, CodeBadRef, "$%s is %s; constrain applies to an intent, subproblem or objective", from.id, article(from.kind))
			return
		}
		if to.Kind == ArgAtom || to.Kind == ArgString {
			if strings.TrimSpace(to.Value) == "" {
				r.errf(to.Col, CodeBadValue, "constrain: empty constraint")
				return
			}
			from.constraints = append(from.constraints, to.Value)
			return
		}
	}
	var targets []Arg
	switch to.Kind {
	case ArgRef:
		targets = []Arg{to}
	case ArgList:
		targets = to.Items
		if len(targets) == 0 {
			r.errf(to.Col, CodeBadValue, "%s: empty list of targets", st.Command)
			return
		}
	default:
		r.errf(to.Col, CodeBadValue, "the target of %s must be a $reference or a list of them, found %s %s",
			st.Command, to.Kind, snippet(to.String()))
		return
	}
	rel := &Relation{ID: st.ID, Type: st.Command, From: from.id}
	ok = true
	for _, t := range targets {
		o, good := r.resolve(t, nil, "the target of "+st.Command)
		if !good {
			ok = false
			continue
		}
		if o == from {
			r.errf(t.Col, CodeBadRef, "%s: $%s cannot relate to itself", st.Command, o.id)
			ok = false
			continue
		}
		rel.To = append(rel.To, o.id)
	}
	if !ok {
		r.poisoned[st.ID] = true
		return
	}
	r.rels = append(r.rels, rel)
}

func (r *runner) status(st *Statement) {
	min, max := 1, 2
	if st.Command == "status" {
		min, max = 2, 3
	}
	if len(st.Args) < min || len(st.Args) > max {
		r.poisoned[st.ID] = true
		usage := st.Command + ` $ref ["reason"]`
		if st.Command == "status" {
			usage = `status $ref <value> ["reason"]`
		}
		r.errf(0, CodeBadArity, "%s takes %s, got %d; usage: @%s %s", st.Command, arity(min, max), len(st.Args), st.ID, usage)
		return
	}
	o, ok := r.resolve(st.Args[0], nil, "the object of "+st.Command)
	if !ok {
		return
	}
	s := &Status{ID: st.ID, Command: st.Command, Target: o.id}
	rest := st.Args[1:]
	switch st.Command {
	case "status":
		v, ok := r.scalar(&fieldSpec{name: "status", kind: vToken}, rest[0])
		if !ok {
			return
		}
		s.Value = v
		rest = rest[1:]
	case "fail":
		s.Value = "failed"
	case "deactivate":
		s.Value = "deactivated"
	}
	if len(rest) > 0 {
		v, ok := r.scalar(&fieldSpec{name: "reason", kind: vText}, rest[0])
		if !ok {
			return
		}
		s.Reason = v
	}
	r.stats = append(r.stats, s)
}

// finish runs the end-of-document checks.
func (r *runner) finish() {
	for _, o := range r.order {
		r.st = &Statement{Line: o.line, ID: o.id}
		for _, name := range o.spec.required {
			if !o.has(name) {
				r.errf(0, CodeMissingField, "%s @%s has no %s; add `@<id> set $%s %s <value>`", o.kind, o.id, name, o.id, name)
			}
		}
		if o.kind != KindKU {
			continue
		}
		if !o.has("claim") && !o.has("procedure") {
			r.errf(0, CodeMissingField, "ku @%s has neither claim nor procedure; a KU has exactly one of them", o.id)
		}
		n := 0
		for _, f := range []string{"symbolicSubject", "symbolicRelation", "symbolicObject"} {
			if o.has(f) {
				n++
			}
		}
		if n != 0 && n != 3 {
			r.errf(0, CodePartialFact, "ku @%s sets %d of symbolicSubject, symbolicRelation, symbolicObject; a symbolic fact is all or nothing", o.id, n)
		} else if o.has("confidence") && n == 0 {
			r.errf(0, CodePartialFact, "ku @%s has a confidence but no symbolic fact", o.id)
		}
	}
}

func (r *runner) result() *Result {
	res := &Result{ByID: make(map[string]any, len(r.order)), Lines: r.lines,
		Relations: r.rels, Statuses: r.stats}
	for _, o := range r.order {
		res.Order = append(res.Order, o.id)
		switch o.kind {
		case KindIntent:
			in := &Intent{ID: o.id, Act: o.get("act"), Target: o.get("target"), Output: o.get("output"),
				Context: o.get("context"), Criterion: o.get("criterion"), Evidence: o.lists[o.spec.idx["evidence"]],
				Format: o.get("format"), Language: o.get("language"), Constraints: o.constraints}
			res.Intents = append(res.Intents, in)
			res.ByID[o.id] = in
		case KindSeed:
			s := &Seed{ID: o.id, Intent: o.get("intent"), Mode: o.get("mode"), Action: o.get("action"), Focus: o.get("focus")}
			res.Seeds = append(res.Seeds, s)
			res.ByID[o.id] = s
		case KindPlugin:
			p := &PluginRef{ID: o.id, Type: o.get("type"), PluginID: o.get("pluginId"), Reason: o.get("reason")}
			res.Plugins = append(res.Plugins, p)
			res.ByID[o.id] = p
		case KindKU:
			k := kuFrom(o)
			res.KUs = append(res.KUs, k)
			res.ByID[o.id] = k
		default:
			g := &Object{ID: o.id, Kind: o.kind, Constraints: o.constraints}
			g.Fields, g.Lists = o.maps()
			res.Objects = append(res.Objects, g)
			res.ByID[o.id] = g
		}
	}
	// parent and derived_from between KUs fill the KU hierarchy fields.
	for _, rel := range r.rels {
		from := res.KU(rel.From)
		if from == nil {
			continue
		}
		for _, t := range rel.To {
			to := res.KU(t)
			if to == nil {
				continue
			}
			switch rel.Type {
			case "parent":
				from.ParentUnitIDs = appendNew(from.ParentUnitIDs, to.ID)
				to.ChildUnitIDs = appendNew(to.ChildUnitIDs, from.ID)
			case "derived_from":
				from.DerivedFromUnitIDs = appendNew(from.DerivedFromUnitIDs, to.ID)
			}
		}
	}
	return res
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func intentFields(in *Intent) (map[string]string, map[string][]string) {
	return map[string]string{"act": in.Act, "target": in.Target, "output": in.Output, "context": in.Context,
			"criterion": in.Criterion, "format": in.Format, "language": in.Language},
		map[string][]string{"evidence": in.Evidence}
}

// kuStr returns the string field of k named by a KU field, or nil.
func kuStr(k *kus.KU, name string) *string {
	switch name {
	case "kuType":
		return &k.KUType
	case "id":
		return &k.ID
	case "level":
		return &k.Level
	case "title":
		return &k.Title
	case "role":
		return &k.Role
	case "topic":
		return &k.Topic
	case "claim":
		return &k.Claim
	case "procedure":
		return &k.Procedure
	case "condition":
		return &k.Condition
	case "textBody":
		return &k.TextBody
	case "symbolicSubject":
		return &k.SymbolicSubject
	case "symbolicRelation":
		return &k.SymbolicRelation
	case "symbolicObject":
		return &k.SymbolicObject
	case "sourceId":
		return &k.SourceID
	case "sourceName":
		return &k.SourceName
	case "sourceType":
		return &k.SourceType
	case "chunkId":
		return &k.ChunkID
	case "utilityNote":
		return &k.UtilityNote
	}
	return nil
}

func kuList(k *kus.KU, name string) *[]string {
	switch name {
	case "tags":
		return &k.Tags
	case "parentUnitIds":
		return &k.ParentUnitIDs
	case "childUnitIds":
		return &k.ChildUnitIDs
	case "derivedFromUnitIds":
		return &k.DerivedFromUnitIDs
	case "utilityActs":
		return &k.UtilityActs
	case "phaseScopes":
		return &k.PhaseScopes
	}
	return nil
}

func kuInt(k *kus.KU, name string) *int {
	switch name {
	case "chunkIndex":
		return &k.ChunkIndex
	case "unitIndex":
		return &k.UnitIndex
	case "charStart":
		return &k.CharStart
	case "charEnd":
		return &k.CharEnd
	}
	return nil
}

// kuFrom builds a KU from checked fields and applies the defaults:
// utilityActs from the role, phaseScopes [kb-plugin].
func kuFrom(o *obj) *kus.KU {
	k := &kus.KU{}
	for i, f := range o.spec.fields {
		if l := o.lists[i]; len(l) > 0 {
			if p := kuList(k, f.name); p != nil {
				*p = l
			}
			continue
		}
		v, name := o.vals[i], f.name
		if v == "" {
			continue
		}
		if p := kuStr(k, name); p != nil {
			*p = v
		} else if p := kuInt(k, name); p != nil {
			*p, _ = strconv.Atoi(v)
		} else if name == "confidence" {
			f, _ := strconv.ParseFloat(v, 64)
			k.Confidence = &f
		} else if name == "ingestedAt" {
			k.IngestedAt, _ = time.Parse(time.RFC3339Nano, v)
		}
	}
	if len(k.UtilityActs) == 0 {
		k.UtilityActs = kus.ActsForRole(k.Role)
	}
	if len(k.PhaseScopes) == 0 {
		k.PhaseScopes = []string{"kb-plugin"}
	}
	return k
}

// kuFieldValues returns the SOP fields of k (zero values left out).
func kuFieldValues(k *kus.KU) (map[string]string, map[string][]string) {
	scal := map[string]string{}
	lists := map[string][]string{}
	for _, f := range kuFields {
		if p := kuStr(k, f.name); p != nil {
			scal[f.name] = *p
		} else if p := kuInt(k, f.name); p != nil {
			if *p != 0 {
				scal[f.name] = strconv.Itoa(*p)
			}
		} else if p := kuList(k, f.name); p != nil {
			lists[f.name] = *p
		}
	}
	if k.Confidence != nil {
		scal["confidence"] = strconv.FormatFloat(*k.Confidence, 'g', -1, 64)
	}
	if !k.IngestedAt.IsZero() {
		scal["ingestedAt"] = k.IngestedAt.Format(time.RFC3339Nano)
	}
	return scal, lists
}
