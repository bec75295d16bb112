package wrapper

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// Limits bound one wrapper call. Zero fields take the defaults.
type Limits struct {
	TimeoutMs      int // used when the manifest sets no timeout; default 30000
	MaxInputBytes  int // upper bound on the payload; default 65536
	MaxOutputBytes int // stdout cap; default 1 MiB
	MaxStderrBytes int // stderr kept for messages; default 4096
	// KillGrace is how long to wait for pipes to close after the process
	// group is killed; default 1s.
	KillGrace time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.TimeoutMs <= 0 {
		l.TimeoutMs = 30000
	}
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = DefaultMaxInputBytes
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = 1 << 20
	}
	if l.MaxStderrBytes <= 0 {
		l.MaxStderrBytes = 4096
	}
	if l.KillGrace <= 0 {
		l.KillGrace = time.Second
	}
	return l
}

// Runner runs one wrapper.
type Runner struct {
	m      *Manifest
	limits Limits
	pin    string // expected Fingerprint; "" when the wrapper is not bound to its contents
}

// Pin binds the runner to a fingerprint (see Fingerprint): every call
// checks the wrapper's files against it first and refuses to start a
// wrapper that changed since it was allowlisted.
func (r *Runner) Pin(fingerprint string) { r.pin = strings.ToLower(fingerprint) }

// NewRunner prepares calls to a validated, allowlisted wrapper.
func NewRunner(m *Manifest, l Limits) *Runner { return &Runner{m: m, limits: l.withDefaults()} }

// Manifest returns the wrapper's manifest.
func (r *Runner) Manifest() *Manifest { return r.m }

// Timeout is the per-call timeout: the manifest's, else the engine's.
func (r *Runner) Timeout() time.Duration {
	if r.m.TimeoutMs > 0 {
		return time.Duration(r.m.TimeoutMs) * time.Millisecond
	}
	return time.Duration(r.limits.TimeoutMs) * time.Millisecond
}

// MaxInput is the payload cap: the smaller of the manifest's and the
// engine's.
func (r *Runner) MaxInput() int {
	if n := r.m.MaxInputSizeBytes; n > 0 && n < r.limits.MaxInputBytes {
		return n
	}
	return r.limits.MaxInputBytes
}

func (r *Runner) fail(code, format string, args ...any) *plugin.PluginError {
	return &plugin.PluginError{Ref: r.m.File, ID: r.m.Descriptor.ID, Stage: plugin.StageRun, Code: code,
		Message: fmt.Sprintf(format, args...)}
}

