package kus

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// The binary form of a KU is how the knowledge base stores it: a version
// byte, then every field in declaration order, strings and lists as a
// uvarint length followed by their bytes, integers as varints. It is about
// a third smaller than the JSON form (no field names, no escaping) and
// several times faster to write and to read. The JSON form (which starts
// with '{') is still read, so older stores stay readable.
//
// Version 2 stores text a KU repeats only once. Each of the copyable
// fields (title, topic, claim, procedure, text body, chunk id) is either
// literal or a copy: a prefix of another field plus a literal suffix. The
// other field is one of the KU's own literal fields (a claim is usually
// the start of the body, the topic the title), or, in the form EncodeUnits
// writes for the KUs of one source, a literal field of another KU of the
// same source (a summary and its only section repeat the opening of the
// leaf they aggregate). Copies never point at copies. The hash is kept as
// 32 raw bytes when it is lower-case hex.

// Versions of the binary form (its first byte).
const (
	codecVersion  = 1
	codecVersion2 = 2
)

// ErrBadEncoding reports bytes that are neither form of a KU.
var ErrBadEncoding = errors.New("kus: undecodable KU")

// Copyable fields of the version 2 form, by index; refID is the KU id,
// which can be copied from but is always literal.
const (
	refTitle = iota
	refTopic
	refClaim
	refProcedure
	refTextBody
	refChunkID
	refID
	numRefFields
)

// refField returns the copyable field i of k.
func (k *KU) refField(i int) *string {
	switch i {
	case refTitle:
		return &k.Title
	case refTopic:
		return &k.Topic
	case refClaim:
		return &k.Claim
	case refProcedure:
		return &k.Procedure
	case refTextBody:
		return &k.TextBody
	case refChunkID:
		return &k.ChunkID
	case refID:
		return &k.ID
	}
	return nil
}

// Modes of a copyable field (the low two bits of its header).
const (
	modeLiteral = 0
	modeSelf    = 1 // prefix of a literal field of the same KU
	modeOther   = 2 // prefix of a literal field of another KU of the source
)

// fieldRef says how a copyable field is stored.
type fieldRef struct {
	mode  int
	id    string // modeOther: the KU copied from
	field int    // the field copied from
	n     int    // length of the prefix copied
}

// minCopy is the shortest prefix worth a copy.
const minCopy = 16

// AppendBinary appends the binary form of k to b. Copies only point at
// k's own fields; EncodeUnits also shares text between KUs.
func (k *KU) AppendBinary(b []byte) []byte {
	var refs [numRefFields]fieldRef
	selfRefs(k, &refs)
	return k.appendV2(b, &refs)
}

// selfRefs picks copies of k's own literal fields for the fields of refs
// still literal, deciding them in the order of copyOrder.
func selfRefs(k *KU, refs *[numRefFields]fieldRef) {
	for _, f := range copyOrder {
		v := *k.refField(f)
		if len(v) < minCopy || refs[f].mode != modeLiteral || f == refID {
			continue
		}
		best, bestN := -1, minCopy-1
		for _, g := range copyOrder {
			if g == f || refs[g].mode != modeLiteral || (g != refID && decidedAfter(g, f)) {
				continue
			}
			if n := text.CommonPrefix(v, *k.refField(g)); n > bestN {
				best, bestN = g, n
			}
		}
		if best >= 0 {
			refs[f] = fieldRef{mode: modeSelf, field: best, n: bestN}
		}
	}
}

// copyOrder is the order fields are decided in: the body first (it holds
// most text), the id last (always literal, never copied).
var copyOrder = [...]int{refTextBody, refTitle, refTopic, refClaim, refProcedure, refChunkID, refID}

// decidedAfter reports whether field g is decided after field f.
func decidedAfter(g, f int) bool {
	for _, x := range copyOrder {
		if x == f {
			return true
		}
		if x == g {
			return false
		}
	}
	return false
}

