package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestHowToLeadsWithTheExampleThatDoesTheAction: among a page's examples
// the answer leads with the one whose description carries the question's
// action, or the verb the lexicon relates to it, on its object ("Remove
// stopped containers" for "delete a container"), not the one that shares only the object's nouns.
func TestHowToLeadsWithTheExampleThatDoesTheAction(t *testing.T) {
	src := parseMD(t, "common/docker.md", testdataMD(t, "docker.md"))
	md := solveMD(t, "implement", "How do I delete a container?", "delete a container", []mdSource{src}, src.units[0])
	if first := strings.Index(md, "\n- "); first < 0 || !strings.HasPrefix(md[first+1:], "- Remove stopped containers:") {
		t.Errorf("the answer does not lead with the example that removes:\n%s", md)
	}
}

// TestHowToEntersASectionAtItsStart: a section read in several units
// (the project README's Neovim section) answers "how do I use X" from its
// first unit, the setup, when a later unit of it (details of session
// preferences) scores only a little higher.
func TestHowToEntersASectionAtItsStart(t *testing.T) {
	readme := testdataMD(t, "neovim.md")
	src := parseMD(t, "README.md", readme)
	leaves := src.matching(func(k *kus.KU) bool { return k.Level == kus.LevelLeaf && strings.HasPrefix(k.Title, "Neovim") })
	if len(leaves) < 3 {
		t.Fatalf("want the section in at least 3 units, got %d", len(leaves))
	}
	first, last := leaves[0], leaves[len(leaves)-1]
	task := "use mrpvm from Neovim"
	ev := []plugin.ScoredKU{{KU: last, Score: 0.81}, {KU: first, Score: 0.74}}
	out := procedureMD(t, ev, task, symbolic.TaskTerms(task), guidance{}, srcCorpus{"README.md": readme})
	checkMD(t, out, []string{"editors/nvim", "setup"}, []string{"Session preferences"})
}

// TestLentWords: a part of a question searched with words lent by its
// sibling parts ("(kernel messages in a human-readable way)") is answered
// by the example that does what the part itself asks.
func TestLentWords(t *testing.T) {
	src := parseMD(t, "linux/dmesg.md", "# dmesg\n\n> Write the kernel messages to `stdout`.\n\n- Show kernel messages:\n\n`sudo dmesg`\n\n- Show kernel messages in human-readable format (equivalent of `dmesg --color --reltime` piped to a pager):\n\n`sudo dmesg {{[-H|--human]}}`\n\n- Show kernel messages and keep [w]aiting for new ones (similar to `tail --follow`):\n\n`sudo dmesg {{[-w|--follow]}}`\n")
	target := "keep watching for new ones (kernel messages in a human-readable way)"
	md := solveMD(t, "implement", target, target, []mdSource{src}, src.soleLeaf(t))
	checkMD(t, md, []string{"`sudo dmesg {{[-w|--follow]}}`"}, []string{"--human"})
	if own, lent := lentContext(target); own != "keep watching for new ones" || lent != "kernel messages in a human-readable way" {
		t.Errorf("lentContext = %q, %q", own, lent)
	}
}

// TestFollowUpsTopicIsLent: a follow-up completed with the topic of an
// earlier turn, before its question mark ("How do I close it when I'm
// done (encrypted LUKS partition)?"), is answered by the example that
// does what the follow-up asks, not by the one that shares most of the
// topic's words.
func TestFollowUpsTopicIsLent(t *testing.T) {
	src := parseMD(t, "linux/cryptsetup.md", "# cryptsetup\n\n> Manage plain dm-crypt and LUKS encrypted volumes.\n\n"+
		"- Initialize a LUKS volume on an encrypted partition (overwrites all data on the partition):\n\n`cryptsetup luksFormat {{/dev/sdXY}}`\n\n"+
		"- Open a LUKS volume and create a decrypted mapping:\n\n`cryptsetup open {{/dev/sdXY}} {{mapping_name}}`\n\n"+
		"- Remove an existing mapping when done:\n\n`cryptsetup close {{mapping_name}}`\n")
	target := "How do I close it again when I'm done (encrypted LUKS partition)?"
	md := solveMD(t, "implement", target, target, []mdSource{src}, src.soleLeaf(t))
	if i := strings.Index(md, "\n- "); i < 0 || !strings.HasPrefix(md[i+1:], "- Remove an existing mapping when done:") {
		t.Errorf("the answer does not lead with the example that closes:\n%s", md)
	}
	if own, lent := lentContext(target); own != "How do I close it again when I'm done" || lent != "encrypted LUKS partition" {
		t.Errorf("lentContext = %q, %q", own, lent)
	}
}

