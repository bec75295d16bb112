package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/test/internal/lspclient"
	"github.com/mrpvm/mrpvm/test/internal/mrpvmbin"
)

type wsFlag []string

func (w *wsFlag) String() string     { return strings.Join(*w, ",") }
func (w *wsFlag) Set(s string) error { *w = append(*w, s); return nil }

var (
	binFlag     = flag.String("bin", "", "mrpvm binary (default: go build ./cmd/mrpvm into a temporary folder)")
	hovers      = flag.Int("hovers", 600, "hover requests per workspace")
	asks        = flag.Int("asks", 60, "mrpvm.ask requests per workspace")
	saves       = flag.Int("saves", 10, "saved files per workspace")
	questions   = flag.String("questions", "", "file of questions, one a line (default: generated from the pages)")
	sciQueries  = flag.String("scifact-queries", "/work/shared/data/scifact/queries-train.jsonl", "SciFact queries (questions for a workspace named scifact)")
	jsonOut     = flag.Bool("json", false, "print the figures as one JSON object a workspace too")
	keep        = flag.Bool("keep", false, "keep the temporary folder (knowledge bases, logs)")
	profileDir  = flag.String("profile", "", "write heap (at shutdown) and CPU profiles of the warm server to this folder")
	wsList      wsFlag
	wordRe      = regexp.MustCompile(`[A-Za-z][A-Za-z0-9-]{3,}`)
	bulletRe    = regexp.MustCompile(`(?m)^- (.{12,120}?):?$`)
	ingestTitle = "mrpvm: ingest"
)

// figures are one workspace's results.
type figures struct {
	Workspace          string  `json:"workspace"`
	Files              int     `json:"files"`
	ColdIngestS        float64 `json:"coldIngestSeconds"`
	ColdPeakRSSMB      float64 `json:"coldPeakRSSMB"`
	FirstHoverMS       float64 `json:"firstHoverMs"`
	FirstHoverDuring   bool    `json:"firstHoverDuringIngest"`
	DuringHovers       int     `json:"hoversDuringIngest"`
	DuringP50MS        float64 `json:"hoverDuringIngestP50Ms"`
	DuringP95MS        float64 `json:"hoverDuringIngestP95Ms"`
	DuringMaxMS        float64 `json:"hoverDuringIngestMaxMs"`
	WarmStartMS        float64 `json:"warmStartMs"`
	WarmFromInitMS     float64 `json:"warmFromInitializeMs"`
	HoverP50MS         float64 `json:"hoverP50Ms"`
	HoverP95MS         float64 `json:"hoverP95Ms"`
	HoverP99MS         float64 `json:"hoverP99Ms"`
	HoverHits          float64 `json:"hoverHitRate"`
	SaveHoverMedMS     float64 `json:"saveToHoverMedianMs"`
	SaveHoverMaxMS     float64 `json:"saveToHoverMaxMs"`
	SaveAskMedMS       float64 `json:"saveToAskMedianMs"`
	SaveAskMaxMS       float64 `json:"saveToAskMaxMs"`
	AskMedianMS        float64 `json:"askMedianMs"`
	AskP95MS           float64 `json:"askP95Ms"`
	AskAnswered        float64 `json:"askAnsweredRate"`
	ServingPeakRSSMB   float64 `json:"servingPeakRSSMB"`
	ServingCurrentRSSB float64 `json:"servingRSSMB"`
	ServingAnonMB      float64 `json:"servingRssAnonMB"`
	ServingFileMB      float64 `json:"servingRssFileMB"`
	DBMB               float64 `json:"dbMB"`
	WarmRSSMB          float64 `json:"warmStartRSSMB"`
	// PhasePeakRSSMB is the warm server's VmHWM after each phase: the warm
	// start, the hovers, the saves and the asks.
	PhasePeakRSSMB [4]float64 `json:"phasePeakRSSMB"`
	WarmFileMB     float64    `json:"warmStartRssFileMB"`
}

