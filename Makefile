# Chuhan: common tasks. `make help` lists them.
CARGO ?= cargo
NATIVE = RUSTFLAGS="-C target-cpu=native" $(CARGO)

.PHONY: help build run test test-all lint fmt bench perft-bench perft-deep ci native svg-check docs-diagram soak interop

help:
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/'

build: ## release build (portable)
	$(CARGO) build --release

native: ## release build for this CPU (BMI2/PEXT tables when available)
	$(NATIVE) build --release --target-dir target/native

run: build ## build and start the engine daemon
	./target/release/chuhan

test: ## the test suite (what CI runs)
	$(CARGO) test --profile ci --workspace

test-all: ## the test suite plus every ignored (slow) test, except the rule case kept failing on purpose (see tests/rules.rs)
	$(CARGO) test --profile ci --workspace -- --include-ignored --skip or102_unreachable_position

# A third-party client drives the daemon: the `cchess` package from PyPI (pinned in
# tests/interop/requirements.txt), installed into a virtual environment under target/.
INTEROP_VENV ?= target/interop-venv

interop: ## the PyPI client `cchess` drives the daemon over UCCI and UCI (makes a Python venv in target/)
	$(CARGO) build --profile ci --bin chuhan
	test -x $(INTEROP_VENV)/bin/python || python3 -m venv $(INTEROP_VENV)
	$(INTEROP_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/interop/requirements.txt
	CHUHAN_BIN=target/ci/chuhan $(INTEROP_VENV)/bin/python -W error::ResourceWarning tests/interop/test_cchess.py -v

perft-deep: ## deep perft lines (startpos 5 and 6, all depth-5 positions)
	$(CARGO) test --release --test perft -- --ignored

lint: ## formatting and clippy, warnings are errors
	$(CARGO) fmt --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

bench: ## criterion benchmarks
	$(CARGO) bench

perft-bench: build native ## perft 5 and 6 from the start position, portable and BMI2 builds
	./target/release/chuhan perft 5
	./target/release/chuhan perft 6
	./target/native/release/chuhan perft 5
	./target/native/release/chuhan perft 6

ci: lint test interop ## everything CI checks

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
