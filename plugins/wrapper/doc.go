// Package wrapper loads and runs external wrapper plugins (docs/wrappers.md): a folder holding manifest.json, an executable and a
// README. A wrapper is discovered in <workspace>/wrappers/*/ or in the user
// configuration folder's wrappers/*/, validated, and run only when its id is
// in the effective pluginAllowlist (decided by the caller). Each call starts
// one process in the wrapper's folder, writes the JSON payload
// {"prompt", "context": [{"title", "sourceLink", "text"}]} to its stdin
// then closes it, reads a `## Plugin Result` block from stdout and one JSON
// error line {code, message, details} from stderr. Exit status 0 is success,
// 1 a processing error, 2 invalid input, 3 a timeout. The call's timeout
// kills the whole process group; input and output sizes are capped.
package wrapper