func main() {
	flag.Var(&wsList, "ws", "name=folder of a workspace to measure (repeatable)")
	flag.Parse()
	if len(wsList) == 0 {
		fmt.Fprintln(os.Stderr, "lspbench: give at least one -ws name=folder")
		flag.Usage()
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "lspbench-")
	check(err)
	if !*keep {
		defer os.RemoveAll(tmp)
	}
	bin := *binFlag
	if bin == "" {
		bin, err = mrpvmbin.Build(tmp)
		check(err)
	}
	fmt.Printf("lspbench %s\nbinary: %s\n\n", strings.Join(os.Args[1:], " "), bin)
	var all []figures
	for _, w := range wsList {
		name, dir, ok := strings.Cut(w, "=")
		if !ok {
			check(fmt.Errorf("-ws %q: want name=folder", w))
		}
		f, err := measure(bin, tmp, name, dir)
		check(err)
		all = append(all, f)
		report(f)
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Println(string(b))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := len(s) * p / 100
	if i >= len(s) {
		i = len(s) - 1
	}
	return s[i]
}

func report(f figures) {
	mark := func(v, target float64) string {
		if v <= target {
			return "ok"
		}
		return "MISSED"
	}
	fmt.Printf("== %s (%d Markdown files)\n", f.Workspace, f.Files)
	fmt.Printf("  cold ingest                         %8.2f s   (peak RSS %.1f MB)\n", f.ColdIngestS, f.ColdPeakRSSMB)
	fmt.Printf("  first hover during the cold ingest  %8.2f ms  target ≤100 ms  %s (ingest still running: %v)\n", f.FirstHoverMS, mark(f.FirstHoverMS, 100), f.FirstHoverDuring)
	fmt.Printf("  hovers during the cold ingest       %8.2f / %.2f / %.2f ms p50/p95/max over %d hovers\n", f.DuringP50MS, f.DuringP95MS, f.DuringMaxMS, f.DuringHovers)
	fmt.Printf("  warm start to end of $/progress     %8.2f ms  target ≤300 ms  %s (from initialize: %.2f ms)\n", f.WarmStartMS, mark(f.WarmStartMS, 300), f.WarmFromInitMS)
	fmt.Printf("  RSS after the warm start            %8.1f MB  (file-backed %.1f MB)\n", f.WarmRSSMB, f.WarmFileMB)
	fmt.Printf("  peak RSS after warm start / hovers / saves / asks  %.1f / %.1f / %.1f / %.1f MB\n", f.PhasePeakRSSMB[0], f.PhasePeakRSSMB[1], f.PhasePeakRSSMB[2], f.PhasePeakRSSMB[3])
	fmt.Printf("  hover p50 / p95 / p99               %8.2f / %.2f / %.2f ms  target p95 ≤10 ms  %s (%.0f%% with a result)\n", f.HoverP50MS, f.HoverP95MS, f.HoverP99MS, mark(f.HoverP95MS, 10), f.HoverHits*100)
	fmt.Printf("  saved file visible to hover         %8.2f ms median, %.2f ms max  target ≤50 ms  %s\n", f.SaveHoverMedMS, f.SaveHoverMaxMS, mark(f.SaveHoverMedMS, 50))
	fmt.Printf("  saved file visible to mrpvm.ask     %8.2f ms median, %.2f ms max  target ≤50 ms  %s\n", f.SaveAskMedMS, f.SaveAskMaxMS, mark(f.SaveAskMedMS, 50))
	fmt.Printf("  mrpvm.ask (gs-symbolic) median/p95  %8.2f / %.2f ms  target median ≤30 ms  %s (%.0f%% answered)\n", f.AskMedianMS, f.AskP95MS, mark(f.AskMedianMS, 30), f.AskAnswered*100)
	fmt.Printf("  serving peak RSS (VmHWM)            %8.1f MB  target ≤120 MB  %s (VmRSS now %.1f MB: anonymous %.1f MB, file-backed %.1f MB; db file %.1f MB)\n\n",
		f.ServingPeakRSSMB, mark(f.ServingPeakRSSMB, 120), f.ServingCurrentRSSB, f.ServingAnonMB, f.ServingFileMB, f.DBMB)
}

// page is one Markdown file of the workspace.
type page struct {
	path string
	text string
}

func loadPages(dir string) ([]page, error) {
	var out []page
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, page{path: p, text: string(b)})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, err
}

