# drape: the two commands are `make demo` and `make test`.
SHELL := /bin/bash
GO ?= go
SCENE ?=
FRAMES ?= 180
XVFB := xvfb-run -a -s "-screen 0 1280x720x24"
# Debian packages g3n needs to build (cgo: OpenGL, GLFW's X11, OpenAL, Vorbis)
# and to run without a display (Xvfb with Mesa's software OpenGL), and
# qemu-user-static to run the arm64 tests (make test).
PKGS := gcc libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev \
        libxi-dev libxxf86vm-dev libopenal-dev libvorbis-dev xvfb xauth libgl1-mesa-dri \
        qemu-user-static
PHYSICS := ./verlet3d/... $(wildcard ./cloth) $(wildcard ./hair) $(wildcard ./bodies)
# The internal packages that build without g3n (internal/showcase, and
# internal/bench which times it, need g3n's cgo OpenGL bindings), vetted
# for arm64 with the physics packages.
INTERNAL_NOGL := ./internal/checks/... ./internal/draped ./internal/errctx ./internal/golden ./internal/simd ./internal/vecmath

.PHONY: demo test test-ports bench bench-all deps shots vet check build clean soak golden fuzz

# deps installs the missing Debian packages (as root), or prints the exact
# command to run and fails.
deps:
	@command -v $(GO) >/dev/null || { echo "Go is missing: install Go 1.26 or newer from go.dev/dl"; exit 1; }
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	$(GO) build -o bin/demo ./cmd/demo

STATICCHECK_VERSION := v0.8.2
STATICCHECK := bin/tools/staticcheck

$(STATICCHECK):
	GOBIN=$(CURDIR)/bin/tools $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# check fails on an unformatted file, a vet or staticcheck finding (with
# ST1020-ST1022: a doc comment must start with the name it documents), or a
# go.mod/go.sum that `go mod tidy` would change.
check: deps $(STATICCHECK)
	@bad=$$(gofmt -l .); if [ -n "$$bad" ]; then echo "gofmt would change:"; echo "$$bad"; exit 1; fi
	$(GO) vet ./...
	GOARCH=arm64 CGO_ENABLED=0 $(GO) vet $(PHYSICS) $(INTERNAL_NOGL)
	$(STATICCHECK) -checks inherit,ST1020,ST1021,ST1022 ./...
	@cp go.mod /tmp/drape-go.mod.$$$$ && cp go.sum /tmp/drape-go.sum.$$$$ && $(GO) mod tidy && \
	  if ! cmp -s go.mod /tmp/drape-go.mod.$$$$ || ! cmp -s go.sum /tmp/drape-go.sum.$$$$; then \
	    cp /tmp/drape-go.mod.$$$$ go.mod; cp /tmp/drape-go.sum.$$$$ go.sum; \
	    echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; fi; \
	  rm -f /tmp/drape-go.mod.$$$$ /tmp/drape-go.sum.$$$$

vet: check

# test runs the checks and every test; the GL tests render under Xvfb.
# Then (test-ports) the determinism goldens and the kernel-equivalence tests (PORTABLE)
# run again where the bits could part: with -tags purego (no assembly: the
# portable loops arm64 runs), with the kernels turned off at run time
# (GODEBUG=cpu.avx2=off), at GOAMD64=v3 (the compiler may fuse
# multiply-adds) and for arm64 under qemu-user (it fuses them too). Every
# form must give the same goldens, testdata/golden_*.txt, and the kernel
# tests' testdata/kernel_*.txt (recorded with the kernels: the portable
# loops must give the kernels' bits).
PORTABLE := Golden|Kernel|MatchesScalar|MatchesGoLoop|MatchesDefinition|Disjoint|Flags
test: check
	DRAPE_GL=1 $(XVFB) $(GO) test -count=1 -timeout 15m ./...
	@$(MAKE) --no-print-directory test-ports

test-ports: deps
	$(GO) test -count=1 -tags purego -run '$(PORTABLE)' $(PHYSICS)
	GODEBUG=cpu.avx2=off $(GO) test -count=1 -run '$(PORTABLE)' $(PHYSICS)
	GOAMD64=v3 $(GO) test -count=1 -run '$(PORTABLE)' $(PHYSICS)
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -timeout 15m -exec qemu-aarch64-static -run '$(PORTABLE)' $(PHYSICS)

# soak runs every soak test (TestSoak...: a tearing flag in a gale, a cape
# with teleports, crates thrown onto cloth on the floor, the tablecloth on
# 1 and 2 workers bit for bit, a shaken head, 50 thrown cubes, a glTF
# character walking)
# for 10 simulated minutes each; `make test` runs them for 20 s.
soak: deps
	DRAPE_SOAK=1 $(GO) test -count=1 -p 1 -timeout 60m -run Soak -v ./cloth ./hair ./bodies ./scene/... 2>&1 | \
	  grep -E '^(=== RUN|--- |\s+soak_test|ok|FAIL|PASS)'; exit $${PIPESTATUS[0]}

