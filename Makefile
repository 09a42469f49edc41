# SPDX-License-Identifier: GPL-2.0
#
# randstat: a randomized statclock for Linux.
#
#   make                 build module/randstat.ko and userspace/randstat
#   make KDIR=<dir>      build the module against another kernel build tree
#   make demo            boot Debian's kernel in QEMU and show randstat beside
#                        /proc/stat (INTERACTIVE=1: then a shell in the guest)
#   make check           run every test suite (see tests/check.sh)
#   make matrix          build against Debian's 6.1, 6.12 and 7.2 kernels
#   make bench           the benchmark (bench/)
#   make mutate          the accounting mutants (tests/mutants/list), each
#                        against the suite that must kill it; MUTANTS=name
#                        runs one (tests/mutate.sh)
#   make C=1 / W=1       sparse / extra warnings, passed through to Kbuild
#   make module ARCH=arm64   the module for Debian's arm64 kernel, cross-
#                        built (aarch64-linux-gnu-gcc) against the headers
#                        that make arm64-headers unpacks (below)
#   make arm64-headers   apt-get download Debian's arm64 headers of the
#                        installed amd64 kernel's ABI into the cache (needs
#                        dpkg --add-architecture arm64)
#   make install         module, reader and man page; the module is built
#                        for KRELEASE (say which kernel, below) and not
#                        installed for another than the running one
#                        unless asked: make install KRELEASE=<release>
#                        (the module's) or FORCE=1
#   make dkms-install    register with DKMS, built for every kernel with
#                        headers in /lib/modules/*/build (DKMS_KERNELS=...)
#   make dkms-src        only lay out the DKMS source tree in
#                        $(DESTDIR)/usr/src/randstat-$(VERSION) (no dkms)
#   make deb             Debian packages randstat and randstat-dkms in dist/
#                        (debian/; needs debhelper and dh-dkms)

# The running kernel's build tree, else the newest installed Debian headers
# of the default flavour of this machine's architecture (linux-headers-amd64's
# or linux-headers-arm64's; not -rt or -cloud): a module for another kernel
# than the running one, which make says.
#
# Cross-building for arm64 on an x86-64 machine: make ARCH=arm64.  The
# compiler is then aarch64-linux-gnu-gcc (CROSS_COMPILE=aarch64-linux-gnu-,
# Debian's gcc-aarch64-linux-gnu) and KDIR the newest arm64 headers
# `make arm64-headers` unpacked in $(RANDSTAT_CACHE) (~/.cache/randstat),
# or installed in /usr/src (see Documentation/testing.rst, "arm64").
RUNNING := $(shell uname -r)
MACHINE := $(shell uname -m)
FLAVOUR_x86_64 := amd64
FLAVOUR_aarch64 := arm64
HOST_FLAVOUR := $(FLAVOUR_$(MACHINE))
CACHE ?= $(or $(RANDSTAT_CACHE),$(HOME)/.cache/randstat)
ifeq ($(ARCH)-$(HOST_FLAVOUR),arm64-amd64)
CROSS := arm64
CROSS_COMPILE ?= aarch64-linux-gnu-
export CROSS_COMPILE
FLAVOUR := arm64
RUNNING_KDIR :=
HEADER_GLOBS := $(CACHE)/unpacked/cross-*-arm64/usr/src/linux-headers-*-arm64 \
	/usr/src/linux-headers-*-arm64
else
FLAVOUR := $(or $(HOST_FLAVOUR),amd64)
RUNNING_KDIR := $(wildcard /lib/modules/$(RUNNING)/build)
HEADER_GLOBS := /usr/src/linux-headers-*-$(FLAVOUR)
endif
KDIR ?= $(firstword $(RUNNING_KDIR) \
	$(shell ls -d $(HEADER_GLOBS) 2>/dev/null | \
		grep -Ev -- '-(rt|cloud)-$(FLAVOUR)$$' | \
		awk -F/ '{print $$NF "\t" $$0}' | sort -V | tail -n 1 | cut -f2))

