package wrapper

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

func TestArgLeaves(t *testing.T) {
	bad := []string{"/etc/passwd", "--file=/etc/passwd", "--config=../../secrets.json", "-f/etc/passwd", "-I/usr/include",
		"--path=data:/etc", "--list=a,/etc/shadow", "file:///etc/passwd", "--in=file://localhost/etc/passwd",
		"--key=~/.ssh/id_rsa", "~/x", `C:\Windows`, "--x=C:/Windows", `--y=\\server\share`, "a=b=/c", "--dir=x/../../y"}
	good := []string{"data/input.txt", "--mode=fast", "--url=http://localhost:8080/v1", "https://example.com/a?b=c",
		"-v", "--count=3", "run.py", "--ratio=1:2", "key=value,other=thing", "--name=a-b"}
	for _, a := range bad {
		if _, leaves := argLeaves(a); !leaves {
			t.Errorf("%q passed the sandbox", a)
		}
	}
	for _, a := range good {
		if p, leaves := argLeaves(a); leaves {
			t.Errorf("%q refused for %q", a, p)
		}
	}
}

// writeShellWrapper writes a gs-plugin wrapper running script with args,
// which the runner stops after 500 ms.
func writeShellWrapper(t *testing.T, args, script string) string {
	t.Helper()
	return writeShellWrapperTimeout(t, args, script, 500)
}

// writeShellWrapperTimeout is writeShellWrapper with the manifest's
// timeoutMs set to ms.
func writeShellWrapperTimeout(t *testing.T, args, script string, ms int) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script wrappers")
	}
	dir := t.TempDir()
	manifest := `{"id": "shell", "type": "gs-plugin", "description": "A shell-script wrapper of the tests.", "costClass": "cheap",
		"protocolVersion": 1, "command": "./run.sh", "args": ` + args + `, "timeoutMs": ` + strconv.Itoa(ms) + `}`
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEqualsJoinedPathIsRefused: --file=/etc/passwd used to pass the
// argument check and the wrapper read the file.
func TestEqualsJoinedPathIsRefused(t *testing.T) {
	dir := writeShellWrapper(t, `["--file=/etc/passwd"]`,
		"cat >/dev/null\nprintf '## Plugin Result\\nStatus: success\\nResult: '\nhead -c 40 \"${1#--file=}\"\n")
	m, errs := LoadManifest(filepath.Join(dir, ManifestFile))
	if m != nil {
		res, err := NewRunner(m, Limits{}).Call(context.Background(), plugin.Payload{Prompt: "q"})
		t.Fatalf("the manifest loaded and the wrapper ran: %+v %v", res, err)
	}
	if len(errs) != 1 || errs[0].Code != plugin.CodePathSandboxViolation || errs[0].Field != "args.0" {
		t.Errorf("problems %v", errs)
	}
}
