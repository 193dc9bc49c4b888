# Chuhan: common tasks. `make help` lists them.
CARGO ?= cargo
# How the checks driven from Python (interop, rules-diff, cluster-test,
# browser-test, attack-short) build the daemon they run, target/ci/chuhan. CI
# sets it to `cargo test --profile ci --workspace --no-run`: after `make test`
# that builds nothing, while a plain `cargo build` resolves the dependencies'
# features without the dev-dependencies' (tokio's io-util, serde's alloc,
# bitflags' and crossbeam-utils' std) and compiles tokio, hyper, axum and the
# workspace again (1 min 35 s in stop 55's CI log). Same code, same bench signature.
CI_BIN ?= $(CARGO) build --profile ci --bin chuhan
NATIVE = RUSTFLAGS="-C target-cpu=native" $(CARGO)

.PHONY: help tune-build dist cross-smoke build run test test-all lint fmt bench perft-bench perft-deep ci native svg-check docs-diagram soak interop fuzz rules-diff rules-diff-long cluster-test browser-test load-test attack attack-short

help:
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/'

build: ## release build (portable)
	$(CARGO) build --release

native: ## release build for this CPU (BMI2/PEXT tables when available)
	$(NATIVE) build --release --target-dir target/native

tune-build: ## release build whose search parameters are engine options (feature tune), for chuhan spsa: target/tune/chuhan
	$(CARGO) build --profile tune --features tune --bin chuhan

dist: ## release archives for Linux x86-64, Linux aarch64 and Windows x86-64 in target/archives (needs the cross tools .ci/run installs)
	scripts/dist/build

cross-smoke: ## cross-build for Windows and aarch64; smoke-test under Wine and qemu (bench = the Linux signature)
	scripts/cross/smoke

run: build ## build and start the engine daemon
	./target/release/chuhan

test: ## the test suite (what CI runs)
	$(CARGO) test --profile ci --workspace
	$(CARGO) test --profile ci -p chuhan-engine --features tune --lib tunables

test-all: ## the test suite plus every ignored (slow) test, except the rule case kept failing on purpose (see tests/rules.rs)
	$(CARGO) test --profile ci --workspace -- --include-ignored --skip or102_unreachable_position

# A third-party client drives the daemon: the `cchess` package from PyPI (pinned in
# tests/interop/requirements.txt), installed into a virtual environment under target/.
INTEROP_VENV ?= target/interop-venv

