package lsp

// scheduleDiagnostics recomputes and publishes a document's diagnostics
// (debounced).
func (s *Server) scheduleDiagnostics(u string) {}