# golden refreshes the determinism goldens (testdata/golden_*.txt: a hash
# of every position after N steps, the same on 1, 2 and 4 workers) and the
# kernel tests' (testdata/kernel_*.txt: a hash of what each computes, run
# here with the kernels, on a processor with AVX2) after an intended change
# of the solver or its defaults; commit the diff with it.
golden:
	for p in verlet3d cloth hair bodies; do $(GO) test ./$$p -count=1 -run '$(PORTABLE)' -update || exit 1; done
	git diff --stat -- '*/testdata/golden_*.txt' '*/testdata/kernel_*.txt'

# fuzz runs each fuzz target for FUZZTIME (default 5m), one at a time; a
# failing input lands in the package's testdata/fuzz/ and becomes a test.
FUZZTIME ?= 5m
FUZZ := verlet3d:FuzzWorld cloth:FuzzCloth cloth:FuzzCape hair:FuzzHair bodies:FuzzBodies scene/character:FuzzLoadGLTF
fuzz:
	@for pt in $(FUZZ); do p=$${pt%%:*}; f=$${pt##*:}; echo "== $$f ($$p, $(FUZZTIME))"; \
	  $(GO) test ./$$p -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -parallel 1 || exit 1; done

# demo opens the demo in a window, or without a display renders every scene
# under Xvfb into out/*.png.
demo: build
	@if [ -n "$$DISPLAY" ]; then \
	  ./bin/demo $(if $(SCENE),-scene $(SCENE)); \
	else \
	  echo "no DISPLAY: rendering under Xvfb into out/"; mkdir -p out; \
	  for s in $$(./bin/demo -list | awk '{print $$1}'); do \
	    $(XVFB) ./bin/demo -scene $$s -frames $(FRAMES) -shot out/$$s.png 2>/dev/null && echo "wrote out/$$s.png"; \
	  done; \
	fi

# shots refreshes the README pictures in assets/shots: each line is the file
# name, the frame count, then the demo flags of that view.
SHOTS := net:180:-scene net \
         flag:240:-scene flag \
         flag_torn:240:-scene flag -flag-hole -flag-wind 12 \
         tablecloth:300:-scene tablecloth \
         cape_side:240:-scene cape -cape-view side \
         cape_behind:240:-scene cape -cape-view behind \
         hair_rest:240:-scene hair \
         hair_turn:100:-scene hair -hair-turn \
         hair_wind:240:-scene hair -hair-wind 8 \
         hair_gust20:240:-scene hair -hair-wind 20 \
         hair_walk:200:-scene hair -hair-walk \
         hair_dense:200:-scene hair -hair-dense 10 \
         cape_robot:240:-scene cape -cape-gltf ../shared/models/RobotExpressive.glb -cape-view behind \
         cape_hair:200:-scene cape -cape-hair -cape-view behind \
         ragdoll:130:-scene ragdoll \
         showcase:240:-scene showcase \
         cubes:300:-scene cubes
shots: build
	@mkdir -p assets/shots
	@echo '$(SHOTS)' | sed 's/ \([a-z0-9_]*:[0-9]*:\)/\n\1/g' | while IFS=: read -r name frames args; do \
	  $(XVFB) ./bin/demo $$args -frames $$frames -width 960 -height 540 -shot assets/shots/$$name.png 2>/dev/null \
	    && echo "wrote assets/shots/$$name.png" || { echo "shot $$name failed"; exit 1; }; \
	done

# bench prints the benchmark table and one BENCH line per scene
# (internal/bench), beside the shared reference loop when it is there; each
# scene also runs on 1 worker with the kernels off (the portable loops that
# -tags purego and arm64 run: the purego_ms= column). bench-all runs every
# package benchmark.
REFERENCE ?= ../shared/reference/go-naive
bench: deps
	@if [ -d $(REFERENCE) ]; then (cd $(REFERENCE) && $(GO) run . -grid 64 -mode jak); else echo "reference loop not found at $(REFERENCE)"; fi
	@# The table runs as a built binary, not under `go test`, so that nothing
	@# but the benchmark runs on the cores (under `go test -v` the 2-worker
	@# speed-ups come out far lower).
	$(GO) test -c -o bin/bench.test ./internal/bench
	./bin/bench.test -test.run '^TestTable$$' -table -test.count 1 -test.timeout 30m -test.v | grep -v '^=== RUN'
	@# The same scenes with 8 ms between frames, as a game renders between
	@# them: the workers then sleep between frames (BENCHMARKS.md).
	./bin/bench.test -test.run '^TestFrameGaps$$' -gaps -test.count 1 | grep GAPS
	@if [ -d $(REFERENCE) ]; then (cd $(REFERENCE) && $(GO) run . -grid 64 -mode jak); fi

bench-all: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 1 $(PHYSICS) ./scene/

clean:
	rm -rf bin out