// appendV2 appends the version 2 form of k with the given copies.
func (k *KU) appendV2(b []byte, refs *[numRefFields]fieldRef) []byte {
	w := recordWriter{b: b}
	ref := func(f int) {
		v := *k.refField(f)
		r := refs[f]
		switch r.mode {
		case modeLiteral:
			w.b = binary.AppendUvarint(w.b, uint64(len(v))<<2|modeLiteral)
			w.b = append(w.b, v...)
			return
		case modeSelf:
			w.b = binary.AppendUvarint(w.b, uint64(r.n)<<2|modeSelf)
		case modeOther:
			w.b = binary.AppendUvarint(w.b, uint64(r.n)<<2|modeOther)
			w.str(r.id)
		}
		w.b = append(w.b, byte(r.field))
		w.str(v[r.n:])
	}
	w.b = append(w.b, codecVersion2)
	w.str(k.ID)
	w.str(k.KUType)
	w.str(k.Level)
	ref(refTitle)
	w.str(k.Role)
	ref(refTopic)
	ref(refClaim)
	ref(refProcedure)
	w.str(k.Condition)
	ref(refTextBody)
	w.list(k.Tags)
	w.str(k.SymbolicSubject)
	w.str(k.SymbolicRelation)
	w.str(k.SymbolicObject)
	if k.Confidence == nil {
		w.b = append(w.b, 0)
	} else {
		w.b = append(w.b, 1)
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(*k.Confidence))
	}
	w.list(k.ParentUnitIDs)
	w.list(k.ChildUnitIDs)
	w.list(k.DerivedFromUnitIDs)
	w.str(k.SourceID)
	w.str(k.SourceName)
	w.str(k.SourceType)
	ref(refChunkID)
	w.num(k.ChunkIndex)
	w.num(k.UnitIndex)
	w.num(k.CharStart)
	w.num(k.CharEnd)
	if k.IngestedAt.IsZero() {
		w.b = append(w.b, 0)
	} else {
		t, err := k.IngestedAt.MarshalBinary()
		if err != nil { // a zone offset that is not whole minutes
			t, _ = k.IngestedAt.UTC().MarshalBinary()
		}
		w.b = append(w.b, byte(len(t)))
		w.b = append(w.b, t...)
	}
	w.num(k.Range.StartLine)
	w.num(k.Range.StartCol)
	w.num(k.Range.EndLine)
	w.num(k.Range.EndCol)
	w.list(k.UtilityActs)
	w.list(k.PhaseScopes)
	w.str(k.UtilityNote)
	if raw, ok := rawHash(k.Hash); ok {
		w.b = append(w.b, 1)
		w.b = append(w.b, raw[:]...)
	} else {
		w.b = append(w.b, 0)
		w.str(k.Hash)
	}
	return w.b
}

// recordWriter appends the parts of a binary KU record: strings and lists
// of strings length-prefixed (uvarint), numbers as varints. internal/bindec
// reads them back.
type recordWriter struct {
	b []byte
}

func (w *recordWriter) str(s string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *recordWriter) list(l []string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(l)))
	for _, s := range l {
		w.str(s)
	}
}

func (w *recordWriter) num(n int) { w.b = binary.AppendVarint(w.b, int64(n)) }

// rawHash decodes a lower-case hex SHA-256.
func rawHash(h string) (raw [32]byte, ok bool) {
	if len(h) != 64 {
		return raw, false
	}
	for i := range raw {
		hi, ok1 := hexDigit(h[2*i])
		lo, ok2 := hexDigit(h[2*i+1])
		if !ok1 || !ok2 {
			return raw, false
		}
		raw[i] = hi<<4 | lo
	}
	return raw, true
}

// hexDigit decodes a lower-case hex digit.
func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// MarshalBinary returns the binary form of k.
func (k *KU) MarshalBinary() ([]byte, error) {
	return k.AppendBinary(make([]byte, 0, k.binarySize())), nil
}

