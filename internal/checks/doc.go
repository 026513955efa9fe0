// Package checks holds the test helpers drape's packages share: the fuzz
// input decoder and the World properties every fuzz target asserts
// (fuzz.go), and the determinism goldens (golden.go). Only tests import
// it.
package checks
