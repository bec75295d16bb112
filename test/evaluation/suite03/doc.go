// Package suite03 runs the original MRP-VM suite03, the symbolic multi-hop
// suite (sd-symbolic, kb-thinkingdb, gs-symbolic).
package suite03
