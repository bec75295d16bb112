package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Objects with forward-compatible JSON (descriptors, manifests) keep the keys
// they do not know in an Extra map and write them back unchanged. Known keys
// match exactly (encoding/json's case-insensitive matching would let "ID"
// silently fill "id"); a value of the wrong JSON type is reported per field
// without stopping the other fields.

// knownFields maps a struct type to its JSON key -> field index table.
var knownFields sync.Map // reflect.Type -> map[string]int

func fieldTable(t reflect.Type) map[string]int {
	if m, ok := knownFields.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		m[name] = i
	}
	knownFields.Store(t, m)
	return m
}

// decodeExtra decodes the JSON object b into the struct pointed to by dst,
// field by field, and returns the unknown keys. Type errors are collected
// as FieldErrors with the given code.
func decodeExtra(b []byte, dst any, code string) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	if all == nil { // JSON null
		return nil, nil
	}
	v := reflect.ValueOf(dst).Elem()
	table := fieldTable(v.Type())
	var extra map[string]json.RawMessage
	var errs FieldErrors
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		raw := all[k]
		i, ok := table[k]
		if !ok {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = raw
			continue
		}
		f := v.Field(i)
		p := reflect.New(f.Type())
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			var nested FieldErrors
			if errors.As(err, &nested) {
				for _, ne := range nested {
					ne.Field = k + "." + ne.Field
					errs = append(errs, ne)
				}
				f.Set(p.Elem())
				continue
			}
			errs = append(errs, &PluginError{Code: code, Field: k, Stage: StageLoad,
				Message: fmt.Sprintf("%q: %s", k, typeErrorText(err, f.Type()))})
			continue
		}
		f.Set(p.Elem())
	}
	if len(errs) > 0 {
		return extra, errs
	}
	return extra, nil
}

func typeErrorText(err error, t reflect.Type) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("expected %s, got JSON %s", jsonKind(t), te.Value)
	}
	return err.Error()
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(jsonKind(t.Elem()), "an "), "a ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// encodeExtra marshals the struct value v (of a method-less type) and
// appends the extra keys, sorted, that do not collide with known keys.
func encodeExtra(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	table := fieldTable(reflect.TypeOf(v))
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, known := table[k]; !known {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1]) // drop the closing brace
	for _, k := range keys {
		raw := extra[k]
		if len(raw) == 0 || !json.Valid(raw) {
			continue
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(raw)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func cloneExtra(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// DecodeObject decodes a JSON object into the struct pointed to by dst like
// descriptors are decoded: exact key matching, every type error reported as
// a FieldErrors element with code, unknown keys returned.
func DecodeObject(b []byte, dst any, code string) (extra map[string]json.RawMessage, err error) {
	return decodeExtra(b, dst, code)
}