# The release the tree was built for (Debian's include/config/kernel.release
# holds the upstream version, not the package's, so ask utsrelease.h).
TREE_RELEASE = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# make install KRELEASE=<release>: install for that release, which the
# module must be built for.
KRELEASE = $(TREE_RELEASE)
# The release, one source: RANDSTAT_VERSION in include/randstat.h (the
# module's MODULE_VERSION; userspace/Makefile reads it too).
VERSION := $(shell sed -n 's/^\#define RANDSTAT_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	$(dir $(lastword $(MAKEFILE_LIST)))include/randstat.h)
PREFIX ?= /usr/local
DKMS_SRC = $(DESTDIR)/usr/src/randstat-$(VERSION)
# What DKMS builds from, laid out in $(DKMS_SRC) as in the tree (dkms.conf
# is written there with the version substituted): used by dkms-install and
# by the Debian package randstat-dkms (debian/rules).
DKMS_FILES = Kbuild module/Kbuild include/*.h \
	$(filter-out %.mod.c,$(wildcard module/*.[ch]))
DIST ?= dist
# The kernels DKMS builds for: every one with a build tree (headers).  Not
# dkms's default, the running kernel, which may have none (chroot, VM).
DKMS_KERNELS ?= $(patsubst /lib/modules/%/build/Makefile,%, \
	$(wildcard /lib/modules/*/build/Makefile))

.PHONY: all module userspace check matrix bench mutate demo clean \
	install uninstall dkms-src dkms-install dkms-uninstall deb arm64-headers
all: module userspace

module:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "randstat: no kernel build tree found." >&2; \
		if [ "$(CROSS)" = arm64 ]; then \
		echo "  No arm64 headers unpacked in $(CACHE)/unpacked/cross-*-arm64 or installed in /usr/src." >&2; \
		echo "  make arm64-headers   (or pass KDIR=<arm64 kernel build dir>)" >&2; \
		else \
		echo "  /lib/modules/$$(uname -r)/build is missing and no /usr/src/linux-headers-*-$(FLAVOUR) is installed." >&2; \
		echo "  On Debian: apt-get install linux-headers-$(FLAVOUR)   (or pass KDIR=<kernel build dir>)" >&2; \
		fi; \
		exit 1; \
	fi
	@echo "randstat: building the module for kernel $(or $(TREE_RELEASE),?) ($(KDIR))"
ifeq ($(CROSS),arm64)
	@echo "randstat: cross-building for arm64 with $(CROSS_COMPILE)gcc: the module loads on $(or $(TREE_RELEASE),?), not on this machine." >&2
else ifneq ($(TREE_RELEASE),$(RUNNING))
ifeq ($(origin KDIR),file)
	@echo "randstat: no build tree for the running kernel $(RUNNING) (/lib/modules/$(RUNNING)/build):" >&2
	@echo "  falling back to the newest Debian headers, $(TREE_RELEASE); the module will not load on $(RUNNING)." >&2
	@echo "  For the running kernel: apt-get install linux-headers-$(RUNNING) (or KDIR=<its build tree>)." >&2
else
	@echo "randstat: note: $(TREE_RELEASE) is not the running kernel, $(RUNNING)." >&2
endif
endif
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Debian's arm64 headers for the cross build (tests/unpack.sh, cross_headers).
arm64-headers:
	@bash -c '. tests/unpack.sh && cross_headers arm64'

userspace:
	$(MAKE) -C userspace

demo:
	bash tests/demo.sh

check:
	bash tests/check.sh

matrix:
	bash tests/matrix.sh

bench:
	bash bench/run.sh

mutate:
	MUTANTS="$(MUTANTS)" bash tests/mutate.sh