// Call runs the wrapper once on a payload. Every failure is a
// *plugin.PluginError with stage run: wrapper_input_too_large,
// wrapper_start_failed, wrapper_timeout (killed at the timeout, or exit
// 3), wrapper_exit (exit 1, 2 or another status), wrapper_bad_output
// (no valid `## Plugin Result` block, or stdout over its cap), canceled.
func (r *Runner) Call(ctx context.Context, p plugin.Payload) (*plugin.WrapperResult, error) {
	input, err := json.Marshal(p)
	if err != nil {
		return nil, r.fail(plugin.CodeManifestInvalid, "encode payload: %v", err)
	}
	if max := r.MaxInput(); len(input) > max {
		return nil, r.fail(plugin.CodeWrapperInputTooLarge, "payload is %d bytes; the limit is %d", len(input), max)
	}

	if r.pin != "" {
		got, err := Fingerprint(r.m)
		if err != nil {
			return nil, r.fail(plugin.CodeNotAllowlisted, "%v", err)
		}
		if got != r.pin {
			return nil, r.fail(plugin.CodeNotAllowlisted, "the wrapper's files changed since they were allowlisted (sha256 %s, allowlisted %s); not started", got, r.pin)
		}
	}

	runCtx, cancel := context.WithTimeout(ctx, r.Timeout())
	defer cancel()
	stdout := &capBuffer{max: r.limits.MaxOutputBytes, onFull: cancel}
	stderr := &capBuffer{max: r.limits.MaxStderrBytes}

	tag := callTag()
	build := func() *exec.Cmd {
		cmd := exec.CommandContext(runCtx, r.m.Path, r.m.Args...)
		cmd.Dir = r.m.Dir
		cmd.Stdin = bytes.NewReader(input)
		cmd.Stdout = stdout
		cmd.Stderr = stderr
		cmd.Env = append(os.Environ(), "MRPVM_PLUGIN_ID="+r.m.Descriptor.ID, "MRPVM_PROTOCOL_VERSION="+strconv.Itoa(ProtocolVersion),
			tagEnv+"="+tag)
		cmd.Cancel = func() error { return killProcessGroup(cmd) }
		cmd.WaitDelay = r.limits.KillGrace
		return cmd
	}

	start := time.Now()
	cmd, contained, err := startContained(build, tag)
	if err != nil {
		return nil, r.fail(plugin.CodeWrapperStart, "start %s: %v", r.m.Path, err)
	}
	waitErr := cmd.Wait()
	if errors.Is(waitErr, exec.ErrWaitDelay) {
		waitErr = nil // exited cleanly; a leftover child held stdout open and is killed below
	}
	// Whatever happened, no process the call started may outlive it: in a
	// PID namespace the kernel has already killed them with the wrapper;
	// otherwise kill the process group, then whatever left it.
	_ = killProcessGroup(cmd)
	if !contained {
		killTagged(tag)
	}
	elapsed := time.Since(start).Round(time.Millisecond)

	switch {
	case stdout.truncated():
		return nil, r.fail(plugin.CodeWrapperBadOutput, "stdout exceeded %d bytes; the process group was killed%s", r.limits.MaxOutputBytes, stderrNote(stderr))
	case ctx.Err() != nil:
		return nil, r.fail(plugin.CodeCanceled, "call canceled after %s: %v", elapsed, ctx.Err())
	case runCtx.Err() == context.DeadlineExceeded:
		return nil, r.fail(plugin.CodeWrapperTimeout, "no answer within %s; the process group was killed%s", r.Timeout(), stderrNote(stderr))
	}
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return nil, r.fail(plugin.CodeWrapperExit, "%v%s", waitErr, stderrNote(stderr))
		}
		code := ee.ExitCode()
		reason := stderrError(stderr)
		switch code {
		case 1:
			return nil, r.fail(plugin.CodeWrapperExit, "exit status 1 (processing error)%s", reason)
		case 2:
			return nil, r.fail(plugin.CodeWrapperExit, "exit status 2 (invalid input)%s", reason)
		case 3:
			return nil, r.fail(plugin.CodeWrapperTimeout, "exit status 3 (the wrapper timed out)%s", reason)
		}
		return nil, r.fail(plugin.CodeWrapperExit, "%v%s", waitErr, reason)
	}
	res, err := ParseResult(stdout.Bytes())
	if err != nil {
		return nil, r.fail(plugin.CodeWrapperBadOutput, "%v; stdout began %q%s", err, excerpt(stdout.Bytes(), 120), stderrNote(stderr))
	}
	return res, nil
}

// tagEnv is the environment variable that marks every process of one
// wrapper call.
const tagEnv = "MRPVM_WRAPPER_CALL"

// callTag returns a fresh random tag for one call.
func callTag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// capBuffer keeps at most max bytes and calls onFull once when more come.
// It never fails a write, so the child does not die of a broken pipe while
// it is being killed.
type capBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	max    int
	full   bool
	onFull func()
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - c.buf.Len()
	if len(p) > room {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		if !c.full {
			c.full = true
			if c.onFull != nil {
				go c.onFull()
			}
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capBuffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf.Bytes())
}

func (c *capBuffer) truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.full
}