interop: ## the PyPI client `cchess` drives the daemon over UCCI and UCI (makes a Python venv in target/)
	$(CI_BIN)
	test -x $(INTEROP_VENV)/bin/python || python3 -m venv $(INTEROP_VENV)
	$(INTEROP_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/interop/requirements.txt
	CHUHAN_BIN=target/ci/chuhan $(INTEROP_VENV)/bin/python -W error::ResourceWarning tests/interop/test_cchess.py -v

# Differential test of the 棋例 (issue 23): generated repetition games ruled by
# Chuhan (AXF) and by Fairy-Stockfish (the PyPI binding `pyffish`, pinned in
# tests/rules_diff/requirements.txt, in a virtual environment under target/). The
# fixed-seed run must find exactly the disagreements adjudicated in
# tests/rules_diff/known.json; the long run only counts.
RULES_VENV ?= target/rules-venv
RULES_DIFF_GAMES ?= 300
RULES_DIFF_LONG_GAMES ?= 5000
RULES_DIFF_LONG_SEED ?= 2

$(RULES_VENV)/.installed: tests/rules_diff/requirements.txt
	test -x $(RULES_VENV)/bin/python || python3 -m venv $(RULES_VENV)
	$(RULES_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/rules_diff/requirements.txt
	touch $@

rules-diff: $(RULES_VENV)/.installed ## Chuhan's AXF rulings against Fairy-Stockfish's on 300 generated repetition games (seed 1)
	$(CI_BIN)
	$(RULES_VENV)/bin/python tests/rules_diff/compare.py --chuhan target/ci/chuhan --seed 1 --games $(RULES_DIFF_GAMES) --check

rules-diff-long: $(RULES_VENV)/.installed ## the same on 5000 games of seed 2: counts and classes of disagreements
	$(CI_BIN)
	$(RULES_VENV)/bin/python tests/rules_diff/compare.py --chuhan target/ci/chuhan --seed $(RULES_DIFF_LONG_SEED) --games $(RULES_DIFF_LONG_GAMES) --check

# Matches and self-play data on a Ray cluster (issue 25): Ray, pinned in
# crates/arena/ray/requirements.txt, goes into a virtual environment under target/.
RAY_VENV ?= target/ray-venv

$(RAY_VENV)/.installed: crates/arena/ray/requirements.txt
	test -x $(RAY_VENV)/bin/python || python3 -m venv $(RAY_VENV)
	$(RAY_VENV)/bin/pip install --quiet --disable-pip-version-check -r crates/arena/ray/requirements.txt
	touch $@

cluster-test: $(RAY_VENV)/.installed ## a three-node Ray cluster on this machine plays a match and self-play units (makes a Python venv in target/)
	$(CI_BIN)
	CHUHAN_BIN=target/ci/chuhan RAY_AUTH_MODE=disabled $(RAY_VENV)/bin/python crates/arena/ray/test_cluster.py -v

# The web page of `chuhan serve` in a real browser: Debian's headless Chromium and
# chromedriver (apt-get install chromium chromium-driver), driven by Selenium (pinned
# in tests/browser/requirements.txt) from a virtual environment under target/.
# Screenshots are kept in target/browser/.
BROWSER_VENV ?= target/browser-venv

$(BROWSER_VENV)/.installed: tests/browser/requirements.txt
	test -x $(BROWSER_VENV)/bin/python || python3 -m venv $(BROWSER_VENV)
	$(BROWSER_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/browser/requirements.txt
	touch $@

browser-test: $(BROWSER_VENV)/.installed ## the page of `chuhan serve` in headless Chromium (needs chromium, chromium-driver; makes a Python venv in target/)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { echo "chromium/chromedriver not found (Debian: apt-get install -y chromium chromium-driver)"; exit 1; }
	$(CI_BIN)
	CHUHAN_BIN=target/ci/chuhan $(BROWSER_VENV)/bin/python tests/browser/test_page.py -v
	@echo "browser-test: screenshots in target/browser/"

# Load on loopback (issue 24): 64 clients post judge requests for 30 s to a release
# `chuhan serve`, then analysis requests overflow its queue. Not part of CI.
LOAD_CLIENTS ?= 64
LOAD_SECONDS ?= 30

load-test: build ## 64 clients judge for 30 s against `chuhan serve`: requests/s, p50/p99, errors, memory; analysis beyond the queue gets 503
	$(CARGO) run --release -p chuhan-serve --example load -- --chuhan target/release/chuhan --clients $(LOAD_CLIENTS) --seconds $(LOAD_SECONDS)

# Attacks on a real `chuhan serve` over loopback (issue 46,
# crates/serve/examples/attack.rs): slow keep-alive clients and silent sockets,
# readers that never read, 2 MB records, abandoned analyses, unreadable records and
# fuzzed requests, each phase with its figures, its bound, PASS/FAIL and a hard
# deadline; the server is killed at the end. The short version runs in CI.
attack: build ## attack a release `chuhan serve` on loopback in six phases (about 3 minutes, at most 5): figures, bounds, PASS/FAIL
	$(CARGO) run --release -p chuhan-serve --example attack -- --chuhan target/release/chuhan --size full

attack-short: ## the same six attack phases about six times smaller (under a minute; CI runs it)
	$(CI_BIN)
	$(CARGO) run --profile ci -p chuhan-serve --example attack -- --chuhan target/ci/chuhan --size short

# The fuzz harness on stable Rust (crates/fuzz): ten million generated and mutated
# inputs over every parser; a short budget of it runs in `make test`.
FUZZ_INPUTS ?= 10000000

fuzz: ## fuzz every parser with 10 million inputs: inputs/s, crashes, hangs (2 s per input), peak memory; findings in target/fuzz-findings
	$(CARGO) build --profile ci -p chuhan-fuzz
	./target/ci/chuhan-fuzz --inputs $(FUZZ_INPUTS) --save target/fuzz-findings

perft-deep: ## deep perft lines (startpos 5 and 6, all depth-5 positions)
	$(CARGO) test --release -p chuhan-engine --test perft -- --ignored

lint: ## formatting and clippy, warnings are errors (also for Windows when its target is installed)
	$(CARGO) fmt --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	@if rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then \
	  echo "$(CARGO) clippy --workspace --all-targets --target x86_64-pc-windows-gnu -- -D warnings"; \
	  $(CARGO) clippy --workspace --all-targets --target x86_64-pc-windows-gnu -- -D warnings; \
	else \
	  echo "lint: Windows clippy skipped (rustup target add x86_64-pc-windows-gnu)"; \
	fi

fmt:
	$(CARGO) fmt

bench: ## criterion benchmarks
	$(CARGO) bench

perft-bench: build native ## perft 5 and 6 from the start position, portable and BMI2 builds
	./target/release/chuhan perft 5
	./target/release/chuhan perft 6
	./target/native/release/chuhan perft 5
	./target/native/release/chuhan perft 6

ci: lint test interop rules-diff cluster-test browser-test attack-short ## everything CI checks

# The soak test of issue 7: Chuhan against itself, 2 search threads each, one game
# at a time, at a fast clock. Not part of `make test`; needs the engine daemon.
SOAK_GAMES ?= 400
SOAK_TC ?= 1+0.01
SOAK_ENGINE = cmd=./target/release/chuhan option.threads=2

soak: build ## 400 games Chuhan vs Chuhan (2 threads, fast clock): fails on any crash, hang, illegal move or time loss
	./target/release/chuhan match --games $(SOAK_GAMES) --tc $(SOAK_TC) --concurrency 1 \
		--engine "$(SOAK_ENGINE) name=Chuhan-A" --engine "$(SOAK_ENGINE) name=Chuhan-B" \
		--openings books/openings.txt --seed 1 --event "Chuhan soak" \
		--pgn target/soak.pgn --log target/soak.log --fail-on-fault

svg-check: build ## render SVG diagrams with a real renderer (needs rsvg-convert: apt-get install librsvg2-bin)
	@command -v rsvg-convert >/dev/null || { echo "rsvg-convert not found (Debian: apt-get install -y librsvg2-bin)"; exit 1; }
	./target/release/chuhan show --color never docs/example.pgn --svg target/svg-check.svg --arrow b0c2 --caption "svg-check <&> 檢查" >/dev/null
	rsvg-convert -o target/svg-check.png target/svg-check.svg
	CHUHAN_REQUIRE_RSVG=1 $(CARGO) test --release --test notation_diagram
	@echo "svg-check: target/svg-check.svg rendered to target/svg-check.png"

docs-diagram: build ## regenerate docs/board.svg and docs/board.png from docs/example.pgn
	./target/release/chuhan show --color never docs/example.pgn --ply 9 --svg docs/board.svg --caption "5. 車二進六 (R2+6, h0h6): the rook crosses the river"
	rsvg-convert -o docs/board.png docs/board.svg
