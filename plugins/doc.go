// Package plugins holds the typed plugin system (docs/contracts.md): the typed
// registry, the table of built-in plugin factories (filled at init time by
// each plugins/<type>/<id> package, database/sql-driver style), the
// config-driven catalog that instantiates enabled built-ins and allowlisted
// external wrappers, and the folder check behind `mrpvm plugins check`.
// The descriptor, family interfaces and result types live in plugin.
package plugins
