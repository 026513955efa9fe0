package main

// ragStats is what the ragdoll scene adds to a script probe.
type ragStats struct{}
