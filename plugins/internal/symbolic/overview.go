package symbolic

// MinOverviewItems is the fewest list items (or table rows) a passage must
// hold to read as an overview of what a page offers, one item per thing:
// the kb-plugins gather the section an item points to, and gs-symbolic
// answers from it, under the same test.
const MinOverviewItems = 4
