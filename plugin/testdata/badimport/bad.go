// Package badimport breaks the SDK import rule on purpose: the import-rule
// test checks that its checker notices.
package badimport

import _ "go.etcd.io/bbolt"
