# ramzswap kit: top-level build. 'make run' is the main job, 'make test' the
# test suite; see README.md.
SHELL := /bin/bash
TOP := $(CURDIR)
KREL = $(shell host-setup/kernel-release --release)
KDIR = /usr/src/linux-headers-$(KREL)

.PHONY: all build deps module tools guests tiny-guest image test unit fuzz run bench shell clean

all: build

deps:
	@host-setup/install-deps

# Everything that exists is built; parts not written yet are skipped.
build: deps module tools guests tiny-guest

module: deps
	@if [ -f module/Makefile ]; then $(MAKE) -s -C module KDIR=$(KDIR); fi

tools:
	@if [ -f tools/Makefile ]; then $(MAKE) -s -C tools; fi
	@if [ -f tests/vm/src/Makefile ]; then $(MAKE) -s -C tests/vm/src; fi
	@$(MAKE) -s -C host-setup/vm
	@$(MAKE) -s -C bench/xv-packing

guests:
	@if [ -f guests/Makefile ]; then $(MAKE) -s -C guests; fi

tiny-guest:
	@$(MAKE) -s -C host-setup/tiny-guest

image: deps
	@host-setup/build-image >/dev/null

test:
	@tests/run-all

unit: build
	@$(MAKE) -C tests/unit run

fuzz: build
	@$(MAKE) -C tests/unit fuzz

run:
	@host-setup/demo

# The density matrix, then the cost of just having the device on (both run
# even if the first fails; the status is the first failure's).
bench:
	@rc=0; bench/run || rc=$$?; \
	bench/idle-cost/run --no-build || { r=$$?; [ $$rc != 0 ] || rc=$$r; }; exit $$rc

shell: build
	@host-setup/lab shell

clean:
	rm -rf build
	@if [ -f module/Makefile ]; then $(MAKE) -s -C module clean KDIR=$(KDIR); fi
	@for d in tools guests tests/unit; do \
		if [ -f $$d/Makefile ]; then $(MAKE) -s -C $$d clean; fi; done
