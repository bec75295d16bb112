// Package version reports which build of mrpvm is running: the module
// version and, when the toolchain recorded them, the VCS revision, its
// time and whether the work tree was modified, read from the binary's
// build information (runtime/debug.ReadBuildInfo). A release build may set
// the version with -ldflags "-X github.com/mrpvm/mrpvm/version.version=v1.2.3";
// a build from a checkout reports "(devel)". The command line's --version,
// the language server's serverInfo and the MCP server's implementation
// version all come from here.
package version