// EncodeUnits returns the binary form of each of a source's units (a
// document's Units), sharing text between them: a field may be stored as
// a copy of a literal field of another unit of the list. Such a form must
// be read with UnmarshalBinaryFrom, and stays readable as long as the
// units it copies from are stored with it (the knowledge base writes and
// deletes a source's units together). Only units whose id starts with
// their source id and "::" (the ids the Markdown reader gives) copy from
// one another, so a Context Unit's free-form id can never be a target.
func EncodeUnits(units []*KU) [][]byte {
	refs := make([][numRefFields]fieldRef, len(units))
	var idx targetIndex
	for i, u := range units {
		r := &refs[i]
		shared := sharesText(units, i)
		if shared && idx.n > 0 {
			for _, f := range copyOrder[:numCrossFields] {
				v := *u.refField(f)
				if len(v) < minCopy {
					continue
				}
				best, bestN := target{-1, -1}, 0
				idx.each(v[:minCopy], func(t target) {
					if units[t.unit].SourceID != u.SourceID {
						return
					}
					if n := text.CommonPrefix(v, *units[t.unit].refField(t.field)); n > bestN {
						best, bestN = t, n
					}
				})
				// A copy from another unit costs that unit's id.
				if best.unit >= 0 && bestN-len(units[best.unit].ID)-2 >= minCopy {
					r[f] = fieldRef{mode: modeOther, id: units[best.unit].ID, field: best.field, n: bestN}
				}
			}
		}
		selfRefs(u, r) // among the fields still literal
		if shared {
			for _, f := range [...]int{refTextBody, refTitle} {
				if v := *u.refField(f); r[f].mode == modeLiteral && len(v) >= minCopy {
					idx.add(v[:minCopy], target{i, f})
				}
			}
		}
	}
	size := 0
	for i, u := range units {
		size += u.sizeV2(&refs[i])
	}
	buf := make([]byte, 0, size)
	out := make([][]byte, len(units))
	for i, u := range units {
		start := len(buf)
		buf = u.appendV2(buf, &refs[i])
		out[i] = buf[start:len(buf):len(buf)]
	}
	return out
}

// numCrossFields is how many fields of copyOrder may copy another unit's.
const numCrossFields = 5

// sharesText reports whether units[i] may copy from, or be copied by,
// other units: its id starts with its source id and "::" (the Markdown
// reader's ids), and no other unit of the list repeats it (the stored one
// would be the last).
func sharesText(units []*KU, i int) bool {
	u := units[i]
	if len(u.ID) <= len(u.SourceID)+2 || !strings.HasPrefix(u.ID, u.SourceID) || u.ID[len(u.SourceID):len(u.SourceID)+2] != "::" {
		return false
	}
	for j, o := range units {
		if j != i && o.ID == u.ID {
			return false
		}
	}
	return true
}

// target is a literal field of a unit that others may copy.
type target struct {
	unit  int
	field int
}

// targetIndex finds targets by their first minCopy bytes: a list while
// small, a map once a document has many units.
type targetIndex struct {
	n    int
	list []indexed
	m    map[string][]target
}

type indexed struct {
	key string
	t   target
}

// maxTargetsPerKey bounds the targets tried for one field.
const maxTargetsPerKey = 4

func (x *targetIndex) add(key string, t target) {
	x.n++
	if x.m == nil && len(x.list) < 64 {
		x.list = append(x.list, indexed{key, t})
		return
	}
	if x.m == nil {
		x.m = map[string][]target{}
		for _, e := range x.list {
			x.m[e.key] = append(x.m[e.key], e.t)
		}
		x.list = nil
	}
	if l := x.m[key]; len(l) < maxTargetsPerKey {
		x.m[key] = append(l, t)
	}
}

func (x *targetIndex) each(key string, fn func(target)) {
	if x.m != nil {
		for _, t := range x.m[key] {
			fn(t)
		}
		return
	}
	tried := 0
	for _, e := range x.list {
		if e.key == key && tried < maxTargetsPerKey {
			fn(e.t)
			tried++
		}
	}
}

// sizeV2 bounds the size of the version 2 form with the given copies.
func (k *KU) sizeV2(refs *[numRefFields]fieldRef) int {
	n := k.binarySize()
	for f := range refs {
		if r := refs[f]; r.mode != modeLiteral {
			n += len(r.id) + 8 - r.n
		}
	}
	return n
}

