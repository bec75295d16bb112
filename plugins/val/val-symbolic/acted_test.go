package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// actedCase is a made-up tool page quoted by its answer, and the status
// val-symbolic should give that answer.
type actedCase struct {
	name string
	tldrExample
	want plugin.Status
}

// expectActed validates, for each case, its answer to the how-to prompt
// asking target, with the case's page as the one evidence unit and source,
// and expects the case's status (a rejection saying "acts on").
func expectActed(t *testing.T, df map[string]int, prompt, target string, cases []actedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			md := tc.page()
			c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{tc.id: md}}
			k := descriptionUnit(t, tc.id, md)
			in := plugin.ValidateInput{
				Payload:  plugin.Payload{Prompt: prompt},
				Intents:  []plugin.Intent{{ID: "i1", Act: "implement", Target: target}},
				Answer:   tc.answer(),
				Evidence: []plugin.ScoredKU{{KU: k, Score: 1, Level: kus.LevelLeaf}},
			}
			expect(t, validate(t, c, &in), tc.want, "acts on")
		})
	}
}

// TestAPageMustActOnSomethingTheQuestionNames: "show the hosts on my
// local network" is not answered by a page whose examples and
// description act on sockets, although its example says "host" and
// "network"; a page whose example, description or name (a subcommand's
// own word, a compound made with a word asked) names what is asked
// answers it. A description that opens with no verb says what the page
// is, and names nothing it acts on.
func TestAPageMustActOnSomethingTheQuestionNames(t *testing.T) {
	df := freqs(map[string]int{"show display list find program helper": 500, "open sockets remote queued jobs": 100, "hosts local network": 50})
	const showSockets, showOpenSockets = "Show sockets on a local or remote host.", "Show all open sockets on a remote host of a network"
	expectActed(t, df, "How do I show the hosts on my local network?", "show the hosts on my local network", []actedCase{
		{"examples and description act on another thing", tldrExample{"sockprobe", "common/sockprobe.md", showSockets,
			showOpenSockets, "sockprobe --remote {{host}}"}, plugin.StatusRejected},
		{"a description that opens with no verb", tldrExample{"qrun", "common/qrun.md", "A local network of build hosts.",
			"Show the queued jobs on a remote host of a network", "qrun --remote {{host}}"}, plugin.StatusRejected},
		{"an example that acts on the thing asked", tldrExample{"hostscan", "common/hostscan.md", "Find machines on a local network.",
			"Show the hosts on the local network", "hostscan --local"}, plugin.StatusAccepted},
		{"a description that acts on the thing asked", tldrExample{"netls", "common/netls.md", "Find hosts on a local network.",
			showOpenSockets, "netls --sockets"}, plugin.StatusAccepted},
		{"a subcommand named after the thing asked", tldrExample{"net hosts", "common/net-hosts.md", showSockets,
			showOpenSockets, "net hosts --sockets"}, plugin.StatusAccepted},
		{"a subcommand of a program named after a word asked", tldrExample{"network sockets", "common/network-sockets.md", showSockets,
			showOpenSockets, "network sockets --all"}, plugin.StatusRejected},
		{"a name compounded with a word asked", tldrExample{"lsnetwork", "common/lsnetwork.md", showSockets,
			showOpenSockets, "lsnetwork --sockets"}, plugin.StatusAccepted},
	})
}

// TestVerbObject: what a description acts on is the head of its opening
// verb's object, with the head an "of" or an "as" adds; a word known
// mainly as another part of speech after the head, a number or an aside
// leaves it standing; a
// clause, or a description that opens with no verb, gives nothing.
func TestVerbObject(t *testing.T) {
	expectTerms(t, "verbObject", verbObject, map[string][]string{
		"Show all open sockets on a remote host":          {"sockets"},
		"Count the number of frames from each camera":     {"number", "frames"},
		"Print the build time as a Unix timestamp":        {"time", "timestamp"},
		"Run commands interactively on a host":            {"commands"},
		"Show all sockets open to the network":            {"sockets"},
		"Show sockets listening on a host":                {"sockets"},
		"List all the working trees (including the main)": {"trees"},
		"Print page 2 of a document":                      {"page", "document"},
		"Build and start a new sandbox from a recipe":     {"sandbox"},
		"Check whether a key is valid":                    nil,
		"A build tool for Lua":                            nil,
	})
}

// TestAPossessorIsNotTheThingAsked: "check when a site's TLS certificate
// runs out" asks about the certificate; a page whose examples act on
// sites, its owner, does not answer it, while one that acts on
// certificates does.
func TestAPossessorIsNotTheThingAsked(t *testing.T) {
	df := freqs(map[string]int{"check": 500, "site availability": 100, "tls certificate expiry run": 50})
	expectActed(t, df, "How can I check when a site's TLS certificate runs out?", "check when a site's TLS certificate runs out", []actedCase{
		{"examples act on the possessor", tldrExample{"siteprobe", "common/siteprobe.md", "Probe sites over TLS.",
			"Check the availability of sites over TLS", "siteprobe run {{site}}"}, plugin.StatusRejected},
		{"examples act on the thing asked", tldrExample{"certcheck", "common/certcheck.md", "Inspect TLS certificates of sites.",
			"Check when the TLS certificate of a site runs out", "certcheck --expiry {{site}}"}, plugin.StatusAccepted},
	})
}

// TestPossessorFree: possessive nouns leave the question; the rest stays.
func TestPossessorFree(t *testing.T) {
	expectEach(t, "possessorFree", possessorFree, map[string]string{
		"check when a website's HTTPS certificate runs out": "check when a HTTPS certificate runs out",
		"print a file's permissions":                        "print a permissions",
		"show the hosts on my network":                      "show the hosts on my network",
	})
}

// TestAPageDescribingWhatIsAskedMayNameItsThingItsOwnWay: "open an
// encrypted zulk partition" is answered by a page whose description
// names the name asked, "zulk", and most of the rest, though its example
// acts on "volumes"; a page whose description names little of it is
// still about another thing.
func TestAPageDescribingWhatIsAskedMayNameItsThingItsOwnWay(t *testing.T) {
	df := freqs(map[string]int{"open manag devic": 500, "volum partit": 100, "encrypt": 40, "zulk": 5})
	expectActed(t, df, "How do I open an encrypted zulk partition?", "open an encrypted zulk partition", []actedCase{
		{"the description names what is asked", tldrExample{"lockctl", "linux/lockctl.md", "Manage encrypted zulk volumes.",
			"Open a volume and map it to a device", "lockctl open {{/dev/sdXY}} {{name}}"}, plugin.StatusAccepted},
		{"the description names little of it", tldrExample{"volsetup", "linux/volsetup.md", "Manage device volumes.",
			"Open a volume and map it to an encrypted zulk device", "volsetup open {{/dev/sdXY}} {{name}}"}, plugin.StatusRejected},
	})
}
