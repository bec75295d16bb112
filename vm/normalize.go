package vm

import (
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
)

// DocumentFromContextCNL builds a source's KU hierarchy from the contextCNL
// a seed detector's normalizePersistentContext returned: the Markdown
// reader's source summary on top, the admitted KUs as its leaves, each
// placed at the line where its text occurs in the source.
func DocumentFromContextCNL(cnl string, info kus.SourceInfo, md *kus.Document, src string) (*kus.Document, error) {
	res, err := sop.Interpret(cnl)
	if err != nil {
		return nil, fmt.Errorf("contextCNL of %s: %w", info.SourceID, err)
	}
	text := src
	doc := &kus.Document{Source: info, Title: info.SourceName}
	var summary *kus.KU
	if md != nil && len(md.Units) > 0 {
		s := *md.Units[0]
		s.ChildUnitIDs = nil
		summary = &s
		doc.Title = md.Title
	} else {
		summary = &kus.KU{ID: info.SourceID + "::source-summary", KUType: kus.TypeAggregate, Level: kus.LevelSummary,
			Title: info.SourceName, Topic: info.SourceName, Role: "Description", SourceID: info.SourceID}
	}
	if text == "" && md != nil {
		text = sourceTextOf(md)
	}
	doc.Units = append(doc.Units, summary)
	seen := map[string]bool{summary.ID: true}
	for i, k := range res.ActiveKUs() {
		c := *k
		if c.ID == "" || seen[c.ID] || !strings.HasPrefix(c.ID, info.SourceID+"::") {
			c.ID = fmt.Sprintf("%s::0::%d", info.SourceID, i)
		}
		seen[c.ID] = true
		c.SourceID, c.SourceName, c.SourceType, c.IngestedAt = info.SourceID, info.SourceName, info.SourceType, info.IngestedAt
		c.Level = kus.LevelLeaf
		if c.KUType == "" {
			c.KUType = kus.TypeAtomic
		}
		if c.ChunkID == "" {
			c.ChunkID = info.SourceID + "::chunk-000"
		}
		if c.Title == "" {
			c.Title = c.Topic
		}
		if len(c.PhaseScopes) == 0 {
			c.PhaseScopes = []string{"kb-plugin"}
		}
		if len(c.UtilityActs) == 0 {
			c.UtilityActs = kus.ActsForRole(c.Role)
		}
		c.ParentUnitIDs = []string{summary.ID}
		c.Range = locate(text, c.Text())
		c.Hash = kus.HashKU(&c)
		summary.ChildUnitIDs = append(summary.ChildUnitIDs, c.ID)
		doc.Units = append(doc.Units, &c)
	}
	return doc, nil
}

// sourceTextOf recovers the text the Markdown reader saw, from its leaves.
func sourceTextOf(md *kus.Document) string {
	var b strings.Builder
	for _, u := range md.Units {
		if u.Level == kus.LevelLeaf {
			b.WriteString(u.TextBody)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// locate finds the line of the first occurrence of a KU's text (or its
// first words) in the source, for editor links; line 1 when not found.
func locate(text, unit string) kus.Range {
	probe := strings.TrimSpace(unit)
	if len(probe) > 40 {
		probe = probe[:40]
	}
	if probe == "" {
		return kus.Range{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}
	}
	i := strings.Index(text, probe)
	if i < 0 {
		return kus.Range{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}
	}
	line := strings.Count(text[:i], "\n") + 1
	return kus.Range{StartLine: line, StartCol: 1, EndLine: line, EndCol: 1}
}
