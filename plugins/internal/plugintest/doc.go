// Package plugintest builds what the built-in plugins' tests hand a plugin:
// knowledge units placed in a source, evidence scored from them, units
// parsed from a Markdown page as ingest parses it, and a plugin made by its
// factory with the default options. Only tests import it.
package plugintest
