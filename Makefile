# Two entry points on a fresh machine (Python 3.10+, gcc, make): `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run test test-all bench clean

# setup.py builds the native core (tsumeqbf/native): a changed core is built again
$(STAMP): pyproject.toml setup.py tsumeqbf/native/_core.cpp $(wildcard tsumeqbf/native/*.h)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $(STAMP)

setup: $(STAMP)

# The main job: the founding paper's questions and seeded random ones, every engine; writes results/
run: setup
	$(BIN)/python -m tsumeqbf.main_job

# The test suite (slow cross-checks excluded; `make test-all` runs them too).
# the native core's tests skip where it is not built; here it is, so they must run
test: setup
	TSUMEQBF_REQUIRE_NATIVE=1 $(BIN)/python -m pytest -m "not slow" -n 2

test-all: setup
	TSUMEQBF_REQUIRE_NATIVE=1 $(BIN)/python -m pytest -n 2

bench: setup
	$(BIN)/python -m tsumeqbf.bench movegen
	$(BIN)/python -m tsumeqbf.bench qbf
	$(BIN)/python -m tsumeqbf.bench dfpn

clean:
	rm -rf $(VENV) build *.egg-info tsumeqbf/native/*.so
