package symbolic

import "regexp"

// CodeName is the pattern of a name written as code: an option
// ("--quiet"), a call ("c.FullPath()"), or a dotted or underscored
// identifier ("mrpvm.llm", "hook_timeout"). It has no anchors and no
// capturing group, so callers embed it in patterns of their own.
const CodeName = `(?:--?[A-Za-z][\w-]*|[A-Za-z_]\w*(?:[._]\w+)+(?:\(\))?|[A-Za-z_]\w*\(\))`

// codeNameRE matches a whole word that is a CodeName.
var codeNameRE = regexp.MustCompile(`^` + CodeName + `$`)

// IsCodeName reports whether word, whole, is a name written as code
// (CodeName).
func IsCodeName(word string) bool { return codeNameRE.MatchString(word) }
