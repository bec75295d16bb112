package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// folderRef is a workspace folder as the client names it.
type folderRef struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// initializeParams is the part of InitializeParams the server reads.
type initializeParams struct {
	RootURI               string          `json:"rootUri"`
	RootPath              string          `json:"rootPath"`
	WorkspaceFolders      []folderRef     `json:"workspaceFolders"`
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	Capabilities          struct {
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
		Workspace struct {
			Configuration         bool `json:"configuration"`
			WorkspaceFolders      bool `json:"workspaceFolders"`
			DidChangeWatchedFiles struct {
				DynamicRegistration bool `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

type textDocumentPositionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position protocol.Position `json:"position"`
}

// uriToPath returns the file path of a file: URI, or "".
func uriToPath(u string) string {
	if !strings.HasPrefix(u, "file:") {
		return ""
	}
	p := uri.URI(u).FsPath()
	if p == "" {
		if pu, err := url.Parse(u); err == nil {
			p = pu.Path
		}
	}
	return filepath.Clean(p)
}

// pathToURI returns the file: URI of a path.
func pathToURI(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return string(uri.File(p))
}

// offsetOf converts an LSP position (UTF-16 code units) to a byte offset in
// text, clamped to the text.
func offsetOf(text string, pos protocol.Position) int {
	line := int(pos.Line)
	off := 0
	for i := 0; i < line; i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	units := int(pos.Character)
	i := off
	for i < end && units > 0 {
		r, size := utf8.DecodeRuneInString(text[i:])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		units -= n
		i += size
	}
	return i
}

// positionOf converts a byte offset to an LSP position.
func positionOf(text string, off int) protocol.Position {
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	units := 0
	for _, r := range text[start:off] {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		units += n
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// lineColPosition converts a 1-based line and 1-based byte column to an LSP
// position, using text when it is known.
func lineColPosition(text string, line, col int) protocol.Position {
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	if text == "" {
		return protocol.Position{Line: uint32(line - 1), Character: uint32(col - 1)}
	}
	off := 0
	for i := 1; i < line; i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return positionOf(text, len(text))
		}
		off += j + 1
	}
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	c := min(col-1, end)
	return positionOf(text, off+c)
}

// PathToURI returns the file: URI of a path (exported for clients and tests).
func PathToURI(p string) string { return pathToURI(p) }
