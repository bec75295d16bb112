package engine

// SourceFiles lists the absolute paths of the workspace's Markdown files,
// sorted by source id: the files an ingest reads (.gitignore honoured,
// hidden folders and node_modules skipped, symlinks followed only inside the
// root and without loops).
func SourceFiles(root string) ([]string, error) {
	cands, _, err := walkWorkspace(root, true)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.path
	}
	return out, nil
}