# The module's release (its vermagic) must be KRELEASE, and, installed on
# this system (no DESTDIR), the running kernel's unless asked.
install: all
	@PATH="$$PATH:/sbin:/usr/sbin"; command -v modinfo >/dev/null || { \
		echo "randstat: make install needs modinfo and depmod: apt-get install kmod" >&2; \
		exit 1; }; \
	built=$$(modinfo -F vermagic module/randstat.ko | cut -d' ' -f1); \
	if [ "$$built" != "$(KRELEASE)" ]; then \
		echo "randstat: module/randstat.ko is built for '$$built', not for $(KRELEASE):" >&2; \
		echo "  make clean, then make install again (with KDIR= the tree of $(KRELEASE))." >&2; \
		exit 1; \
	fi; \
	if [ -z "$(DESTDIR)" ] && [ "$$built" != "$(RUNNING)" ] && \
	   [ "$(origin KRELEASE)" != "command line" ] && [ "$(FORCE)" != 1 ]; then \
		echo "randstat: not installing: module/randstat.ko is built for $$built, but the running kernel is $(RUNNING)." >&2; \
		echo "  It would go to /lib/modules/$$built, and would not load on $(RUNNING)." >&2; \
		echo "  For the running kernel: apt-get install linux-headers-$(RUNNING), make clean, make install." >&2; \
		echo "  To install it for $$built anyway: make install KRELEASE=$$built (or FORCE=1)." >&2; \
		exit 1; \
	fi; \
	echo "randstat: installing the module for kernel $$built"
	install -D -m 644 module/randstat.ko \
		$(DESTDIR)/lib/modules/$(KRELEASE)/extra/randstat.ko
	PATH="$$PATH:/sbin:/usr/sbin" depmod -a $(if $(DESTDIR),-b $(DESTDIR)) $(KRELEASE)
	$(MAKE) -C userspace install PREFIX=$(PREFIX)

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KRELEASE)/extra/randstat.ko
	PATH="$$PATH:/sbin:/usr/sbin" depmod -a $(if $(DESTDIR),-b $(DESTDIR)) $(KRELEASE)
	$(MAKE) -C userspace uninstall PREFIX=$(PREFIX)

dkms-install:
	@if [ -z "$(strip $(DKMS_KERNELS))" ]; then \
		echo "randstat: no kernel headers in /lib/modules/*/build for DKMS." >&2; \
		echo "  On Debian: apt-get install linux-headers-amd64" >&2; \
		exit 1; \
	fi
	-dkms remove randstat/$(VERSION) --all >/dev/null 2>&1
	$(MAKE) dkms-src
	dkms add randstat/$(VERSION)
	for k in $(DKMS_KERNELS); do \
		dkms install randstat/$(VERSION) -k $$k || exit 1; \
	done

dkms-src:
	rm -rf $(DKMS_SRC)
	for f in $(DKMS_FILES); do \
		install -D -m 644 $$f $(DKMS_SRC)/$$f || exit 1; \
	done
	sed 's/@VERSION@/$(VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf

dkms-uninstall:
	dkms remove randstat/$(VERSION) --all
	rm -rf $(DKMS_SRC)

# Debian packages: dpkg-buildpackage in a copy of the tree's files (git's
# list: tracked and untracked, not ignored, so no build products), then the
# .debs, .buildinfo and .changes into $(DIST)/ (the -dbgsym package into
# $(DIST)/debug/, out of the way of apt install ./dist/*.deb).  The version
# is debian/changelog's.
deb:
	@command -v dh_dkms >/dev/null || { \
		echo "randstat: make deb needs debhelper and dh-dkms:" >&2; \
		echo "  sudo apt-get install debhelper dh-dkms build-essential" >&2; \
		exit 1; }
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { \
		echo "randstat: make deb copies the files git lists: run it in a git clone." >&2; \
		exit 1; }
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	mkdir -p "$$tmp/randstat" $(DIST)/debug; \
	git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - -cf - | tar -C "$$tmp/randstat" -xf -; \
	(cd "$$tmp/randstat" && dpkg-buildpackage -b -us -uc -j1); \
	mv "$$tmp"/*-dbgsym_*.deb $(DIST)/debug/; \
	mv "$$tmp"/*.deb "$$tmp"/*.buildinfo "$$tmp"/*.changes $(DIST)/
	@ls -1 $(DIST)/*.deb

clean:
	@if [ -n "$(KDIR)" ] && [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C userspace clean