// binarySize estimates the size of the binary form.
func (k *KU) binarySize() int {
	n := 96 + len(k.ID) + len(k.KUType) + len(k.Level) + len(k.Title) + len(k.Role) + len(k.Topic) +
		len(k.Claim) + len(k.Procedure) + len(k.Condition) + len(k.TextBody) + len(k.SymbolicSubject) +
		len(k.SymbolicRelation) + len(k.SymbolicObject) + len(k.SourceID) + len(k.SourceName) +
		len(k.SourceType) + len(k.ChunkID) + len(k.UtilityNote) + len(k.Hash)
	for _, l := range [][]string{k.Tags, k.ParentUnitIDs, k.ChildUnitIDs, k.DerivedFromUnitIDs, k.UtilityActs, k.PhaseScopes} {
		for _, s := range l {
			n += len(s) + 2
		}
	}
	return n
}

// ErrUnresolved reports a version 2 form that copies text from another
// KU, read without a way to fetch it (UnmarshalBinary instead of
// UnmarshalBinaryFrom).
var ErrUnresolved = errors.New("kus: KU copies text from another KU")

// UnmarshalBinary decodes any form of a KU into k (replacing it).
// Malformed input is an error wrapping ErrBadEncoding, never a panic; a
// form written by EncodeUnits that copies from another KU needs
// UnmarshalBinaryFrom.
func (k *KU) UnmarshalBinary(data []byte) error {
	return k.UnmarshalBinaryFrom(data, nil)
}

// UnmarshalBinaryFrom decodes any form of a KU into k (replacing it);
// get returns the stored form of another KU by id (nil when absent), for
// the fields copied from it.
func (k *KU) UnmarshalBinaryFrom(data []byte, get func(id string) []byte) error {
	if len(data) > 0 && data[0] == codecVersion2 {
		var u KU
		var refs [numRefFields]pendingRef
		if err := u.decodeV2(data, &refs); err != nil {
			return err
		}
		if err := u.resolve(&refs, get); err != nil {
			return err
		}
		*k = u
		return nil
	}
	return k.unmarshalV1(data)
}

// pendingRef is a copied field read but not yet filled in.
type pendingRef struct {
	mode   int
	id     string
	field  int
	n      int
	suffix string
}

// decodeV2 reads the version 2 form; copied fields are left in refs.
func (k *KU) decodeV2(data []byte, refs *[numRefFields]pendingRef) error {
	d := decoder{bindec.Decoder{B: data[1:]}}
	u := k
	ref := func(f int) {
		h := d.Uvarint()
		mode, n := int(h&3), h>>2
		if mode > modeOther || n > uint64(len(data))<<8 {
			d.Bad, d.B = true, nil
			return
		}
		switch mode {
		case modeLiteral:
			if n > uint64(len(d.B)) {
				d.Bad, d.B = true, nil
				return
			}
			*u.refField(f) = string(d.Bytes(n))
			return
		case modeOther:
			refs[f].id = d.Str()
		}
		refs[f].mode = mode
		refs[f].n = int(n)
		refs[f].field = int(d.Byte())
		refs[f].suffix = d.Str()
	}
	if err := d.fields(u, ref); err != nil {
		return err
	}
	if d.Byte() == 1 {
		u.Hash = hex.EncodeToString(d.Bytes(32))
	} else {
		u.Hash = d.Str()
	}
	if d.Bad || len(d.B) != 0 {
		return fmt.Errorf("%w: truncated or trailing bytes", ErrBadEncoding)
	}
	return nil
}

