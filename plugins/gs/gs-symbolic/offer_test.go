package gssymbolic

import (
	"strings"
	"testing"
)

// offerMD is a page whose paragraph tells the reader what they can do and
// is followed, with no colon, by a program that shows it among lines about
// other flags.
func offerMD() string {
	var prog strings.Builder
	prog.WriteString("```go\npackage main\n\nfunc main() {\n\tvar language string\n\tapp := &cli.App{\n\t\tFlags: []cli.Flag{\n")
	for _, name := range []string{"lang", "port", "host", "mode", "level", "color", "width", "depth"} {
		prog.WriteString("\t\t\t&cli.StringFlag{\n\t\t\t\tName:  \"" + name + "\",\n\t\t\t\tUsage: \"the " + name + " flag value\",\n\t\t\t},\n")
	}
	prog.WriteString("\t\t\t&cli.StringFlag{\n\t\t\t\tName:        \"greeting\",\n\t\t\t\tDestination: &language,\n\t\t\t},\n\t\t},\n\t}\n\tapp.Run(os.Args)\n}\n```\n")
	return "# Flags\n\n## Placeholder Values\n\n" +
		"You can also set a destination variable for a flag, to which the content will be scanned. " +
		"Note that if the value is set for the flag, it will be shown as default.\n\n" +
		"<!-- {\"output\": \"Hello someone\"} -->\n" + prog.String()
}

// TestOfferedActionShowsTheCodeAfterIt: a sentence that tells the reader
// what they can do, picked as the answer, is shown with the code block
// after its paragraph, cut to the lines naming what the sentence offers.
func TestOfferedActionShowsTheCodeAfterIt(t *testing.T) {
	src := parseMD(t, "flags.md", offerMD())
	q := "Can the flag's value go straight into a Go variable of mine?"
	md := solveMD(t, "describe", q, q, []mdSource{src}, src.leaf(t, "Placeholder Values"))
	checkMD(t, md, []string{"destination variable for a flag", "Destination: &language,"}, nil)
}

// TestOfferedActionOnlyForTheReader: a sentence that does not address the
// reader ("The destination variable receives ...") is not an offer.
func TestOfferedActionOnlyForTheReader(t *testing.T) {
	for s, want := range map[string]bool{
		"You can also set a destination variable for a flag.": true,
		"you may pass a context.":                             true,
		"The destination variable receives the content.":      false,
		"You should not do this.":                             false,
	} {
		if got := offersAction(s); got != want {
			t.Errorf("offersAction(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestOpeningSentenceShowsItsSteps: a unit's one-sentence opening
// paragraph, picked as the answer, is shown with the numbered steps after
// it, every one.
func TestOpeningSentenceShowsItsSteps(t *testing.T) {
	const page = "# Gin\n\n## Custom json codec at runtime\n\n" +
		"Gin supports custom json serialization and deserialization logic without using compile tags.\n\n" +
		"1. Define a custom struct that implements the `json.Core` interface.\n\n" +
		"2. Before your engine starts, assign values to `json.API` using the custom struct.\n"
	src := parseMD(t, "gin/doc.md", page)
	q := "gin swap the json library at runtime without build tags"
	md := solveMD(t, "describe", q, q, []mdSource{src}, src.leaf(t, "Custom json codec at runtime"))
	checkMD(t, md, []string{"without using compile tags", "1. Define a custom struct", "2. Before your engine starts, assign values to `json.API`"}, nil)
}
