# The two commands of the README, for a fresh Debian 12 machine (as root):
#   make demo   install what is missing, build, run the verification cases and the 3-disk example
#   make test   install what is missing, build, run the whole suite through ctest
# Other targets: build, deps, python (makes `import cairn` work: part of build), test-asan (the
# suite under AddressSanitizer + UBSan, built without OpenMP, so CI runs the suite both with and
# without threads), clean.

BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS   := build-essential cmake pkg-config liblua5.4-dev libcmocka-dev gnuplot-nox \
              python3-vtk9 xvfb xauth python3-numpy python3-matplotlib python3-pytest

PYTHON     ?= /usr/bin/python3

.PHONY: all deps build python demo test test-asan clean

all: build

# Install the Debian packages that are missing (needs root, or sudo, and apt).
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

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
test: build
	OMP_NUM_THREADS=1 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCAIRN_SANITIZE=ON -DCAIRN_OPENMP=OFF
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS) -LE 'long|heavy'

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