// position returns the 0-based line and UTF-16 column of byte offset off
// (the pages used are ASCII where it matters; the column counts runes).
func position(text string, off int) (int, int) {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return line, len([]rune(text[start:off]))
}

func env(home string) []string {
	return []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "MRPVM_CONFIG_DIR=" + filepath.Join(home, "config", "mrpvm"),
		"MRPVM_LLM_BASE_URL=", "MRPVM_LLM_MODEL=", "MRPVM_LLM_API_KEY=", "MRPVM_LLM_API_KEY_FILE="}
}

func measure(bin, tmp, name, dir string) (figures, error) {
	f := figures{Workspace: name}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return f, err
	}
	pages, err := loadPages(dir)
	if err != nil {
		return f, err
	}
	f.Files = len(pages)
	if len(pages) == 0 {
		return f, fmt.Errorf("%s: no Markdown files", dir)
	}
	home := filepath.Join(tmp, name+"-home")
	db := filepath.Join(tmp, name+".db")
	logFile := filepath.Join(tmp, name+".log")
	opts := lspclient.Options{Binary: bin, Args: []string{"--db", db, "--log", logFile}, Env: env(home)}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	rng := rand.New(rand.NewPCG(7, uint64(len(pages))))

	// 1. Cold start: the first hover is sent right after initialized.
	c, err := lspclient.Start(opts)
	if err != nil {
		return f, err
	}
	if err := c.Initialize(ctx, dir, nil); err != nil {
		c.Kill()
		return f, err
	}
	initAt := time.Now()
	first := pages[0]
	off := wordRe.FindStringIndex(first.text)
	line, char := position(first.text, off[0])
	t0 := time.Now()
	if _, err := c.Hover(ctx, lspclient.PathToURI(first.path), line, char); err != nil {
		c.Kill()
		return f, fmt.Errorf("first hover: %w", err)
	}
	answered := time.Now()
	f.FirstHoverMS = ms(answered.Sub(t0))
	// More hovers at random words every 20ms until the ingest ends.
	var during []time.Duration
	for lspclient.ProgressEnd(c.Notes(), ingestTitle).IsZero() {
		p := pages[rng.IntN(len(pages))]
		if words := wordRe.FindAllStringIndex(p.text, -1); len(words) > 0 {
			w := words[rng.IntN(len(words))]
			line, char := position(p.text, w[0]+1)
			t0 := time.Now()
			if _, err := c.Hover(ctx, lspclient.PathToURI(p.path), line, char); err != nil {
				c.Kill()
				return f, fmt.Errorf("hover during the ingest: %w", err)
			}
			if lspclient.ProgressEnd(c.Notes(), ingestTitle).IsZero() {
				during = append(during, time.Since(t0))
			}
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-c.Exited():
			return f, fmt.Errorf("the server exited during the cold ingest: %s", c.Stderr())
		}
	}
	f.DuringHovers = len(during)
	f.DuringP50MS, f.DuringP95MS, f.DuringMaxMS = ms(pct(during, 50)), ms(pct(during, 95)), ms(pct(during, 100))
	if err := waitEnd(ctx, c); err != nil {
		c.Kill()
		return f, err
	}
	end := lspclient.ProgressEnd(c.Notes(), ingestTitle)
	f.FirstHoverDuring = answered.Before(end)
	f.ColdIngestS = end.Sub(initAt).Seconds()
	if hwm, err := lspclient.PeakRSS(c.Pid()); err == nil {
		f.ColdPeakRSSMB = float64(hwm) / (1 << 20)
	}
	if err := c.Shutdown(ctx); err != nil {
		return f, fmt.Errorf("cold server: %w", err)
	}

	// 2. Warm start of the unchanged workspace.
	if *profileDir != "" {
		opts.Args = append(opts.Args, "--memprofile", filepath.Join(*profileDir, name+"-warm.heap"),
			"--cpuprofile", filepath.Join(*profileDir, name+"-warm.cpu"))
	}
	c, err = lspclient.Start(opts)
	if err != nil {
		return f, err
	}
	defer func() {
		select {
		case <-c.Exited():
		default:
			c.Kill()
		}
	}()
	if err := c.Initialize(ctx, dir, nil); err != nil {
		return f, err
	}
	initAt = time.Now()
	if err := waitEnd(ctx, c); err != nil {
		return f, err
	}
	end = lspclient.ProgressEnd(c.Notes(), ingestTitle)
	f.WarmStartMS = ms(end.Sub(c.Started))
	f.WarmFromInitMS = ms(end.Sub(initAt))
	if v, err := lspclient.RSS(c.Pid()); err == nil {
		f.WarmRSSMB = float64(v) / (1 << 20)
	}
	if v, err := lspclient.Status(c.Pid(), "RssFile:"); err == nil {
		f.WarmFileMB = float64(v) / (1 << 20)
	}
	phasePeak := func(i int) {
		if hwm, err := lspclient.PeakRSS(c.Pid()); err == nil {
			f.PhasePeakRSSMB[i] = float64(hwm) / (1 << 20)
		}
	}
	phasePeak(0)

	// 3. Hover latency over words of random pages.
	var lat []time.Duration
	hits := 0
	for i := 0; i < *hovers; i++ {
		p := pages[rng.IntN(len(pages))]
		words := wordRe.FindAllStringIndex(p.text, -1)
		if len(words) == 0 {
			continue
		}
		w := words[rng.IntN(len(words))]
		line, char := position(p.text, w[0]+1)
		t0 := time.Now()
		h, err := c.Hover(ctx, lspclient.PathToURI(p.path), line, char)
		lat = append(lat, time.Since(t0))
		if err != nil {
			return f, fmt.Errorf("hover: %w", err)
		}
		if h != "" {
			hits++
		}
	}
	f.HoverP50MS, f.HoverP95MS, f.HoverP99MS = ms(pct(lat, 50)), ms(pct(lat, 95)), ms(pct(lat, 99))
	f.HoverHits = float64(hits) / float64(max(len(lat), 1))
	phasePeak(1)

	// 4. A saved file: how soon hover and mrpvm.ask see it.
	var toHover, toAsk []time.Duration
	for i := 0; i < *saves; i++ {
		// Letters only: tokenizers split digits off, which would make the
		// probes of earlier rounds match.
		token := "Quixotrelm" + strings.Map(func(r rune) rune { return 'a' + (r - '0') }, fmt.Sprintf("%03d", i)) + "zed"
		path := filepath.Join(dir, fmt.Sprintf("lspbench-saved-%d.md", i))
		text := fmt.Sprintf("# %s\n\n%s is the codename of bench probe %d: a saved file the server must pick up at once.\n", token, token, i)
		uri := lspclient.PathToURI(path)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return f, err
		}
		defer os.Remove(path)
		if err := c.Open(ctx, uri, "markdown", text); err != nil {
			return f, err
		}
		saved := time.Now()
		if err := c.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
			return f, err
		}
		var hoverAt, askAt time.Time
		deadline := saved.Add(10 * time.Second)
		for (hoverAt.IsZero() || askAt.IsZero()) && time.Now().Before(deadline) {
			if hoverAt.IsZero() {
				h, err := c.Hover(ctx, uri, 2, 3)
				if err != nil {
					return f, err
				}
				if strings.Contains(h, token) {
					hoverAt = time.Now()
				}
			}
			if askAt.IsZero() {
				var r askResult
				if err := c.Command(ctx, "mrpvm.ask", map[string]any{"question": "What is " + token + "?", "pins": map[string]string{"gs": "gs-symbolic"}}, &r); err != nil {
					return f, err
				}
				if r.cites(filepath.Base(path)) {
					askAt = time.Now()
				}
			}
		}
		if hoverAt.IsZero() || askAt.IsZero() {
			return f, fmt.Errorf("saved file %s not visible after 10s (hover %v, ask %v)", path, !hoverAt.IsZero(), !askAt.IsZero())
		}
		toHover = append(toHover, hoverAt.Sub(saved))
		toAsk = append(toAsk, askAt.Sub(saved))
		_ = c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	f.SaveHoverMedMS, f.SaveHoverMaxMS = ms(pct(toHover, 50)), ms(pct(toHover, 100))
	f.SaveAskMedMS, f.SaveAskMaxMS = ms(pct(toAsk, 50)), ms(pct(toAsk, 100))
	phasePeak(2)

	// 5. mrpvm.ask on the symbolic path.
	qs, err := questionsFor(name, pages, rng)
	if err != nil {
		return f, err
	}
	var askLat []time.Duration
	ok := 0
	for i := 0; i < *asks && i < len(qs); i++ {
		var r askResult
		t0 := time.Now()
		err := c.Command(ctx, "mrpvm.ask", map[string]any{"question": qs[i], "pins": map[string]string{"gs": "gs-symbolic"}}, &r)
		askLat = append(askLat, time.Since(t0))
		if err != nil {
			return f, fmt.Errorf("ask %q: %w", qs[i], err)
		}
		if r.Status == "ok" || r.Status == "answered" || len(r.Evidence) > 0 {
			ok++
		}
	}
	f.AskMedianMS, f.AskP95MS = ms(pct(askLat, 50)), ms(pct(askLat, 95))
	f.AskAnswered = float64(ok) / float64(max(len(askLat), 1))
	phasePeak(3)

	if hwm, err := lspclient.PeakRSS(c.Pid()); err == nil {
		f.ServingPeakRSSMB = float64(hwm) / (1 << 20)
	}
	if rss, err := lspclient.RSS(c.Pid()); err == nil {
		f.ServingCurrentRSSB = float64(rss) / (1 << 20)
	}
	if v, err := lspclient.Status(c.Pid(), "RssAnon:"); err == nil {
		f.ServingAnonMB = float64(v) / (1 << 20)
	}
	if v, err := lspclient.Status(c.Pid(), "RssFile:"); err == nil {
		f.ServingFileMB = float64(v) / (1 << 20)
	}
	if fi, err := os.Stat(db); err == nil {
		f.DBMB = float64(fi.Size()) / (1 << 20)
	}
	return f, c.Shutdown(ctx)
}

