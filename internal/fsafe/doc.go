// Package fsafe reads files of a workspace that may be hostile: every read
// refuses what is not a regular file (FIFOs, devices, sockets, folders),
// refuses a path that resolves through symlinks to outside the folder it is
// confined to, and stops at a size cap, so a committed symlink to a secret,
// to /dev/zero or a FIFO can neither leak content, exhaust memory nor block.
// Refusals carry stable codes (Code) that callers report with the file.
package fsafe
