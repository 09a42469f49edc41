#!/bin/bash
# Build the guest's initramfs: OUT (a gzip'd newc cpio, two segments).
#
#   bash tests/vm/initramfs.sh OUT
#
# Segment 1, cached in $RANDSTAT_CACHE (default ~/.cache/randstat) per guest
# kernel: busybox-static and the kernel's virtio modules (with their
# dependencies from modules.dep, decompressed).  Segment 2, rebuilt every
# time (it is small): module/randstat.ko, the tests/progs binaries, the
# guest scripts (tests/vm/guest/), userspace/randstat.static if built, and
# the benchmark's bench/guest/*.sh and bench/progs/{iso,evader,loop,work,phased} if
# present; for the fuse suite, when installed: userspace/fs/randstat-fs,
# Debian's procps (top, vmstat), sysstat (mpstat, sar, sadc), fuse3
# (fusermount3) and prometheus-node-exporter (sysstat's and
# node_exporter's unpacked in the cache, tests/unpack.sh), each with its shared
# libraries (from ldd), the terminfo entry for TERM=dumb, and the
# kernel's fuse.ko (not loaded at boot).  With RANDSTAT_TRACE_OUT set,
# a second archive for the trace and prof suites: OUT and a third segment
# of perf, trace-cmd and bpftrace (below).
# The kernel unpacks concatenated cpio archives one after the other.
#
# Env: MODDIR (the guest kernel's modules; run.sh sets it), RANDSTAT_KO (default
# module/randstat.ko; "none" leaves it out, for harness tests),
# RANDSTAT_EXTRA_KO_DIR (its files go to /ko: the debug suite's broken
# builds), RANDSTAT_GUEST_MODULES (the kernel's modules to load at boot;
# default "virtio_pci virtio_blk"), RANDSTAT_TRACE_OUT (see above),
# RANDSTAT_BUSYBOX (default /bin/busybox), RANDSTAT_BIN_ROOT (the tree
# whose tests/progs, bench/progs and userspace binaries go in; default
# this one), RANDSTAT_ARCH (arm64: the binaries are the cross-built ones
# of RANDSTAT_BIN_ROOT, and the host's own programs, the fuse suite's,
# stay out).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:?usage: initramfs.sh OUT}
moddir=${MODDIR:?set MODDIR to the modules of the guest kernel; tests/vm/run.sh does}
kver=$(basename "$moddir")
cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
ko=${RANDSTAT_KO:-$repo/module/randstat.ko}

die() { echo "initramfs: $*" >&2; exit 1; }
need() {	# need COMMAND PACKAGE
	command -v "$1" >/dev/null || die "$1 not found: apt-get install $2"
}
need cpio cpio
need gzip gzip
# static: ldd fails on a static executable
static() { ! ldd "$1" >/dev/null 2>&1; }
busybox=${RANDSTAT_BUSYBOX:-/bin/busybox}
bins=${RANDSTAT_BIN_ROOT:-$repo}
arch=${RANDSTAT_ARCH:-amd64}
[ -x "$busybox" ] || die "no $busybox: apt-get install busybox-static"
static "$busybox" ||
	die "$busybox is dynamically linked: apt-get install busybox-static"
[ -f "$moddir/modules.dep" ] ||
	die "$moddir/modules.dep missing: bash tests/deps.sh unpacks the guest kernel (or set MODDIR)"

# The guest's kernel modules, in load order (dependencies first):
# RANDSTAT_GUEST_MODULES, default the virtio disk's.
read -r -a wanted <<<"${RANDSTAT_GUEST_MODULES-virtio_pci virtio_blk}"

# deps NAME: print the relative paths NAME needs, dependencies first.
deps() {
	local line path
	# Built into the kernel (virtio_pci from 6.12): nothing to load.
	grep -qE "(^|/)$1\\.ko\$" "$moddir/modules.builtin" 2>/dev/null && return 0
	line=$(grep -E "(^|/)$1\\.ko(\\.(xz|zst|gz))?:" "$moddir/modules.dep") ||
		die "module $1 not in $moddir/modules.dep"
	path=${line%%:*}
	for d in ${line#*:}; do
		deps "$(basename "${d%%.ko*}")"
	done
	echo "$path"
}

# unpack_ko REL DST: the module at MODDIR/REL, decompressed, as DST.
unpack_ko() {
	local src=$moddir/$1
	case $1 in
	*.ko.xz)  need xz xz-utils; xz -dc "$src" >"$2" ;;
	*.ko.zst) need zstd zstd; zstd -qdc "$src" >"$2" ;;
	*.ko.gz)  gzip -dc "$src" >"$2" ;;
	*)        cp "$src" "$2" ;;
	esac
}

