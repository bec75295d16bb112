package gssymbolic

import "testing"

const sshKeygenMD = "# ssh-keygen\n\n> Generate SSH keys used for authentication, password-less logins, and other things.\n\n" +
	"- Generate a key interactively:\n\n`ssh-keygen`\n\n" +
	"- Generate an ed25519 key with 32 key derivation function rounds and save the key to a specific file:\n\n`ssh-keygen -f {{~/.ssh/filename}} -t ed25519 -a 32`\n\n" +
	"- Remove the keys of a host from the `known_hosts` file (useful when a known host has a new key):\n\n`ssh-keygen -R {{remote_host}}`\n\n" +
	"- Retrieve the fingerprint of a key in MD5 Hex:\n\n`ssh-keygen -f {{~/.ssh/filename}} -l -E md5`\n\n" +
	"- Retrieve public key from private key:\n\n`ssh-keygen -f {{~/.ssh/OpenSSH_private_key}} -y`\n"

// TestBesidesSetsExamplesAside: "Besides creating keys, what else can
// ssh-keygen do?" lists the page's other examples, not those that do what
// the question sets aside (generating keys, a kind of creating them).
func TestBesidesSetsExamplesAside(t *testing.T) {
	src := parseMD(t, "common/ssh-keygen.md", sshKeygenMD)
	md := solveMD(t, "verify", "Besides creating keys, what else can ssh-keygen do?", "Besides creating keys, what else can ssh-keygen do", []mdSource{src}, src.soleLeaf(t))
	checkMD(t, md, []string{"known_hosts", "fingerprint", "Retrieve public key from private key"}, []string{"Generate a key interactively", "ed25519"})
	if x := exclusionOf("What does tar do?"); x.action != "" || len(x.terms) != 0 {
		t.Errorf("a question setting nothing aside gave %+v", x)
	}
}
