// Package bench holds drape's benchmark table: `make bench` runs
// TestTable here (go test ./internal/bench -run Table -table -v), which
// times one 1/60 s frame of each benchmark scene at 1 and 2 workers beside
// a plain naive cloth loop timed in the same run, and prints one table and
// one `BENCH <scene> ...` line per scene. BENCHMARKS.md at the repository
// root gives the current table, the machine it ran on and the method.
//
// The baseline (checks.NaiveCloth) is the textbook loop of ../shared/reference/go-naive written
// plainly (array of structs, float32 fields, one Verlet pass then ten
// sequential Jakobsen passes over the links in creation order, 64 x 64,
// 23,938 links) and timed the same way (median per-frame time): it must be
// as fast as that reference on the same machine, or every ratio flatters.
package bench
