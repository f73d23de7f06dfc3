# Task entry points. `make test` and `make geo-1shot` set everything up themselves on a fresh
# machine (virtualenv from the lock, the package in editable mode, the benchmark data).
#
# Supported interpreters: CPython 3.13, 3.12 and 3.11. Without PYTHON, the newest one found is used
# (tools/find_python: PATH first, then pyenv's installed versions); `PYTHON=python3.11 make test` chooses.
# Each Python gets its own virtualenv, `.venv-<version>`, and `.venv` is a link to the one set up last
# (README's `. .venv/bin/activate`).
SUPPORTED_PYTHONS := 3.13 3.12 3.11
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell tools/find_python $(SUPPORTED_PYTHONS))
else ifeq ($(findstring /,$(PYTHON)),)
# A name such as python3.13 that does not run (pyenv has it, but not activated) is looked up as well.
override PYTHON := $(shell $(PYTHON) -c '' >/dev/null 2>&1 && echo $(PYTHON) || tools/find_python $(patsubst python%,%,$(PYTHON)) || echo $(PYTHON))
endif
PY_VERSION := $(if $(strip $(PYTHON)),$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null))
ifeq ($(MAKELEVEL),0)
ifeq ($(strip $(PYTHON)),)
$(error No supported Python found (looked for python3.13, python3.12, python3.11 on PATH and in pyenv); set PYTHON=/path/to/python3.x)
endif
ifeq ($(strip $(PY_VERSION)),)
$(error PYTHON=$(PYTHON) does not run here; fewshot_parser supports CPython $(SUPPORTED_PYTHONS))
endif
ifeq ($(filter $(PY_VERSION),$(SUPPORTED_PYTHONS)),)
$(error PYTHON=$(PYTHON) is Python '$(PY_VERSION)'; fewshot_parser supports CPython $(SUPPORTED_PYTHONS))
endif
$(info Python $(PY_VERSION) ($(PYTHON)), virtualenv .venv-$(PY_VERSION); PYTHON=python3.X chooses another)
endif
VENV ?= .venv-$(PY_VERSION)
BIN := $(VENV)/bin
STAMP := $(VENV)/.fewshot_installed
DATA_DIR ?= data
RUNS ?= runs
SPLITS ?= $(if $(SPLIT),$(SPLIT),1 2 3 4 5)
SYSTEM ?= ours
DATASET ?= geo
SHOT ?= 1

JOBS ?= 2
# Torch threads per run of `make run` (geo-1shot, best): the committed rows of results/runs.csv were made
# with `run-grid --threads 1`, and the thread count changes the order of float sums, so the same count on
# the same machine reproduces them exactly (another machine: within noise, docs/results.md).
THREADS ?= 1

.PHONY: setup data test lint geo-1shot main run best table ablations baselines plus report benchmarks lock clean-venv pythons smoke serve

setup: $(STAMP)

# The virtualenv is rebuilt whenever the lock or setup.py changes. The lock is one file for every supported
# Python: lines with a `; python_version ...` marker apply to some Pythons only (pip skips the others).
# startup_warnings.py writes a .pth file that hides known third-party warnings in every command (`allennlp`
# prints them before any plugin loads).
$(STAMP): requirements.lock setup.py lab/setup.py fewshot_parser/startup_warnings.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-deps -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e lab
	$(BIN)/python fewshot_parser/offline.py
	$(BIN)/python fewshot_parser/startup_warnings.py
	@if [ -d .venv ] && [ ! -L .venv ]; then echo "note: .venv is a directory (an older set-up), not linked to $(VENV)"; \
		else ln -sfn $(VENV) .venv; fi
	touch $(STAMP)

data: $(STAMP)
	$(BIN)/python -m fewshot_parser.data.setup_data --target $(DATA_DIR)

test: $(STAMP) data
	$(BIN)/python -m pytest -q tests lab/tests

# Lint, format and type checks of the package (ruff.toml, mypy.ini); CI runs them after the tests.
lint: $(STAMP)
	$(BIN)/ruff check fewshot_parser
	$(BIN)/ruff format --check fewshot_parser
	$(BIN)/mypy fewshot_parser

# The main experiment: faithful ProtoParser, GeoQuery 1-shot, on every evaluation split (one
# pre-training, five fine-tunes), ending with a per-split table beside the paper and results/runs.csv.
# Resumable; results in $(RUNS)/results.csv. SPLITS="4" (or SPLIT=4) runs one split.
geo-1shot main: $(STAMP) data
	$(MAKE) --no-print-directory run SYSTEM=ours DATASET=geo SHOT=1

# The report reads every results row, the probe rows of lab/systems.jsonnet too.
LAB_SYSTEMS = FEWSHOT_SYSTEMS_TABLES=lab/systems.jsonnet