func waitEnd(ctx context.Context, c *lspclient.Client) error {
	return c.Wait(ctx, "the end of the ingest progress", func(n []lspclient.Note) bool {
		return !lspclient.ProgressEnd(n, ingestTitle).IsZero()
	})
}

// askResult is the part of mrpvm.ask's result the benchmark reads.
type askResult struct {
	Status   string `json:"status"`
	Evidence []struct {
		SourceID string `json:"sourceId"`
		URI      string `json:"uri"`
	} `json:"evidence"`
	AnswerMarkdown string `json:"answerMarkdown"`
}

func (r askResult) cites(file string) bool {
	for _, e := range r.Evidence {
		if strings.Contains(e.SourceID, file) || strings.Contains(e.URI, file) {
			return true
		}
	}
	return strings.Contains(r.AnswerMarkdown, file)
}

// questionsFor returns the questions asked of a workspace: -questions, the
// SciFact claims for a workspace named scifact, else questions made from
// the pages' list items ("- Extract an archive:" → "How do I extract an archive?")
// or titles.
func questionsFor(name string, pages []page, rng *rand.Rand) ([]string, error) {
	read := func(path string, fn func(string) string) ([]string, error) {
		fh, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		var out []string
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if q := fn(sc.Text()); q != "" {
				out = append(out, q)
			}
		}
		return out, sc.Err()
	}
	if *questions != "" {
		return read(*questions, strings.TrimSpace)
	}
	if name == "scifact" && *sciQueries != "" {
		return read(*sciQueries, func(l string) string {
			var q struct {
				Text string `json:"text"`
			}
			if json.Unmarshal([]byte(l), &q) != nil {
				return ""
			}
			return q.Text
		})
	}
	var out []string
	for len(out) < *asks*2 {
		p := pages[rng.IntN(len(pages))]
		ms := bulletRe.FindAllStringSubmatch(p.text, -1)
		if len(ms) == 0 {
			title, _, _ := strings.Cut(strings.TrimPrefix(p.text, "# "), "\n")
			out = append(out, "What is "+strings.TrimSpace(title)+"?")
			continue
		}
		item := ms[rng.IntN(len(ms))][1]
		item = strings.NewReplacer("[", "", "]", "", "`", "").Replace(strings.TrimSuffix(item, ":"))
		out = append(out, "How do I "+strings.ToLower(item[:1])+item[1:]+"?")
	}
	return out, nil
}