// resolve fills in the copied fields: first those copied from other KUs
// (each read once), then those copied from k's own literal fields.
func (k *KU) resolve(refs *[numRefFields]pendingRef, get func(id string) []byte) error {
	var other KU
	var otherRefs [numRefFields]pendingRef
	otherID := ""
	fill := func(f int, from *KU, fromRefs *[numRefFields]pendingRef) error {
		r := &refs[f]
		if r.field < 0 || r.field >= numRefFields || fromRefs[r.field].mode != modeLiteral {
			return fmt.Errorf("%w: copy of a copied field", ErrBadEncoding)
		}
		src := *from.refField(r.field)
		if r.n > len(src) {
			return fmt.Errorf("%w: copy longer than its source", ErrBadEncoding)
		}
		*k.refField(f) = src[:r.n] + r.suffix
		return nil
	}
	for f := range refs {
		if refs[f].mode != modeOther {
			continue
		}
		if id := refs[f].id; id != otherID || otherID == "" {
			if get == nil {
				return fmt.Errorf("%w: %s copies from %s", ErrUnresolved, k.ID, id)
			}
			v := get(id)
			if len(v) == 0 || v[0] != codecVersion2 {
				return fmt.Errorf("%w: %s copies from %s, which is missing", ErrBadEncoding, k.ID, id)
			}
			other, otherRefs, otherID = KU{}, [numRefFields]pendingRef{}, id
			if err := other.decodeV2(v, &otherRefs); err != nil {
				return err
			}
			if other.SourceID != k.SourceID {
				return fmt.Errorf("%w: %s copies from %s of another source", ErrBadEncoding, k.ID, id)
			}
		}
		if err := fill(f, &other, &otherRefs); err != nil {
			return err
		}
	}
	for f := range refs {
		if refs[f].mode == modeSelf {
			if err := fill(f, k, refs); err != nil {
				return err
			}
		}
	}
	return nil
}

// unmarshalV1 decodes the JSON and version 1 forms.
func (k *KU) unmarshalV1(data []byte) error {
	if len(data) > 0 && data[0] == '{' {
		*k = KU{}
		if err := json.Unmarshal(data, k); err != nil {
			return fmt.Errorf("%w: %v", ErrBadEncoding, err)
		}
		return nil
	}
	if len(data) == 0 || data[0] != codecVersion {
		return fmt.Errorf("%w: unknown version", ErrBadEncoding)
	}
	d := decoder{bindec.Decoder{B: data[1:]}}
	var u KU
	if err := d.fields(&u, func(f int) { *u.refField(f) = d.Str() }); err != nil {
		return err
	}
	u.Hash = d.Str()
	if d.Bad || len(d.B) != 0 {
		return fmt.Errorf("%w: truncated or trailing bytes", ErrBadEncoding)
	}
	*k = u
	return nil
}

// decoder reads the binary form; a read past the end sets Bad and yields
// zero values.
type decoder struct{ bindec.Decoder }

// fields decodes every field both binary forms write in the same order,
// from ID to UtilityNote; text reads the fields the forms write
// differently (version 2 may copy them from another KU), by refField
// number.
func (d *decoder) fields(u *KU, text func(f int)) error {
	u.ID = d.Str()
	u.KUType = d.Str()
	u.Level = d.Str()
	text(refTitle)
	u.Role = d.Str()
	text(refTopic)
	text(refClaim)
	text(refProcedure)
	u.Condition = d.Str()
	text(refTextBody)
	u.Tags = d.list()
	u.SymbolicSubject = d.Str()
	u.SymbolicRelation = d.Str()
	u.SymbolicObject = d.Str()
	if d.Byte() == 1 {
		c := d.Float64()
		u.Confidence = &c
	}
	u.ParentUnitIDs = d.list()
	u.ChildUnitIDs = d.list()
	u.DerivedFromUnitIDs = d.list()
	u.SourceID = d.Str()
	u.SourceName = d.Str()
	u.SourceType = d.Str()
	text(refChunkID)
	u.ChunkIndex = d.num()
	u.UnitIndex = d.num()
	u.CharStart = d.num()
	u.CharEnd = d.num()
	if n := int(d.Byte()); n > 0 {
		if err := u.IngestedAt.UnmarshalBinary(d.Bytes(uint64(n))); err != nil && !d.Bad {
			return fmt.Errorf("%w: ingestedAt: %v", ErrBadEncoding, err)
		}
	}
	u.Range.StartLine = d.num()
	u.Range.StartCol = d.num()
	u.Range.EndLine = d.num()
	u.Range.EndCol = d.num()
	u.UtilityActs = d.list()
	u.PhaseScopes = d.list()
	u.UtilityNote = d.Str()
	return nil
}

// num reads an int written as a signed varint.
func (d *decoder) num() int { return int(d.Varint()) }

func (d *decoder) list() []string {
	n := d.Uvarint()
	if n == 0 {
		return nil
	}
	if n > uint64(len(d.B)) { // every element takes at least one byte
		d.Bad, d.B = true, nil
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}
