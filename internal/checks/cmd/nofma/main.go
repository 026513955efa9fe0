// Command nofma reports, or with -w rewrites, the floating-point
// expressions in the Go files of the named directories that a compiler may
// fuse into a multiply-add (package internal/checks/nofma):
//
//	go run ./internal/checks/cmd/nofma DIR...     # list them; exit 1 if any
//	go run ./internal/checks/cmd/nofma -w DIR...  # fix them in place
//
// With -w it prints the files it changed and the findings it could not
// fix, which need a hand (exit status 1).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/drape3d/drape/internal/checks/nofma"
)

func main() {
	write := flag.Bool("w", false, "rewrite the files in place")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: nofma [-w] DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	c := nofma.NewChecker()
	if !*write {
		finds, err := c.Check(flag.Args()...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, f := range finds {
			fmt.Println(f)
		}
		if len(finds) > 0 {
			os.Exit(1)
		}
		return
	}
	changed, left, err := c.Rewrite(true, flag.Args()...)
	for _, f := range changed {
		fmt.Println("rewrote", f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, f := range left {
		fmt.Println(f)
	}
	if len(left) > 0 {
		os.Exit(1)
	}
}
