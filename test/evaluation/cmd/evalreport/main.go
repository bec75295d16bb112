package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/test/evaluation"
	"github.com/mrpvm/mrpvm/test/internal/tldrpages"
)

func main() {
	set := flag.String("set", "dev", "question set: "+strings.Join(evaluation.SetNames, ", ")+" or all")
	wsFlag := flag.String("workspace", "", "comma-separated workspaces to run (mrpvm-docs, tldr, golibs); default all")
	misses := flag.Bool("misses", false, "list every wrong answer of the set after the tables")
	show := flag.String("show", "", "comma-separated question ids (or id prefixes) whose full answers are printed after the tables")
	flag.Parse()
	if err := run(*set, *wsFlag, *misses, *show); err != nil {
		fmt.Fprintln(os.Stderr, "evalreport:", err)
		os.Exit(1)
	}
}

func run(set, wsFlag string, misses bool, show string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, err := tldrpages.ModuleRoot()
	if err != nil {
		return err
	}
	sets, err := evaluation.LoadSets(root + "/test/evaluation")
	if err != nil {
		return err
	}
	var chosen []*evaluation.Set
	for _, s := range sets {
		if set == "all" || s.Name == set {
			chosen = append(chosen, s)
		}
	}
	if len(chosen) == 0 {
		return fmt.Errorf("-set %q: want %s or all", set, strings.Join(evaluation.SetNames, ", "))
	}
	tmp, err := os.MkdirTemp("", "mrpvm-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var wss []string
	if wsFlag != "" {
		wss = strings.Split(wsFlag, ",")
	}
	rep, err := evaluation.Run(ctx, evaluation.Options{Root: root, Sets: chosen, Workspaces: wss, TempDir: tmp,
		Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }})
	if err != nil {
		return err
	}
	rep.WriteMarkdown(os.Stdout)
	if misses {
		fmt.Println("### Wrong answers")
		fmt.Println()
		rep.WriteMisses(os.Stdout, "")
	}
	if show != "" {
		fmt.Println()
		fmt.Println("### Answers")
		for _, r := range rep.Results {
			for _, p := range strings.Split(show, ",") {
				if p != "" && strings.HasPrefix(r.ID, p) {
					fmt.Printf("\n#### %s (%s, right %v)\n\n%s\n\n%s\n", r.ID, r.Status, r.Right, r.Question, r.Answer)
					break
				}
			}
		}
	}
	return nil
}
