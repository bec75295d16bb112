package sop

import (
	"strings"

	"github.com/mrpvm/mrpvm/kus"
)

// Kinds of objects, one per constructor command.
const (
	KindIntent       = "intent"
	KindSeed         = "seed"
	KindSubproblem   = "subproblem"
	KindPlugin       = "plugin"
	KindKU           = "ku"
	KindValidate     = "validate"
	KindPolicy       = "policy"
	KindObjective    = "objective"
	KindCandidate    = "candidate"
	KindCompare      = "compare"
	KindChallenge    = "challenge"
	KindBranch       = "branch"
	KindResultRecord = "result_record"
)

// Constructors lists the constructor commands in their documented order
// (the order error messages and completion list them in).
var Constructors = []string{KindIntent, KindSeed, KindSubproblem, KindPlugin, KindKU, KindValidate,
	KindPolicy, KindObjective, KindCandidate, KindCompare, KindChallenge, KindBranch, KindResultRecord}

// RelationCommands lists the relation commands: `<relation> $from $to`, $to
// being a reference or a list of references (constrain also takes text).
var RelationCommands = []string{"constrain", "allows", "needs", "uses", "supports", "describes",
	"parent", "derived_from", "split_from", "result"}

// StatusCommands lists the status commands: `status $ref <value>
// ["reason"]`, `fail $ref ["reason"]`, `deactivate $ref ["reason"]`.
var StatusCommands = []string{"status", "fail", "deactivate"}

// PluginTypes lists the plugin types accepted by `plugin <type> <id>`.
var PluginTypes = []string{"sd-plugin", "kb-plugin", "gs-plugin", "val-plugin", "mrp-plan-plugin"}

// KUTypes lists the KU types accepted by `ku <kuType> "<kuId>"`.
var KUTypes = []string{kus.TypeAtomic, kus.TypeComposite, kus.TypeAggregate}

// KULevels lists the values of a KU's level field.
var KULevels = []string{kus.LevelSummary, kus.LevelSection, kus.LevelLeaf}

// SourceTypes lists the values of a KU's sourceType field.
var SourceTypes = []string{kus.SourceMarkdown, kus.SourcePlainText, kus.SourceLegal, kus.SourceLiterary,
	kus.SourceTechnical, kus.SourceChatTurn}

// vkind is the shape of a field value.
type vkind int

const (
	vText   vkind = iota // any non-empty text (atom or string)
	vToken               // non-empty text without whitespace
	vEnum                // one of enum, matched case-insensitively, stored canonical
	vNumber              // a decimal number within [min, max]
	vInt                 // a non-negative integer
	vTime                // RFC 3339 time
	vRef                 // $id of an object of one of refKinds (any object when empty)
)

type fieldSpec struct {
	name     string
	kind     vkind
	list     bool
	enum     []string
	refKinds []string
	min, max float64
	// bare marks identifier-like text the Writer leaves unquoted when it
	// can; other free text is always quoted.
	bare bool
}

type kindSpec struct {
	params   []string // fields filled by positional arguments, in order
	optional int      // how many trailing params may be left out
	fields   []fieldSpec
	required []string
	// constrainable kinds keep `constrain $x "text"` as a constraints list.
	constrainable bool

	idx  map[string]int // field name -> index in fields
	fold map[string]int // lower-case field name -> index in fields
}

func init() {
	for _, k := range kinds {
		k.idx = make(map[string]int, len(k.fields))
		k.fold = make(map[string]int, len(k.fields))
		for i, f := range k.fields {
			k.idx[f.name] = i
			k.fold[strings.ToLower(f.name)] = i
		}
	}
}

// index returns the index of the field called name (matched
// case-insensitively), or -1.
func (k *kindSpec) index(name string) int {
	if i, ok := k.idx[name]; ok {
		return i
	}
	if i, ok := k.fold[strings.ToLower(name)]; ok {
		return i
	}
	return -1
}

func (k *kindSpec) field(name string) *fieldSpec {
	if i := k.index(name); i >= 0 {
		return &k.fields[i]
	}
	return nil
}

func (k *kindSpec) fieldNames() string {
	names := make([]string, len(k.fields))
	for i, f := range k.fields {
		names[i] = f.name
	}
	return strings.Join(names, " ")
}

func (k *kindSpec) usage(kind string) string {
	var b strings.Builder
	b.WriteString(kind)
	for i, p := range k.params {
		f := k.field(p)
		b.WriteByte(' ')
		opt := i >= len(k.params)-k.optional
		if opt {
			b.WriteByte('[')
		}
		switch f.kind {
		case vRef:
			b.WriteString("$" + p)
		case vText:
			b.WriteString(`"` + p + `"`)
		default:
			b.WriteString("<" + p + ">")
		}
		if opt {
			b.WriteByte(']')
		}
	}
	return b.String()
}

