# The two commands of the README, for a fresh Debian 12 machine (as root):
#   make demo   install what is missing, build, run the verification cases and the 3-disk example
#   make test   install what is missing, build, run the whole suite through ctest
# Other targets: build, deps, test-full (the full-size rock, lab-test, grain-shape and mesh runs,
# whose figures docs/rock.md, docs/labtests.md, docs/clumps.md and docs/meshes.md report: over two
# hours of CPU, granite_2d alone about 15 minutes), python (makes `import
# cairn` work: part of build), mpi (installs Open MPI from Debian and builds cairn for it in build-mpi/; docs/parallel.md), test-mpi (the MPI
# tests: `make test` runs them too whenever Open MPI is installed), test-asan (the
# suite under AddressSanitizer + UBSan, built without OpenMP, so CI runs the suite both with and
# without threads), fuzz (the libFuzzer targets of tests/fuzz/, FUZZ_SECONDS each), soak (the
# long soak test: 50 000 balls, saves and restores, against an uninterrupted run), clean.

BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS   := build-essential cmake pkg-config liblua5.4-dev libcmocka-dev gnuplot-nox \
              python3-vtk9 xvfb xauth python3-numpy python3-matplotlib python3-pytest \
              python3-hypothesis python3-venv libmicrohttpd-dev libjs-three libjs-chart.js \
              chromium

PYTHON     ?= /usr/bin/python3
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PKGS  := clang libclang-rt-14-dev
BUILD_MPI  ?= build-mpi
MPI_PKGS   := openmpi-bin libopenmpi-dev

# Install the Debian packages of a list that are missing (needs root, or sudo, and apt).
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi
endef

.PHONY: all deps build python demo test test-full test-asan fuzz soak clean deps-mpi mpi test-mpi

all: build

deps:
	$(call install_missing,$(DEB_PKGS))

$(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)
	@$(MAKE) --no-print-directory python

# `import cairn` for Debian's python3: a .pth file naming this checkout's python/ folder, in the
# system's site-packages as root, else in the user's (no download, no pip). The package finds
# $(BUILD)/libcairn.so next to it (or the library named by CAIRN_LIB).
python:
	@dir=$$($(PYTHON) -c 'import os, site, sysconfig; print(sysconfig.get_path("purelib") if os.geteuid() == 0 else site.getusersitepackages())') && \
	  mkdir -p "$$dir" && echo "$(CURDIR)/python" > "$$dir/cairn.pth" && \
	  echo "python: 'import cairn' works for $(PYTHON) ($$dir/cairn.pth)"

demo: build
	./$(BUILD)/cairn verify
	./$(BUILD)/cairn run examples/three_disks.lua

# ctest runs $(JOBS) tests at once, so each runs on one thread (tests of threading set their own
# thread count); several tests each spinning up every core would only slow each other down.
# Left out: the soak test (`make soak`) and the full-size rock, lab-test and mesh runs
# (`make test-full`).
test: build
	OMP_NUM_THREADS=1 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE 'soak|full'
	@if dpkg-query -W -f='$${Status}' libopenmpi-dev 2>/dev/null | grep -q "ok installed"; then \
	  $(MAKE) --no-print-directory test-mpi; \
	else \
	  echo "Open MPI is not installed: the MPI tests were skipped (make test-mpi installs it and runs them)"; \
	fi

# cairn for MPI (Open MPI from Debian), in $(BUILD_MPI): the command and the plugins the MPI tests
# load (the example's and the crasher). Run it with mpirun -np N $(BUILD_MPI)/cairn run SCRIPT.lua
# (docs/parallel.md).
deps-mpi:
	$(call install_missing,$(MPI_PKGS))

mpi: deps deps-mpi
	cmake -S . -B $(BUILD_MPI) -DCMAKE_BUILD_TYPE=Release -DCAIRN_MPI=ON
	cmake --build $(BUILD_MPI) -j $(JOBS) --target cairn_cli cm1 crasher

# The MPI tests (label mpi): each runs cairn on up to 8 ranks, one after another.
test-mpi: mpi
	ctest --test-dir $(BUILD_MPI) --output-on-failure -L mpi

# The full-size runs of examples/rock/, examples/labtests/ and examples/meshes/ (label full), whose
# figures docs/rock.md, docs/labtests.md, docs/clumps.md and docs/meshes.md report: over two hours
# of CPU, so not part of `make test` (docs/regenerate.sh runs them and prints their
# figures).
test-full: build
	OMP_NUM_THREADS=1 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L full

# The soak test alone (tests/soak/soak.lua, label soak: not part of `make test`), on every core.
soak: build
	ctest --test-dir $(BUILD) --output-on-failure -L soak

test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCAIRN_SANITIZE=ON -DCAIRN_OPENMP=OFF
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS) -LE 'long|heavy'

# The fuzzers (clang's libFuzzer, with ASan and UBSan), each for FUZZ_SECONDS on its seed corpus
# and every earlier finding (tests/fuzz/regress_*); a finding stops with its input in
# $(BUILD_FUZZ)/ (add it to tests/fuzz/regress_NAME/ once fixed).
fuzz: deps
	$(call install_missing,$(FUZZ_PKGS))
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAIRN_FUZZ=ON \
	  -DCAIRN_TESTS=OFF -DCAIRN_OPENMP=OFF -DCAIRN_WERROR=OFF
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_save fuzz_script fuzz_plugin
	@for t in save script plugin; do \
	  mkdir -p $(BUILD_FUZZ)/corpus_$$t && cp -n tests/fuzz/corpus_$$t/* $(BUILD_FUZZ)/corpus_$$t/; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  if ! $(BUILD_FUZZ)/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	      -rss_limit_mb=2048 -malloc_limit_mb=1024 -artifact_prefix=$(BUILD_FUZZ)/ \
	      $(BUILD_FUZZ)/corpus_$$t tests/fuzz/regress_$$t > $(BUILD_FUZZ)/fuzz_$$t.log 2>&1; then \
	    grep -E "ERROR|SUMMARY|runtime error|#[0-9]+ in " $(BUILD_FUZZ)/fuzz_$$t.log | head -30; \
	    echo "fuzz: $$t found a failure; its input is in $(BUILD_FUZZ)/ (log $(BUILD_FUZZ)/fuzz_$$t.log)"; \
	    exit 1; \
	  fi; \
	  grep -E "DONE" $(BUILD_FUZZ)/fuzz_$$t.log | tail -1; \
	done
	@$(MAKE) --no-print-directory build
	@seed=$$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); \
	  echo "fuzz: Python's argument conversion (python/tests/test_fuzz_args.py), seed $$seed"; \
	  CAIRN_LIB=$(CURDIR)/$(BUILD)/libcairn.so CAIRN_FUZZ_SEED=$$seed \
	  CAIRN_FUZZ_EXAMPLES=$$(( $(FUZZ_SECONDS) * 10 )) MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1 \
	  $(PYTHON) python/tests/run.py python/tests/test_fuzz_args.py || \
	  { echo "fuzz: Python's argument conversion failed with seed $$seed (rerun with CAIRN_FUZZ_SEED=$$seed)"; exit 1; }

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