func excerpt(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

func stderrNote(c *capBuffer) string {
	s := excerpt(c.Bytes(), 1000)
	if s == "" {
		return ""
	}
	if c.truncated() {
		s += " [stderr truncated]"
	}
	return "; stderr: " + s
}

// stderrError renders the wrapper's JSON error line {code, message,
// details}, or the raw stderr when there is none.
func stderrError(c *capBuffer) string {
	sc := bufio.NewScanner(bytes.NewReader(c.Bytes()))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var e struct {
			Code    string          `json:"code"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && (e.Code != "" || e.Message != "") {
			s := "; wrapper error " + e.Code + ": " + e.Message
			if len(e.Details) > 0 && string(e.Details) != "null" {
				s += " " + excerpt(e.Details, 300)
			}
			return s
		}
	}
	return stderrNote(c)
}

// ParseResult reads the `## Plugin Result` block of a wrapper's stdout:
//
//	## Plugin Result
//	Status: success
//	Plugin: my-wrapper
//	Confidence: 0.8
//	Result: the answer, which may
//	continue on the following lines
//	Evidence:
//	- one item per line
//
// Status is required and must be a known status. Confidence is a number in
// [0, 1] (a trailing % divides by 100) or one of the labels high (0.9),
// medium (0.6) and low (0.3); any other value is dropped and named in
// Warnings, so an odd confidence never loses the answer. Text before the
// heading is ignored.
func ParseResult(out []byte) (*plugin.WrapperResult, error) {
	lines := strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.EqualFold(strings.TrimSpace(l), "## Plugin Result") {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, errors.New("no `## Plugin Result` block")
	}
	res := &plugin.WrapperResult{Evidence: []string{}}
	var result []string
	field := ""
	seenStatus := false
	for _, l := range lines[start:] {
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "# ") {
			break
		}
		if key, val, ok := resultField(l); ok {
			field = key
			switch key {
			case "status":
				seenStatus = true
				res.Status = plugin.Status(strings.ToLower(val))
			case "plugin":
				res.Plugin = val
			case "confidence":
				if f, ok := parseConfidence(val); ok {
					res.Confidence = &f
				} else {
					res.Warnings = append(res.Warnings, fmt.Sprintf("Confidence %q is neither a number in [0, 1] nor high, medium or low; ignored", val))
				}
			case "result":
				if val != "" {
					result = append(result, val)
				}
			case "evidence":
				if val != "" {
					res.Evidence = append(res.Evidence, val)
				}
			}
			continue
		}
		switch field {
		case "result":
			result = append(result, l)
		case "evidence":
			item := strings.TrimSpace(l)
			item = strings.TrimPrefix(strings.TrimPrefix(item, "- "), "* ")
			if item != "" {
				res.Evidence = append(res.Evidence, item)
			}
		}
	}
	if !seenStatus {
		return nil, errors.New("the `## Plugin Result` block has no Status line")
	}
	if !res.Status.In(wrapperStatuses) {
		return nil, fmt.Errorf("unknown Status %q", res.Status)
	}
	res.Result = strings.TrimSpace(strings.Join(result, "\n"))
	return res, nil
}

// ConfidenceLabels maps the confidence words a wrapper may write to the
// number it stands for.
var ConfidenceLabels = map[string]float64{"high": 0.9, "medium": 0.6, "low": 0.3}

// parseConfidence reads a Confidence value: a number in [0, 1], a
// percentage, or a label of ConfidenceLabels (any case).
func parseConfidence(val string) (float64, bool) {
	v := strings.ToLower(strings.TrimSpace(val))
	if f, ok := ConfidenceLabels[v]; ok {
		return f, true
	}
	scale := 1.0
	if p, ok := strings.CutSuffix(v, "%"); ok {
		v, scale = strings.TrimSpace(p), 100
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	f /= scale
	if f < 0 || f > 1 {
		return 0, false
	}
	return f, true
}

var wrapperStatuses = []plugin.Status{plugin.StatusSuccess, plugin.StatusError, plugin.StatusUnsupported, plugin.StatusInsufficient,
	plugin.StatusNoContext, plugin.StatusNeedsDecomposition, plugin.StatusAccepted, plugin.StatusRejected, plugin.StatusSkipped}

func resultField(l string) (key, val string, ok bool) {
	k, v, found := strings.Cut(l, ":")
	if !found {
		return "", "", false
	}
	k = strings.ToLower(strings.TrimSpace(k))
	switch k {
	case "status", "plugin", "confidence", "result", "evidence":
		if strings.TrimSpace(k) != strings.ToLower(k) || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			return "", "", false
		}
		return k, strings.TrimSpace(v), true
	}
	return "", "", false
}
