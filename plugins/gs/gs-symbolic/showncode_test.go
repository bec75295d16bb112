package gssymbolic

import "testing"

const readerMD = "# Viper\n\n## Reading Config from io.Reader\n\n" +
	"Viper predefines many configuration sources such as files, but you are not bound to them. You can also feed your own configuration source to viper.\n\n" +
	"```go\nviper.ReadConfig(bytes.NewBuffer(yamlExample))\n```\n\n" +
	"## Reading Config Files\n\nViper requires minimal configuration so it knows where to look for config files.\n"

// TestParagraphWithTheCodeAfterIt: the code block that follows the best
// statement's paragraph shows what the paragraph says, and is shown with
// it in place of a statement from another unit.
func TestParagraphWithTheCodeAfterIt(t *testing.T) {
	src := parseMD(t, "viper/README.md", readerMD)
	md := solveMD(t, "describe", "viper read configuration sources from an io.Reader", "viper read configuration sources from an io.Reader", []mdSource{src},
		src.leaf(t, "Reading Config from io.Reader"), src.leaf(t, "Reading Config Files"))
	checkMD(t, md, []string{"not bound to them", "viper.ReadConfig(bytes.NewBuffer(yamlExample))"}, []string{"minimal configuration"})
}