build_base() {
	local dst=$1 root list
	root=$(mktemp -d)
	# Once: a RETURN trap stays set after the function, and would
	# remove the global $root at the next return of a function or a
	# sourced file.
	trap 'rm -rf "$root"; trap - RETURN' RETURN
	chmod 755 "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc,lib/modules}
	chmod 1777 "$root/tmp"
	cp "$busybox" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	list=$(for m in ${wanted[@]+"${wanted[@]}"}; do deps "$m"; done | awk '!seen[$0]++')
	: >"$root/lib/modules/load-order"
	for rel in $list; do
		local name
		name=$(basename "${rel%%.ko*}").ko
		unpack_ko "$rel" "$root/lib/modules/$name"
		echo "$name" >>"$root/lib/modules/load-order"
	done
	# A name of this process's own, then one rename: make check's two
	# icount lanes may build the same cached segment at once.
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -9 >"$dst.tmp$$"
	mv "$dst.tmp$$" "$dst"
}

mkdir -p "$cache"
# Named by kernel and by this script's checksum: a changed builder rebuilds.
base=$cache/initramfs-base-$kver-$( { cat "$0"; echo "${wanted[*]:-} $busybox"; } | cksum | cut -d' ' -f1).cpio.gz
if [ ! -s "$base" ] || [ "$busybox" -nt "$base" ] ||
   [ "$moddir/modules.dep" -nt "$base" ]; then
	echo "# initramfs: building $base" >&2
	build_base "$base"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"	# the guest's /: non-root tests need to get in
