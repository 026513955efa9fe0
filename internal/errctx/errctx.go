// Package errctx gives drape's errors their context without saying a
// package's name twice: "scene: CapeFit.Anchors: no bone matching ...",
// not "scene: CapeFit.Anchors: scene: no bone matching ...".
package errctx

import (
	"sort"
	"strings"
)

// Names lists names for an error message: sorted, comma-separated, the
// first 40 and "..." when there are more. It sorts names in place.
func Names(names []string) string {
	sort.Strings(names)
	if len(names) > 40 {
		names = append(names[:40], "...")
	}
	return strings.Join(names, ", ")
}

// wrapped is an error with a message of its own that unwraps to the error
// it was made from, so errors.Is and errors.As see through it.
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }

// Wrap returns err in the context of package pkg: "pkg: context: msg",
// where msg is err's message without a leading "pkg: ".
func Wrap(pkg, context string, err error) error {
	msg := strings.TrimPrefix(err.Error(), pkg+": ")
	return &wrapped{msg: pkg + ": " + context + ": " + msg, err: err}
}

// Rename returns err with the prefix from of its message replaced by to,
// or err itself when its message does not start with from: a package that
// hands its settings to another's constructor names the fields as its
// caller wrote them ("cloth: CapeSettings." to "scene: CapeSettings.").
func Rename(err error, from, to string) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, from) {
		return err
	}
	return &wrapped{msg: to + msg[len(from):], err: err}
}
