package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/jsonpos"
)

// rule validates the values whose pointer tokens match pattern ("*" matches
// any one token). free rules accept anything below their value.
type rule struct {
	pattern []string
	free    bool
	check   func(c *checker, n jsonpos.Node, toks []string)
}

func r(pattern string, check func(c *checker, n jsonpos.Node, toks []string)) rule {
	return rule{pattern: strings.Split(pattern, "/"), check: check}
}

var commonRules = []rule{
	r("$schema", str), r("$comment", str),
}

var pluginsRules = []rule{
	r("plugins", object),
	r("plugins/*", pluginObject),
	r("plugins/*/enabled", boolean),
	{pattern: []string{"plugins", "*", "options"}, free: true, check: object},
	r("defaultOrder", object),
	r("defaultOrder/*", func(c *checker, n jsonpos.Node, toks []string) {
		t := plugin.TypeOfLoopStage(toks[1])
		if t == "" {
			c.errKey(n, CodeUnknownStage, "unknown loop stage %q (expected one of %s)", toks[1], strings.Join(plugin.LoopStages, ", "))
			return
		}
		c.idList(n, t, "")
	}),
	r("fallbackChains", object),
	r("fallbackChains/*", func(c *checker, n jsonpos.Node, toks []string) {
		if !c.knownPlugin(n, toks[1], "", true) {
			return
		}
		c.idList(n, c.known[toks[1]], toks[1])
	}),
	{pattern: []string{"ingest"}, free: true, check: ingestRule}, // its elements are checked whole
}