# Any system, dataset and shot (rows of experiments/systems.jsonnet and lab/systems.jsonnet): make run SYSTEM=contextual-schema-bias DATASET=jobs SHOT=2
run: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/allennlp run-grid --systems $(SYSTEM) --datasets $(DATASET) --shots $(SHOT) \
		--systems-table lab/systems.jsonnet --shuffles $(SPLITS) --jobs 1 --threads $(THREADS) --runs-dir $(RUNS)/grid --results $(RUNS)/results.csv --table

# The best row beyond the paper, chosen on the development suite (MiniLM words, lexicon, linking, schema
# encoding, support-set recombination with superlative pairs, entity slots typed by class, entity-coverage
# re-ranking and the slot-type check; answers that use no new predicate come from the pre-trained parser),
# one dataset and shot on splits 1-5 with the same per-split table:
# make best DATASET=jobs SHOT=2
best: $(STAMP) data
	$(MAKE) --no-print-directory run SYSTEM=best

# Table 1 row "Ours": every dataset, shot and shuffle 1-5 (resumable; results/runs.csv), then the tables.
table: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/allennlp run-grid --systems ours --jobs $(JOBS)
	$(LAB_SYSTEMS) $(BIN)/allennlp report

# Table 2: the six ablations.
ablations: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/allennlp run-grid --systems no-sup no-proto no-reg no-strsim no-cond no-smooth --jobs $(JOBS)
	$(LAB_SYSTEMS) $(BIN)/allennlp report

# Table 1 baseline rows: Seq2Seq, Coarse2Fine and IRNet in the pt / cb / os settings, DA and PT-MAML.
baselines: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/allennlp run-grid --systems seq2seq-pt seq2seq-cb seq2seq-os \
		coarse2fine-pt coarse2fine-cb coarse2fine-os irnet-pt irnet-cb irnet-os da pt-maml --jobs $(JOBS)
	$(LAB_SYSTEMS) $(BIN)/allennlp report

# Table 1 row "ours + pretrained": the best combination of offline word knowledge (row `plus` of experiments/systems.jsonnet).
plus: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/allennlp run-grid --systems plus --jobs $(JOBS)
	$(LAB_SYSTEMS) $(BIN)/allennlp report

report: $(STAMP)
	$(LAB_SYSTEMS) $(BIN)/allennlp report

# Serve a pre-trained parser, its page on http://127.0.0.1:8000/ (parse, teach predicate after predicate,
# correct, roll back); examples and versions are kept in STATE: make serve ARCHIVE=runs/pretrain/geo-ours/model.tar.gz
STATE ?= $(RUNS)/served
serve: $(STAMP)
	@test -n "$(ARCHIVE)" || { echo "make serve ARCHIVE=<pre-trained model.tar.gz> [STATE=$(STATE)]"; exit 2; }
	$(BIN)/fewshot-parser serve $(ARCHIVE) --state $(STATE)

# Supervised sanity (exact match on a held-out 10% of train), speed on this machine (training, decoding,
# a faithful ATIS pre-training epoch), the representation check against the authors' preprocessing, and
# teaching one split with the faithful and the best row (seconds per phase, decoding throughput).
benchmarks: $(STAMP) data
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/supervised_sanity.py
	for words in random static contextual contextual-tuned; do \
		FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/speed.py --words $$words || exit 1; done
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/speed.py --linking
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/pretrain_epoch.py
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/pretrain_epoch.py --flops 4
	$(BIN)/python benchmarks/representation_check.py
	$(BIN)/python benchmarks/decoder_differential.py
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/teach_speed.py
	FEWSHOT_DATA_DIR=$(DATA_DIR) $(BIN)/python benchmarks/walkthrough.py

# Regenerate the lock from the current virtualenv (after a deliberate upgrade).
# Lines of other Pythons (marked `; python_version ...`) stay as they are; lines of this Python are updated.
lock:
	$(BIN)/python -m pip freeze --all --exclude-editable | $(BIN)/python tools/update_lock.py requirements.lock

# Every supported Python found on PATH: the fast tests and the tiny end-to-end experiment (what CI adds on a
# second Python), each in its own virtualenv.
pythons:
	for version in $(SUPPORTED_PYTHONS); do \
		python=$$(tools/find_python $$version) && { $(MAKE) --no-print-directory PYTHON=$$python smoke || exit 1; } \
		|| echo "python$$version: not found, skipped"; done

# The fast tests and a tiny train / evaluate / predict on fixtures (under a minute or two).
smoke: $(STAMP) data
	bash .ci/smoke $(BIN)

clean-venv:
	rm -rf $(VENV)
	if [ -L .venv ] && [ ! -e .venv ]; then rm .venv; fi
