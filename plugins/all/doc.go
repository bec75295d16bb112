// Package all links every built-in plugin into a binary: importing it for
// its side effects registers their factories (the database/sql-driver and
// Telegraf plugins/inputs/all pattern). Which of them run is decided by
// config/plugins.json, not here.
package all