// ingestRule checks ingest: an array of {"glob", "seedDetector"} objects,
// each glob a valid gitignore-style pattern and each detector a known
// sd-plugin; a bad element is dropped.
func ingestRule(c *checker, n jsonpos.Node, toks []string) {
	const shape = `ingest must be an array of {"glob", "seedDetector"} objects`
	if len(n.Raw) == 0 || n.Raw[0] != '[' {
		c.errKey(n, CodeBadValue, shape)
		return
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(n.Raw, &raw)
	for i, e := range raw {
		var obj map[string]json.RawMessage
		if json.Unmarshal(e, &obj) != nil || obj == nil {
			c.errElem(n, i, CodeBadValue, "ingest[%d] must be an object {\"glob\", \"seedDetector\"}", i)
			continue
		}
		elem, ok := c.l.ix.Lookup(jsonpos.Pointer("ingest", strconv.Itoa(i)))
		if !ok {
			elem = n
		}
		at := func(key string) jsonpos.Node {
			if k, ok := c.l.ix.Lookup(jsonpos.Pointer("ingest", strconv.Itoa(i), key)); ok {
				return k
			}
			return elem
		}
		bad := func(key, code, format string, args ...any) {
			k := at(key)
			c.add(elem, k.KeyOffset, code, false, format, args...)
		}
		var unknown string
		for k := range obj {
			if k != "glob" && k != "seedDetector" && (unknown == "" || k < unknown) {
				unknown = k
			}
		}
		if unknown != "" {
			bad(unknown, CodeUnknownKey, "unknown key %q in ingest[%d] (expected glob, seedDetector)", unknown, i)
			continue
		}
		var glob, det string
		switch {
		case obj["glob"] == nil:
			c.errElem(n, i, CodeBadValue, "ingest[%d] needs a glob", i)
		case json.Unmarshal(obj["glob"], &glob) != nil || strings.TrimSpace(glob) == "":
			bad("glob", CodeBadValue, "ingest[%d].glob must be a non-empty string", i)
		case checkPattern(glob) != nil:
			bad("glob", CodeBadValue, "ingest[%d].glob %q is not a valid glob: %v", i, glob, checkPattern(glob))
		case obj["seedDetector"] == nil:
			c.errElem(n, i, CodeBadValue, "ingest[%d] needs a seedDetector (an sd-plugin id)", i)
		case json.Unmarshal(obj["seedDetector"], &det) != nil || det == "":
			bad("seedDetector", CodeBadValue, "ingest[%d].seedDetector must be an sd-plugin id", i)
		default:
			k := at("seedDetector")
			if t, ok := c.known[det]; c.known != nil && !ok {
				c.add(elem, k.Offset, CodeUnknownPlugin, false, "unknown plugin id %q (known: %s)", det, knownList(c.known))
			} else if ok && t != plugin.TypeSD {
				c.add(elem, k.Offset, CodeWrongStage, false, "plugin %q is a %s, not a %s", det, t, plugin.TypeSD)
			}
		}
	}
}

// checkPattern reports whether each "/"-separated part of a gitignore-style
// pattern is a valid glob.
func checkPattern(p string) error {
	for seg := range strings.SplitSeq(strings.TrimPrefix(p, "!"), "/") {
		if _, err := filepath.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

var engineRules = []rule{
	r("maxLLMAttemptsPerRequest", intMin(0)),
	r("requestTimeoutMs", intMin(1)),
	r("maxPluginsPerStage", intMin(1)),
	r("maxFrameDepth", intMin(0)),
	r("pluginTimeoutMs", intMin(1)),
	r("hookTimeoutMs", intMin(1)),
	r("plannerFallbackOrder", func(c *checker, n jsonpos.Node, toks []string) { c.idList(n, plugin.TypePlan, "") }),
	{pattern: []string{"pluginAllowlist"}, free: true, check: allowlistRule}, // its elements are checked whole
	r("wrapperTimeoutMs", intMin(1)),
	r("wrapperMaxInputBytes", intMin(1)),
	r("wrapperMaxOutputBytes", intMin(1)),
	r("exclude", excludeRule),
	r("maxWorkspaceFiles", intMin(1)),
	r("hoverPlugin", func(c *checker, n jsonpos.Node, toks []string) {
		if id, ok := c.str(n); ok {
			c.knownPlugin(n, id, plugin.TypeKB, false)
		}
	}),
}

// excludeRule checks exclude: an array of gitignore-style patterns; one
// that is not a valid glob (an unclosed "[") is dropped.
func excludeRule(c *checker, n jsonpos.Node, toks []string) {
	for i, p := range c.strings(n) {
		if p == "" {
			continue
		}
		if err := CheckGlob(p); err != nil {
			c.errElem(n, i, CodeBadValue, "%v", err)
		}
	}
}

// CheckGlob reports whether p is a valid gitignore-style pattern (each
// "/"-separated part a valid glob): the exclude key and the editors'
// exclude setting.
func CheckGlob(p string) error {
	for seg := range strings.SplitSeq(strings.TrimPrefix(p, "!"), "/") {
		if _, err := filepath.Match(seg, ""); err != nil {
			return fmt.Errorf("exclude pattern %q is not a valid glob: %w", p, err)
		}
	}
	return nil
}

var llmRules = []rule{
	r("default", object),
	r("default/*", roleField),
	r("roles", object),
	r("roles/*", func(c *checker, n jsonpos.Node, toks []string) {
		if object(c, n, toks); c.failed(n) {
			return
		}
		if !slices.Contains(plugin.ModelRoles, toks[1]) {
			c.errKey(n, CodeUnknownRole, "unknown model role %q (expected one of %s)", toks[1], strings.Join(plugin.ModelRoles, ", "))
		}
	}),
	r("roles/*/*", roleField),
	r("pluginOverrides", object),
	r("pluginOverrides/*", pluginObject),
	r("pluginOverrides/*/*", roleField),
}

var (
	idRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	envVarRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// allowlistRule checks pluginAllowlist: each element is a plugin id or an
// object {"id", "dir", "sha256"} (config.AllowEntry); a bad element is
// dropped.
func allowlistRule(c *checker, n jsonpos.Node, toks []string) {
	if len(n.Raw) == 0 || n.Raw[0] != '[' {
		c.errKey(n, CodeBadValue, "pluginAllowlist must be an array of plugin ids or {\"id\", \"dir\", \"sha256\"} objects")
		return
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(n.Raw, &raw)
	for i, e := range raw {
		var id string
		if json.Unmarshal(e, &id) == nil {
			if !idRE.MatchString(id) {
				c.errElem(n, i, CodeBadValue, "%q is not a plugin id", id)
			}
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(e, &obj) != nil {
			c.errElem(n, i, CodeBadValue, "pluginAllowlist[%d] must be a plugin id or an object {\"id\", \"dir\", \"sha256\"}", i)
			continue
		}
		if msg := checkAllowObject(obj); msg != "" {
			c.errElem(n, i, CodeBadValue, "pluginAllowlist[%d]: %s", i, msg)
		}
	}
}

var sha256RE = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

func checkAllowObject(obj map[string]json.RawMessage) string {
	field := func(k string) (string, bool, string) {
		v, ok := obj[k]
		if !ok {
			return "", false, ""
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", true, k + " must be a string"
		}
		return s, true, ""
	}
	for k := range obj {
		if k != "id" && k != "dir" && k != "sha256" {
			return fmt.Sprintf("unknown key %q (expected id, dir, sha256)", k)
		}
	}
	id, ok, msg := field("id")
	switch {
	case msg != "":
		return msg
	case !ok:
		return "id is required"
	case !idRE.MatchString(id):
		return fmt.Sprintf("%q is not a plugin id", id)
	}
	dir, hasDir, msg := field("dir")
	if msg != "" {
		return msg
	}
	if hasDir && !filepath.IsAbs(dir) {
		return fmt.Sprintf("dir %q must be an absolute folder (the one holding the wrapper's manifest.json)", dir)
	}
	sum, hasSum, msg := field("sha256")
	if msg != "" {
		return msg
	}
	if hasSum && !sha256RE.MatchString(sum) {
		return "sha256 must be 64 hex digits (the wrapper's fingerprint)"
	}
	return ""
}

func roleField(c *checker, n jsonpos.Node, toks []string) {
	field := toks[len(toks)-1]
	if c.l.kind == LayerWorkspace && (field == "baseURL" || field == "apiKeyEnv") {
		c.add(n, n.KeyOffset, CodeWorkspaceEndpoint, true,
			"%s is ignored in a workspace file: only the user's %s may choose where prompts and keys go", field, LLMRolesFile)
		return
	}
	switch field {
	case "model":
		str(c, n, toks)
	case "baseURL":
		if s, ok := c.str(n); ok && s != "" {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				c.errKey(n, CodeBadValue, "baseURL %q is not an http(s) URL", s)
			}
		}
	case "apiKeyEnv":
		if s, ok := c.str(n); ok && s != "" && !envVarRE.MatchString(s) {
			c.errKey(n, CodeBadValue, "apiKeyEnv must name an environment variable, not hold a key")
		}
	case "temperature":
		if f, ok := c.num(n); ok && (f < 0 || f > 2) {
			c.errKey(n, CodeBadValue, "temperature %g is outside [0, 2]", f)
		}
	case "maxTokens", "timeoutMs":
		intMin(1)(c, n, toks)
	default:
		c.errKey(n, CodeUnknownKey, "unknown key %q (expected model, baseURL, apiKeyEnv, temperature, maxTokens, timeoutMs)", field)
	}
}

func rulesFor(name string) []rule {
	switch name {
	case PluginsFile:
		return append(slices.Clone(commonRules), pluginsRules...)
	case EngineFile:
		return append(slices.Clone(commonRules), engineRules...)
	case LLMRolesFile:
		return append(slices.Clone(commonRules), llmRules...)
	}
	return commonRules
}

// checker validates one layer.
type checker struct {
	l     *layer
	known map[string]plugin.PluginType
	errs  []*Error
	bad   map[string]bool
	drop  []string // pointers to remove from the tree
}

func (c *checker) run() {
	c.bad = map[string]bool{}
	c.l.bad = c.bad
	rules := rulesFor(c.l.name)
	var free []string
	for _, n := range c.l.ix.Nodes {
		if n.Pointer == "" || c.l.removed(n.Pointer) || c.inArray(n.Pointer) || under(free, n.Pointer) {
			continue
		}
		toks := jsonpos.Tokens(n.Pointer)
		var match *rule
		for i := range rules {
			if matches(rules[i].pattern, toks) {
				match = &rules[i]
				break
			}
		}
		if match == nil {
			c.errKey(n, CodeUnknownKey, "unknown key %q in %s", toks[len(toks)-1], c.l.name)
			continue
		}
		match.check(c, n, toks)
		if match.free {
			free = append(free, n.Pointer)
		}
	}
	// Drop bad values: array elements first, from the highest index down.
	sort.Slice(c.drop, func(i, j int) bool { return c.drop[i] > c.drop[j] })
	elems := map[string][]int{}
	for _, p := range c.drop {
		if parent, idx, ok := c.arrayElem(p); ok {
			elems[parent] = append(elems[parent], idx)
			continue
		}
		deletePointer(c.l.tree, p)
	}
	for parent, idxs := range elems {
		removeElems(c.l.tree, parent, idxs)
	}
}

func under(prefixes []string, ptr string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(ptr, p+"/") {
			return true
		}
	}
	return false
}

func matches(pattern, toks []string) bool {
	if len(pattern) != len(toks) {
		return false
	}
	for i, p := range pattern {
		if p != "*" && p != toks[i] {
			return false
		}
	}
	return true
}

// inArray reports whether ptr names an array element.
func (c *checker) inArray(ptr string) bool {
	_, _, ok := c.arrayElem(ptr)
	return ok
}

func (c *checker) arrayElem(ptr string) (parent string, idx int, ok bool) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", 0, false
	}
	parent = ptr[:i]
	pn, found := c.l.ix.Lookup(parent)
	if !found || len(pn.Raw) == 0 || pn.Raw[0] != '[' {
		return "", 0, false
	}
	idx, err := strconv.Atoi(ptr[i+1:])
	return parent, idx, err == nil
}

func removeElems(tree map[string]any, parent string, idxs []int) {
	toks := jsonpos.Tokens(parent)
	var cur any = tree
	for i, t := range toks {
		m, ok := cur.(map[string]any)
		if !ok {
			return
		}
		if i == len(toks)-1 {
			arr, ok := m[t].([]any)
			if !ok {
				return
			}
			out := make([]any, 0, len(arr))
			for j, v := range arr {
				if !slices.Contains(idxs, j) {
					out = append(out, v)
				}
			}
			m[t] = out
			return
		}
		cur = m[t]
	}
}

// add records a problem at an offset and marks the value for removal.
func (c *checker) add(n jsonpos.Node, off int, code string, warning bool, format string, args ...any) {
	line, col := c.l.ix.LineCol(off)
	c.errs = append(c.errs, &Error{File: c.l.file, Line: line, Col: col, Code: code, Pointer: n.Pointer,
		Warning: warning, Message: fmt.Sprintf(format, args...)})
	if !c.bad[n.Pointer] {
		c.bad[n.Pointer] = true
		c.drop = append(c.drop, n.Pointer)
	}
}

func (c *checker) errKey(n jsonpos.Node, code, format string, args ...any) {
	c.add(n, n.KeyOffset, code, false, format, args...)
}

// errElem reports a bad element i of the array n; the element is dropped.
func (c *checker) errElem(n jsonpos.Node, i int, code, format string, args ...any) {
	e, ok := c.l.ix.Lookup(n.Pointer + "/" + strconv.Itoa(i))
	if !ok {
		e = n
	}
	c.add(e, e.Offset, code, false, format, args...)
}

func (c *checker) failed(n jsonpos.Node) bool { return c.bad[n.Pointer] }

func (c *checker) str(n jsonpos.Node) (string, bool) {
	var s string
	if err := json.Unmarshal(n.Raw, &s); err != nil {
		c.errKey(n, CodeBadValue, "%s must be a string", describe(n))
		return "", false
	}
	return s, true
}

func (c *checker) num(n jsonpos.Node) (float64, bool) {
	var f float64
	if err := json.Unmarshal(n.Raw, &f); err != nil {
		c.errKey(n, CodeBadValue, "%s must be a number", describe(n))
		return 0, false
	}
	return f, true
}

// strings decodes an array of strings; element errors drop the element.
func (c *checker) strings(n jsonpos.Node) []string {
	if len(n.Raw) == 0 || n.Raw[0] != '[' {
		c.errKey(n, CodeBadValue, "%s must be an array of strings", describe(n))
		return nil
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(n.Raw, &raw)
	out := make([]string, len(raw))
	for i, e := range raw {
		if err := json.Unmarshal(e, &out[i]); err != nil {
			c.errElem(n, i, CodeBadValue, "%s[%d] must be a string", describe(n), i)
			out[i] = ""
		}
	}
	return out
}

// knownPlugin checks that id exists (and has type want, when given).
func (c *checker) knownPlugin(n jsonpos.Node, id string, want plugin.PluginType, atKey bool) bool {
	if c.known == nil {
		return true
	}
	off := n.Offset
	if atKey {
		off = n.KeyOffset
	}
	t, ok := c.known[id]
	if !ok {
		c.add(n, off, CodeUnknownPlugin, false, "unknown plugin id %q (known: %s)", id, knownList(c.known))
		return false
	}
	if want != "" && t != want {
		c.add(n, off, CodeWrongStage, false, "plugin %q is a %s, not a %s", id, t, want)
		return false
	}
	return true
}

// idList checks an array of plugin ids of type t (any type when t is "");
// self, when set, may not appear in it.
func (c *checker) idList(n jsonpos.Node, t plugin.PluginType, self string) {
	ids := c.strings(n)
	seen := map[string]bool{}
	for i, id := range ids {
		if id == "" {
			continue
		}
		e, ok := c.l.ix.Lookup(n.Pointer + "/" + strconv.Itoa(i))
		if !ok {
			e = n
		}
		switch {
		case seen[id]:
			c.add(e, e.Offset, CodeBadValue, false, "%q is listed twice", id)
		case id == self:
			c.add(e, e.Offset, CodeBadValue, false, "%q cannot fall back to itself", id)
		default:
			c.knownPlugin(e, id, t, false)
		}
		seen[id] = true
	}
}

func knownList(known map[string]plugin.PluginType) string {
	ids := make([]string, 0, len(known))
	for id := range known {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if len(ids) > 20 {
		ids = append(ids[:20], "...")
	}
	return strings.Join(ids, ", ")
}

func describe(n jsonpos.Node) string {
	toks := jsonpos.Tokens(n.Pointer)
	if len(toks) == 0 {
		return "the document"
	}
	return strconv.Quote(strings.Join(toks, "."))
}

func object(c *checker, n jsonpos.Node, toks []string) {
	if len(n.Raw) == 0 || n.Raw[0] != '{' {
		c.errKey(n, CodeBadValue, "%s must be an object", describe(n))
	}
}

// pluginObject checks an object keyed by a plugin id (toks[1]) that must
// name a known plugin.
func pluginObject(c *checker, n jsonpos.Node, toks []string) {
	if object(c, n, toks); c.failed(n) {
		return
	}
	c.knownPlugin(n, toks[1], "", true)
}

func str(c *checker, n jsonpos.Node, toks []string) { c.str(n) }

func boolean(c *checker, n jsonpos.Node, toks []string) {
	var b bool
	if err := json.Unmarshal(n.Raw, &b); err != nil {
		c.errKey(n, CodeBadValue, "%s must be true or false", describe(n))
	}
}

func intMin(min int) func(c *checker, n jsonpos.Node, toks []string) {
	return func(c *checker, n jsonpos.Node, toks []string) {
		var v int
		if err := json.Unmarshal(n.Raw, &v); err != nil {
			c.errKey(n, CodeBadValue, "%s must be an integer", describe(n))
			return
		}
		if v < min {
			c.errKey(n, CodeBadValue, "%s must be at least %d", describe(n), min)
		}
	}
}
