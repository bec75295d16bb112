package engine

// maxSourceTextBytes bounds the source text SourceText hands out: answers
// quote passages, and a larger file is read for its KUs only.
const maxSourceTextBytes = 4 << 20

// SourceText returns the text of a stored source as it was ingested: a
// built-in source's text, or the file when it is still on disk unchanged
// (same hash) and at most 4 MiB. It returns nil for an unknown, changed,
// removed or larger source; callers fall back to the stored KUs.
func (kb *KB) SourceText(sourceID string) []byte {
	rec, err := kb.store.Source(sourceID)
	if err != nil || rec == nil || rec.Size > maxSourceTextBytes {
		return nil
	}
	return kb.sourceText(rec)
}
