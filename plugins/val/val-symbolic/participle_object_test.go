package valsymbolic

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParticipleWithObjectIsDone: an example whose participle takes an
// object ("saving the output to a file") does what the participle says;
// one whose participle is the state of the thing it stands before ("a
// stopped task") does not. Each table maps an example line to the action
// asked.
func TestParticipleWithObjectIsDone(t *testing.T) {
	doing := map[string]string{
		"Start tracing network operations of a program, saving the output to a file:": "save",
		"Restart the service, having stopped all its workers:":                        "stop",
	}
	stateOnly := map[string]string{
		"Edit the command line of a stopped task in the default editor:": "stop",
		"List the running containers:":                                   "run",
	}
	acts := func(line, action string) bool {
		return actsOn(action, "", []string{line}, "A tool.", map[string]bool{})
	}
	for line, action := range doing {
		assert.Truef(t, acts(line, action), "%q does %q", line, action)
	}
	for line, action := range stateOnly {
		assert.Falsef(t, acts(line, action), "%q only names %q as a state", line, action)
	}
}