func text(name string) fieldSpec  { return fieldSpec{name: name, kind: vText} }
func token(name string) fieldSpec { return fieldSpec{name: name, kind: vToken} }
func number(name string, min, max float64) fieldSpec {
	return fieldSpec{name: name, kind: vNumber, min: min, max: max}
}
func enum(name string, values []string) fieldSpec {
	return fieldSpec{name: name, kind: vEnum, enum: values}
}
func ref(name string, kinds ...string) fieldSpec {
	return fieldSpec{name: name, kind: vRef, refKinds: kinds}
}
func list(f fieldSpec) fieldSpec { f.list = true; return f }
func bare(f fieldSpec) fieldSpec { f.bare = true; return f }

const huge = 1e300

// kuFields are the settable KU fields, in the order the Writer emits them.
// Names are the JSON names of kus.KU. id and kuType come from the constructor;
// hash and range are computed by the engine, not written in SOP.
var kuFields = []fieldSpec{
	enum("kuType", KUTypes), // constructor param
	text("id"),              // constructor param; ids derive from paths, which may hold spaces
	bare(text("sourceId")),
	bare(text("chunkId")),
	enum("role", kus.Roles),
	text("topic"),
	text("title"),
	text("claim"),
	text("procedure"),
	text("condition"),
	text("textBody"),
	list(text("tags")),
	bare(text("symbolicSubject")),
	enum("symbolicRelation", kus.Relations),
	bare(text("symbolicObject")),
	number("confidence", 0, 1),
	enum("level", KULevels),
	text("sourceName"),
	enum("sourceType", SourceTypes),
	{name: "chunkIndex", kind: vInt},
	{name: "unitIndex", kind: vInt},
	{name: "charStart", kind: vInt},
	{name: "charEnd", kind: vInt},
	{name: "ingestedAt", kind: vTime},
	list(bare(text("parentUnitIds"))),
	list(bare(text("childUnitIds"))),
	list(bare(text("derivedFromUnitIds"))),
	list(enum("utilityActs", kus.Acts)),
	list(enum("phaseScopes", kus.PhaseScopeValues)),
	text("utilityNote"),
}

var kinds = map[string]*kindSpec{
	KindIntent: {
		params: []string{"act", "target"},
		fields: []fieldSpec{enum("act", kus.Acts), text("target"), text("context"), token("output"),
			text("criterion"), list(bare(text("evidence"))), text("format"), token("language")},
		required:      []string{"output"},
		constrainable: true,
	},
	KindSeed: {
		params: []string{"intent", "mode", "action", "focus"}, optional: 1,
		fields: []fieldSpec{ref("intent", KindIntent, KindSubproblem), token("mode"), token("action"),
			text("focus")},
	},
	KindSubproblem: {
		params: []string{"parent", "text"},
		fields: []fieldSpec{ref("parent", KindIntent, KindSubproblem), text("text"), enum("act", kus.Acts),
			token("output"), text("criterion")},
		constrainable: true,
	},
	KindPlugin: {
		params: []string{"type", "pluginId"},
		fields: []fieldSpec{enum("type", PluginTypes), token("pluginId"), text("reason")},
	},
	KindKU: {
		params: []string{"kuType", "id"},
		fields: kuFields,
		// claim xor procedure and the symbolic fact are checked separately.
		required: []string{"sourceId", "chunkId", "role", "topic"},
	},
	KindValidate: {
		params: []string{"mode"},
		fields: []fieldSpec{token("mode"), ref("target"), text("rule"), text("criterion"), token("plugin")},
	},
	KindPolicy: {
		params: []string{"name", "text"}, optional: 1,
		fields: []fieldSpec{token("name"), text("text"), text("value"), list(enum("phaseScopes", kus.PhaseScopeValues))},
	},
	KindObjective: {
		params:        []string{"text"},
		fields:        []fieldSpec{text("text"), token("metric"), ref("target"), text("criterion")},
		constrainable: true,
	},
	KindCandidate: {
		params: []string{"target", "text"}, optional: 1,
		fields: []fieldSpec{ref("target"), text("text"), token("plugin"), number("score", -huge, huge)},
	},
	KindCompare: {
		params: []string{"a", "b"},
		fields: []fieldSpec{ref("a"), ref("b"), text("criterion"), ref("winner")},
	},
	KindChallenge: {
		params: []string{"target", "text"},
		fields: []fieldSpec{ref("target"), text("text"), token("severity")},
	},
	KindBranch: {
		params: []string{"from", "label"}, optional: 1,
		fields: []fieldSpec{ref("from"), text("label"), text("reason")},
	},
	KindResultRecord: {
		params: []string{"target", "status"},
		fields: []fieldSpec{ref("target"), token("status"), text("text"), number("score", -huge, huge), token("plugin")},
	},
}

// Fields returns the names of the fields `set` accepts for a kind (in the
// Writer's order), or nil for an unknown kind.
func Fields(kind string) []string {
	k := kinds[kind]
	if k == nil {
		return nil
	}
	out := make([]string, 0, len(k.fields))
	for _, f := range k.fields {
		out = append(out, f.name)
	}
	return out
}
