// Command testwrapper is an external wrapper plugin used by the tests. Its
// first argument picks a behaviour.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

type payload struct {
	Prompt  string `json:"prompt"`
	Context []struct {
		Title      string `json:"title"`
		SourceLink string `json:"sourceLink"`
		Text       string `json:"text"`
	} `json:"context"`
}

func main() {
	mode := "echo"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "sleep":
		if f := os.Getenv("TESTWRAPPER_PIDFILE"); f != "" {
			// The pid as the test sees it: /proc is the host's even when
			// the wrapper runs in a PID namespace of its own.
			pid := strconv.Itoa(os.Getpid())
			if self, err := os.Readlink("/proc/self"); err == nil {
				pid = self
			}
			_ = os.WriteFile(f+".tmp", []byte(pid), 0o644)
			_ = os.Rename(f+".tmp", f)
		}
		time.Sleep(time.Hour)
		return
	case "hang":
		// Start a child in our process group, record its pid, then hang.
		child := exec.Command(os.Args[0], "sleep")
		child.Env = append(os.Environ(), "TESTWRAPPER_PIDFILE=child.pid")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		time.Sleep(time.Hour)
		return
	case "flood":
		line := []byte(strings.Repeat("flood ", 170) + "\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				os.Exit(1)
			}
		}
	case "garbage":
		io.Copy(io.Discard, os.Stdin)
		fmt.Println("Sure! Here is your answer: 42")
		fmt.Println("{\"not\": \"a plugin result\"}")
		return
	case "exit2":
		io.Copy(io.Discard, os.Stdin)
		fmt.Fprintln(os.Stderr, `{"code":"bad_input","message":"prompt is missing","details":{"field":"prompt"}}`)
		os.Exit(2)
	case "exit1-raw":
		fmt.Fprintln(os.Stderr, "traceback: something broke")
		os.Exit(1)
	case "exit3":
		os.Exit(3)
	}
	var p payload
	if err := json.NewDecoder(os.Stdin).Decode(&p); err != nil {
		fmt.Fprintf(os.Stderr, "{\"code\":\"bad_json\",\"message\":%q}\n", err.Error())
		os.Exit(2)
	}
	status := "success"
	if mode == "status" && len(os.Args) > 2 {
		status = os.Args[2]
	}
	wd, _ := os.Getwd()
	fmt.Println("some log line before the block")
	fmt.Println("## Plugin Result")
	fmt.Println("Status: " + status)
	fmt.Println("Plugin: " + os.Getenv("MRPVM_PLUGIN_ID"))
	fmt.Println("Confidence: 0.75")
	fmt.Println("Result: echo: " + p.Prompt)
	fmt.Println("cwd: " + wd)
	fmt.Println("Evidence:")
	for _, c := range p.Context {
		fmt.Println("- " + c.Title)
	}
}