mkdir -p "$root/progs" "$root/tests"
cp "$here/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$here"/guest/*.sh "$here"/guest/*.awk "$root/tests/"
# elf_machine FILE: the ELF header's e_machine (62 x86-64, 183 aarch64).
elf_machine() { od -An -tu2 -j18 -N2 "$1" | tr -d ' '; }
case $arch in arm64) want_machine=183 ;; *) want_machine=62 ;; esac
for p in $(make -s -C "$repo/tests/progs" list); do
	[ -x "$bins/tests/progs/$p" ] || die "$bins/tests/progs/$p not built: make -C tests/progs"
	[ "$(elf_machine "$bins/tests/progs/$p")" = "$want_machine" ] ||
		die "$bins/tests/progs/$p is not an $arch program (ELF machine $(elf_machine "$bins/tests/progs/$p"))"
	cp "$bins/tests/progs/$p" "$root/progs/"
done
if [ "$ko" != none ]; then
	[ -f "$ko" ] || die "$ko missing: make -C $repo module"
	cp "$ko" "$root/randstat.ko"
fi
# The debug suite's deliberately broken builds (tests/vm/run.sh's
# kernel_debug), each with what must report its bug.
if [ -n "${RANDSTAT_EXTRA_KO_DIR:-}" ]; then
	mkdir -p "$root/ko"
	cp "$RANDSTAT_EXTRA_KO_DIR"/* "$root/ko/"
fi
# make bench's before-and-after cost: an earlier build, when given.
if [ -n "${RANDSTAT_KO_OLD:-}" ]; then
	cp "$RANDSTAT_KO_OLD" "$root/randstat-old.ko"
fi
# The benchmark's guest scripts and workloads (bench/), when present:
# make bench and make demo run them.
for f in "$repo"/bench/guest/*.sh; do
	if [ -f "$f" ]; then cp "$f" "$root/tests/"; fi
done
for p in iso evader loop work phased; do
	if [ -x "$bins/bench/progs/$p" ]; then cp "$bins/bench/progs/$p" "$root/progs/"; fi
done
# The guest has no libc: the reader goes in linked statically.
if [ -x "$bins/userspace/randstat.static" ]; then
	cp "$bins/userspace/randstat.static" "$root/progs/randstat"
fi
if [ -x "$bins/userspace/cgroup/randstat-cgroup.static" ]; then
	cp "$bins/userspace/cgroup/randstat-cgroup.static" "$root/progs/randstat-cgroup"
fi

# copy_path FILE [DEST]: FILE (symlinks followed) at DEST in the guest
# (default its own path), its mode kept (fusermount3 is setuid root).
copy_path() {
	local dst=${2:-$1}
	mkdir -p "$root$(dirname "$dst")"
	cp -pL "$1" "$root$dst"
}
# copy_dyn FILE [DEST]: a dynamically linked FILE, its libraries and the
# dynamic loader, these at their own paths.
copy_dyn() {
	local lib
	copy_path "$1" "${2:-$1}"
	for lib in $(ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }'); do
		[ -e "$root$lib" ] || copy_path "$lib"
	done
}
# The fuse suite's programs, those that are installed (the suite says
# what is missing): the host's, so not in an arm64 guest.
if [ "$arch" = amd64 ] && [ -x "$repo/userspace/fs/randstat-fs" ]; then
	copy_dyn "$repo/userspace/fs/randstat-fs" /usr/bin/randstat-fs
fi
# randstat-fs-mount and the systemd unit that runs it, whose commands the
# suite runs (no systemd in the guest).
mkdir -p "$root/usr/bin"
cp "$repo/userspace/fs/randstat-fs-mount" "$root/usr/bin/"
cp "$repo/userspace/fs/randstat-fs.service" "$root/tests/"
# Debian's sysstat and prometheus-node-exporter as tests/deps.sh unpacks
# them into the cache (tests/unpack.sh: their packages enable services),
# else installed ones.
# shellcheck source=tests/unpack.sh
. "$repo/tests/unpack.sh"
unpacked_dirs=$(unpacked_dir sysstat; unpacked_dir prometheus) || true
for f in /usr/bin/top /usr/bin/vmstat /usr/bin/mpstat /usr/bin/sar \
	/usr/lib/sysstat/sadc /usr/bin/fusermount3 /usr/bin/prometheus-node-exporter; do
	from=$f
	# sysstat's sar is sar.sysstat in its package, /usr/bin/sar an
	# alternative that only its postinst makes (dpkg-deb -x does not).
	for d in $unpacked_dirs; do
		for c in "$d$f" "$d$f.sysstat"; do
			if [ -x "$c" ]; then from=$c; break; fi
		done
	done
	if [ "$arch" = amd64 ] && [ -x "$from" ]; then copy_dyn "$from" "$f"; fi
done
for f in /lib/terminfo/d/dumb /usr/share/terminfo/d/dumb; do
	if [ -e "$f" ]; then copy_path "$f"; fi
done
fuse=$(grep -E '(^|/)fuse\.ko(\.(xz|zst|gz))?:' "$moddir/modules.dep" | cut -d: -f1 || true)
if [ -n "$fuse" ]; then
	mkdir -p "$root/lib/modules/extra"
	unpack_ko "$fuse" "$root/lib/modules/extra/fuse.ko"
fi
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$root.overlay"
cat "$base" "$root.overlay" >"$out.tmp"
rm -f "$root.overlay"
mv "$out.tmp" "$out"

# The trace suite's tools (RANDSTAT_TRACE_OUT, run.sh sets it): Debian's
# perf (linux-perf), trace-cmd and bpftrace with their libraries, in a
# third segment cached in $cache, and OUT with it as RANDSTAT_TRACE_OUT.
# Only that suite's boot carries them: bpftrace's libraries (LLVM,
# clang, z3, ICU) are ~200 MB, which the kernel would unpack at every
# boot.  A tool that is not installed is left out (the suite says so).
[ -n "${RANDSTAT_TRACE_OUT:-}" ] && [ "$arch" = amd64 ] || exit 0
tools=()
for f in /usr/bin/perf /usr/bin/trace-cmd /usr/bin/bpftrace; do
	if [ -x "$f" ]; then tools+=("$f"); fi
done
# Named by the tools' and this script's checksums: an upgrade rebuilds.
seg=$cache/initramfs-tools-$( { cat "$0"; for f in ${tools[@]+"${tools[@]}"}; do
	ls -lL "$f"; ldd "$f" | sed 's/ (0x[0-9a-f]*)$//'; done; } | cksum | cut -d' ' -f1).cpio.gz
if [ ! -s "$seg" ]; then
	echo "# initramfs: building $seg (${tools[*]:-no tools})" >&2
	rm -rf "$root"
	mkdir -p "$root"
	chmod 755 "$root"
	for f in ${tools[@]+"${tools[@]}"}; do copy_dyn "$f"; done
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -1 >"$seg.tmp$$"
	mv "$seg.tmp$$" "$seg"
fi
cat "$out" "$seg" >"$RANDSTAT_TRACE_OUT.tmp"
mv "$RANDSTAT_TRACE_OUT.tmp" "$RANDSTAT_TRACE_OUT"
