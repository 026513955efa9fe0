package main

import (
	"errors"
	"os/exec"
)

// runExit runs bin and returns its exit status.
func runExit(bin string, args ...string) int {
	err := exec.Command(bin, args...).Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