// TestDirection: where a how-to moves something decides between examples
// that name the same places the other way round, among those that do the
// task's action.
func TestDirection(t *testing.T) {
	src := parseMD(t, "common/scp.md", "# scp\n\n> Secure copy.\n\n- Copy a local file to a remote host:\n\n`scp {{path/to/local_file}} {{remote_host}}:{{path/to/remote_file}}`\n\n- Use a specific port when connecting to the remote host:\n\n`scp -P {{port}} {{path/to/local_file}} {{remote_host}}:{{path/to/remote_file}}`\n\n- Copy a file from a remote host to a local directory:\n\n`scp {{remote_host}}:{{path/to/remote_file}} {{path/to/local_directory}}`\n\n- Recursively copy the contents of a directory from a remote host to a local directory:\n\n`scp -r {{remote_host}}:{{path/to/remote_directory}} {{path/to/local_directory}}`\n")
	for _, tc := range []struct{ task, first string }{
		{"copy a directory to a remote server", "- Copy a local file to a remote host:"},
		{"copy a directory from a remote server", "- Recursively copy the contents of a directory from a remote host to a local directory:"},
	} {
		md := solveMD(t, "implement", "How do I "+tc.task+"?", tc.task, []mdSource{src}, src.soleLeaf(t))
		if i := strings.Index(md, "\n- "); i < 0 || !strings.HasPrefix(md[i+1:], tc.first) {
			t.Errorf("%s: the answer does not lead with %q:\n%s", tc.task, tc.first, md)
		}
	}
}

// TestASeeTaskLeadsWithAnExampleThatShows: a task that asks to see
// something is answered by an example that shows it, not by one that does
// something else to the same things.
func TestASeeTaskLeadsWithAnExampleThatShows(t *testing.T) {
	src := parseMD(t, "linux/ip-address.md", testdataMD(t, "ip-address.md"))
	q := "How do I see the IP addresses assigned to my network interfaces?"
	md := solveMD(t, "implement", q, "see the IP addresses assigned to my network interfaces", []mdSource{src}, src.units[0])
	if first := strings.Index(md, "\n- "); first < 0 || !strings.HasPrefix(md[first+1:], "- List network interfaces") {
		t.Errorf("the answer does not lead with the example that lists:\n%s", md)
	}
	if strings.Contains(md, "- Add an IP address") || strings.Contains(md, "- Remove an IP address") {
		t.Errorf("the answer shows an example that changes the addresses:\n%s", md)
	}
}

// TestASeeTaskIsAnsweredByAPageThatShows: between two pages whose best
// examples hold as much of a see task, the one whose example shows what it
// asks answers it ("List existing remotes", not "Clone a remote Git
// repository").
func TestASeeTaskIsAnsweredByAPageThatShows(t *testing.T) {
	gitMD := "# git\n\n> Distributed version control system.\n\n" +
		"- Clone a remote Git repository from the internet:\n\n`git clone {{url}}`\n\n" +
		"- Check the Git version:\n\n`git --version`\n"
	remoteMD := "# git remote\n\n> Manage set of tracked repositories (\"remotes\").\n\n" +
		"- List existing remotes with their names and URLs:\n\n`git remote {{[-v|--verbose]}}`\n\n" +
		"- Add a remote:\n\n`git remote add {{remote_name}} {{remote_url}}`\n"
	git, remote := parseMD(t, "common/git.md", gitMD), parseMD(t, "common/git-remote.md", remoteMD)
	md := solveMD(t, "implement", "How do I see which remotes my git repo has?", "see which remotes my git repo has",
		[]mdSource{git, remote}, git.units[0], remote.units[0])
	if !strings.Contains(md, "- List existing remotes") {
		t.Errorf("the answer does not list the remotes:\n%s", md)
	}
}

// TestAnExampleThatDoesAnotherThingToTheObject: a task whose object holds
// a word an example's description opens with as its verb ("edit my
// personal list of cron jobs" and "[l]ist existing cron jobs") is
// answered by the example that does the task's action ("[e]dit the
// crontab file"): the shared word is the task's noun and the other
// example's verb, a different thing done to the same jobs. A description
// that holds the word further in ("For each commit ...") or as a
// heading's gerund keeps it.
func TestAnExampleThatDoesAnotherThingToTheObject(t *testing.T) {
	src := parseMD(t, "common/crontab.md", "# crontab\n\n> Schedule cron jobs to run on a time interval for the current user.\n\n"+
		"- [l]ist existing cron jobs for the current user:\n\n`crontab -l`\n\n"+
		"- [e]dit the crontab file for the current user:\n\n`crontab -e`\n\n"+
		"- [r]emove all cron jobs for the current user:\n\n`crontab -r`\n")
	task := "edit my personal list of cron jobs"
	md := solveMD(t, "implement", "How do I "+task+"?", task, []mdSource{src}, src.soleLeaf(t))
	if i := strings.Index(md, "\n- "); i < 0 || !strings.HasPrefix(md[i+1:], "- [e]dit the crontab file") {
		t.Errorf("the answer does not lead with the example that edits:\n%s", md)
	}
	for _, tc := range []struct{ desc, want string }{
		{"[l]ist existing cron jobs for the current user", "list"},
		{"List existing cron jobs", "list"},
		{"Listing cron jobs", ""},
		{"For each list of cron jobs, print its size", ""},
		{"Edit the list", ""},
	} {
		if got := otherAction(tc.desc, "edit", []string{"person", "list", "cron", "job"}); got != tc.want {
			t.Errorf("otherAction(%q) = %q, want %q", tc.desc, got, tc.want)
		}
	}
}
