package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"

	"github.com/mrpvm/mrpvm/config"
)

// watcher is the built-in file watcher used when the client cannot register
// workspace/didChangeWatchedFiles. fsnotify watches folders, not trees, so
// every folder of a workspace is added and new folders are added as they appear.
type watcher struct {
	s    *Server
	w    *fsnotify.Watcher
	mu   sync.Mutex
	done chan struct{}
}

func newWatcher(s *Server) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{s: s, w: fw, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// add watches root, every folder below it the workspace walk would visit
// and root's .mrpvm configuration folder.
func (w *watcher) add(root string) {
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && name == config.WorkspaceDir && filepath.Dir(p) == root {
			// The folder's configuration files: a change reloads it.
			if err := w.w.Add(p); err != nil {
				w.s.log.Warn("watch", "path", p, "err", err)
			}
			return filepath.SkipDir
		}
		if p != root && (name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if err := w.w.Add(p); err != nil {
			w.s.log.Warn("watch", "path", p, "err", err)
		}
		return nil
	})
}

// remove stops watching root and its subfolders.
func (w *watcher) remove(root string) {
	for _, p := range w.w.WatchList() {
		if within(root, p) {
			_ = w.w.Remove(p)
		}
	}
}

func (w *watcher) close() {
	w.w.Close()
	<-w.done
}

func (w *watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					w.add(ev.Name)
					continue
				}
			}
			if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.s.fileChanged(ev.Name)
				if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write) {
					w.s.scheduleDiagnostics(pathToURI(ev.Name))
				}
			}
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			w.s.log.Warn("watcher", "err", err)
		}
	}
}
