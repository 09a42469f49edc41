#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The source package, built as Debian would take it.  On the host,
# dpkg-source -b of the files git lists: format 3.0 (quilt), an orig
# tarball of everything but debian/ (files sorted, owner root, times
# debian/changelog's), then lintian on the .dsc.  Then in a bookworm
# chroot that holds build-essential and nothing else (created once and
# copied afresh for each run), apt-get build-dep takes the .dsc's
# Build-Depends from Debian's archive, as a buildd's would, and an
# unprivileged user builds the binaries from the .dsc alone, twice, in two
# directories: the two sets of .debs must be byte-identical (reproducible
# builds; diffoscope, when installed, says where they are not).  A third
# build with another SOURCE_DATE_EPOCH must differ, so that the
# comparison is seen to fail.  Then the arch-dependent binaries for arm64,
# cross-built from the same .dsc in the same chroot (issue 34): dpkg
# --add-architecture arm64, crossbuild-essential-arm64, apt-get build-dep
# -aarm64 (the arm64 -dev libraries; clang, llvm and bpftool :native),
# dpkg-buildpackage -aarm64 -Pcross,nocheck -B as the same user (no
# tests: debian/rules runs none in a cross build); each .deb must say
# Architecture: arm64 and its programs be aarch64 ELF.  And build a's
# randstat-dkms installed in that chroot, where DKMS cross-builds and
# installs the module for Debian's arm64 kernel (below).  TAP.
#
# Usage: tests/srcpkg.sh [--refresh] [-h]
#   SRCPKG_CROSS=arm64     the cross build's architecture (the default);
#                          empty: no cross build
#   SRCPKG_NATIVE=0        no native builds (a, b, c): the cross build only
#   RANDSTAT_CACHE=<dir>   cache, default ~/.cache/randstat:
#     chroot-srcpkg-bookworm/    the base chroot (created once, 2-3 minutes)
#     chroot-srcpkg-bookworm.log debootstrap / apt output
#     srcpkg/                    the source package, the builds, their logs
#     srcpkg-apt/                the .debs apt-get build-dep downloaded
#   --refresh   apt-get update and upgrade the base chroot's packages first
#               (done anyway when it is over 7 days old).
#
# Needs root (debootstrap, chroot), git, dpkg-dev and lintian on the host
# (tests/deps.sh installs them).  Exits non-zero if any test failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# The base: what every buildd chroot has (build-essential), and no more.
packages=(build-essential fakeroot)

# shellcheck source=tests/chroot.sh
. "$(dirname "$0")/chroot.sh"
# shellcheck source=tests/tree.sh
. "$(dirname "$0")/tree.sh"
chroot_script_start srcpkg "${BASH_SOURCE[0]}" "$@"

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

work=$out/chroot
aptcache=$cache/srcpkg-apt
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	chroot_cleanup
	[ -d "$work" ] && safe_rm "$work"
	return 0
}
trap cleanup EXIT

echo "TAP version 13"
t0=$(date +%s)

# --- the source package, on the host ----------------------------------------
version=$(dpkg-parsechangelog -S Version)
upstream=${version%-*}
epoch=$(dpkg-parsechangelog -S Timestamp)
src=$out/src
rm -rf "$src"
tree_copy "$src/randstat-$upstream"
# The orig tarball: the upstream tree, the same bytes from the same commit.
tar -C "$src" --sort=name --mtime="@$epoch" --owner=0 --group=0 \
	--numeric-owner --exclude="randstat-$upstream/debian" -cf - \
	"randstat-$upstream" | xz -6 -T1 >"$src/randstat_$upstream.orig.tar.xz"
if (cd "$src" && dpkg-source -b "randstat-$upstream") >"$out/dpkg-source.log" 2>&1; then
	ok "dpkg-source -b: $(cd "$src" && echo randstat_"$version".dsc randstat_"$version".debian.tar.xz)"
else
	not_ok "dpkg-source -b (see $out/dpkg-source.log)"
	diag_file "$out/dpkg-source.log"
	echo "1..$n"
	exit 1
fi
dsc=$src/randstat_$version.dsc
check "the .dsc says Format: 3.0 (quilt) and lists the orig tarball" \
	sh -c "grep -qx 'Format: 3.0 (quilt)' '$dsc' &&
	       grep -q ' randstat_$upstream.orig.tar.xz$' '$dsc'"
lintian -I --pedantic "$dsc" >"$out/lintian.log" 2>&1 || true
sed -i '/^running with root privileges/d' "$out/lintian.log"
if [ -s "$out/lintian.log" ]; then
	not_ok "lintian -I --pedantic on the .dsc: clean"
	diag_file "$out/lintian.log" 40
else
	ok "lintian -I --pedantic on the .dsc: clean"
fi

# --- the build chroot -------------------------------------------------------
t=$(date +%s)
if [ -f "$root/$stamp" ]; then cached=cached; else cached=created; fi
if ! chroot_ensure "$release" "$root" "$log" "$stamp"; then
	not_ok "bookworm chroot with build-essential (see $log)"
	diag_file "$log"
	echo "1..$n"
	exit 1
fi
[ -d "$work" ] && safe_rm "$work"
cp -a "$root" "$work"
ok "a fresh copy of the bookworm chroot with build-essential ($cached in $(($(date +%s) - t)) s)"
mount_proc "$work"
mkdir -p "$aptcache" "$work/var/cache/apt/archives"
mount --bind "$aptcache" "$work/var/cache/apt/archives"
mounts+=("$work/var/cache/apt/archives")
mkdir -p "$work/build"
cp "$dsc" "$src/randstat_$upstream.orig.tar.xz" \
	"$src/randstat_$version.debian.tar.xz" "$work/build/"
t=$(date +%s)
if { apt_get "$work" update &&
     apt_get "$work" build-dep -y --no-install-recommends \
	"/build/randstat_$version.dsc"; } >"$out/build-dep.log" 2>&1; then
	ok "apt-get build-dep of the .dsc: $(sed -n 's/^Build-Depends: //p' "$dsc") ($(($(date +%s) - t)) s)"
else
	not_ok "apt-get build-dep of the .dsc (see $out/build-dep.log)"
	diag_file "$out/build-dep.log"
	echo "1..$n"
	exit 1
fi
in_chroot "$work" useradd -m builder
chmod 777 "$work/build"

# build DIR [ENV...]: the binaries from the .dsc alone, in /build/DIR of
# the chroot, as the user builder; its .debs stay in /build/DIR.
build() {
	local dir=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	in_chroot "$work" setpriv --reuid=builder --regid=builder --init-groups \
		env HOME=/home/builder "$@" sh -ec '
		mkdir "/build/$0"
		cd "/build/$0"
		dpkg-source -x "/build/randstat_$1.dsc" src
		cd src
		dpkg-buildpackage -b -us -uc' "$dir" "$version" \
		>"$out/build-$dir.log" 2>&1
}

cross=${SRCPKG_CROSS-arm64}
native=${SRCPKG_NATIVE:-1}
for d in a b; do
	[ "$native" = 1 ] || break
	rm -rf "${work:?}/build/$d"
	t=$(date +%s)
	if build "$d"; then
		ok "build $d: dpkg-buildpackage -b from the .dsc as an unprivileged user ($(cd "$work/build/$d" && echo *.deb)) ($(($(date +%s) - t)) s)"
	else
		not_ok "build $d: dpkg-buildpackage -b from the .dsc (see $out/build-$d.log)"
		diag_file "$out/build-$d.log" 30
	fi
done

# same A B: are the .debs of builds A and B the same files, byte for byte?
# Prints the ones that differ.
same() {
	local f g diff=0
	for f in "$work/build/$1"/*.deb; do
		g=$work/build/$2/${f##*/}
		if [ ! -f "$g" ] || ! cmp -s "$f" "$g"; then
			echo "${f##*/}"
			diff=1
		fi
	done
	[ -n "$(ls "$work/build/$1"/*.deb 2>/dev/null)" ] && [ "$diff" -eq 0 ]
}

if [ "$native" != 1 ]; then
	diag "SRCPKG_NATIVE=0: no native builds"
elif differ=$(same a b); then
	ok "reproducible: builds a and b (/build/a, /build/b) made the same .debs, byte for byte ($(cd "$work/build/a" && sha256sum ./*.deb | cut -c1-12 | tr '\n' ' '))"
else
	not_ok "reproducible: builds a and b made the same .debs, byte for byte (differ: $(echo "$differ" | tr '\n' ' '))"
	if command -v diffoscope >/dev/null; then
		for f in $differ; do
			# head ends the pipe early: diffoscope's SIGPIPE is no failure
			# (set -e and pipefail would end the script here).
			diffoscope --text - "$work/build/a/$f" "$work/build/b/$f" 2>&1 |
				head -n 40 | sed 's/^/#   /' || true
		done
	else
		diag "diffoscope would say where (apt-get install diffoscope-minimal)"
	fi
fi

# The comparison fails where it should: a build dated otherwise.
rm -rf "${work:?}/build/c"
if [ "$native" != 1 ]; then
	:
elif build c SOURCE_DATE_EPOCH=$((epoch + 86400)); then
	if differ=$(same a c); then
		not_ok "planted: a build with SOURCE_DATE_EPOCH one day later is seen to differ (it was not)"
	else
		ok "planted: a build with SOURCE_DATE_EPOCH one day later is seen to differ ($(echo "$differ" | tr '\n' ' '))"
	fi
else
	not_ok "planted: build c (see $out/build-c.log)"
	diag_file "$out/build-c.log" 30
fi

# --- the cross build --------------------------------------------------------
# cross_build DIR ARCH: dpkg-buildpackage -aARCH -B from the .dsc, as build
# does, in /build/DIR; with the cross and nocheck profiles, as cross
# builds are made (the tests are make check's, on the build machine).
cross_build() {
	local dir=$1 arch=$2
	# shellcheck disable=SC2016 # expanded by the inner sh
	in_chroot "$work" setpriv --reuid=builder --regid=builder --init-groups \
		env HOME=/home/builder sh -ec '
		mkdir "/build/$0"
		cd "/build/$0"
		dpkg-source -x "/build/randstat_$1.dsc" src
		cd src
		DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -a"$2" -Pcross,nocheck \
			-B -us -uc' "$dir" "$version" "$arch" \
		>"$out/build-$dir.log" 2>&1
}

if [ -n "$cross" ]; then
	t=$(date +%s)
	if { in_chroot "$work" dpkg --add-architecture "$cross" &&
	     apt_get "$work" update &&
	     apt_get "$work" install -y --no-install-recommends \
		"crossbuild-essential-$cross" &&
	     apt_get "$work" build-dep -y --no-install-recommends -a"$cross" \
		"/build/randstat_$version.dsc"; } >"$out/build-dep-$cross.log" 2>&1; then
		ok "apt-get build-dep -a$cross of the .dsc, with crossbuild-essential-$cross ($(($(date +%s) - t)) s)"
	else
		not_ok "apt-get build-dep -a$cross of the .dsc (see $out/build-dep-$cross.log)"
		diag_file "$out/build-dep-$cross.log"
	fi
	d=$cross
	rm -rf "${work:?}/build/$d"
	t=$(date +%s)
	if cross_build "$d" "$cross"; then
		ok "cross build: dpkg-buildpackage -a$cross -B from the .dsc ($(cd "$work/build/$d" && echo *.deb)) ($(($(date +%s) - t)) s)"
	else
		not_ok "cross build: dpkg-buildpackage -a$cross -B (see $out/build-$d.log)"
		diag_file "$out/build-$d.log" 30
	fi
	# Each .deb is for $cross, and each ELF file in it (its programs) is
	# that machine's code.
	mkdir -p "$out/$cross"
	rm -f "$out/$cross"/*
	cp "$work/build/$d"/*.deb "$out/$cross/" 2>/dev/null || true
	for f in "$out/$cross"/randstat_*.deb "$out/$cross"/randstat-cgroup_*.deb; do
		[ -f "$f" ] || { not_ok "cross build: no ${f##*/}"; continue; }
		a=$(dpkg-deb -f "$f" Architecture)
		x=$(mktemp -d)
		dpkg-deb -x "$f" "$x"
		find "$x" -type f | sort |
			while read -r b; do
				file -b "$b" | grep -q '^ELF' || continue
				echo "${b##*/}: $(file -b "$b" | cut -d, -f1,2)"
			done >"$f.programs"
		rm -rf "$x"
		if [ "$a" = "$cross" ] && [ -s "$f.programs" ] &&
		   ! grep -qv 'ARM aarch64' "$f.programs"; then
			ok "cross build: ${f##*/}: Architecture: $a, $(wc -l <"$f.programs") aarch64 programs"
		else
			not_ok "cross build: ${f##*/}: Architecture: $a, programs:"
		fi
		diag_file "$f.programs" 40
	done
fi

# randstat-dkms on an arm64 kernel, through the cross path: build a's
# randstat-dkms installed as a user installs it (dpkg -i: its
# maintainer scripts add it to DKMS), then DKMS builds and installs
# the module for Debian's arm64 kernel of the same ABI, whose headers
# (tests/unpack.sh's cross_headers: unpacked, the build machine's
# kbuild) are bound read-only at the same path in the chroot, with
# CROSS_COMPILE, as on an arm64 machine without it.  Installed before
# the headers, so its postinst builds for no kernel.  The .ko must be
# aarch64 code with the kernel's vermagic, and dkms status say so.
# (DKMS strips with the build machine's strip, which does not know
# aarch64: it warns and leaves the module unstripped.)
if [ "$cross" = arm64 ] && [ "$native" = 1 ]; then
	# shellcheck source=tests/unpack.sh
	. "$(dirname "${BASH_SOURCE[0]}")/unpack.sh"
	t=$(date +%s)
	dk_log=$out/dkms-$cross.log
	dk_deb=$(cd "$work/build/a" 2>/dev/null && echo randstat-dkms_*_all.deb) || dk_deb=
	dk_ok=0
	if ! dk_hdr=$(cross_headers "$cross" 2>"$dk_log"); then
		not_ok "dkms $cross: the $cross headers unpacked (see $dk_log)"
		diag_file "$dk_log"
	elif [ ! -f "$work/build/a/$dk_deb" ]; then
		not_ok "dkms $cross: no randstat-dkms .deb from build a"
	else
		dk_dir=${dk_hdr%/usr/src/*}
		dk_rel=${dk_hdr##*/linux-headers-}
		dk_ver=$(dpkg-deb -f "$work/build/a/$dk_deb" Version) || dk_ver=
		dk_ver=${dk_ver%-*}
		if { mkdir -p "$work$dk_dir" &&
		     mount --bind "$dk_dir" "$work$dk_dir" &&
		     mounts+=("$work$dk_dir") &&
		     mount -o remount,ro,bind "$work$dk_dir" &&
		     apt_get "$work" install -y --no-install-recommends dkms &&
		     in_chroot "$work" dpkg -i "/build/a/$dk_deb" &&
		     mkdir -p "$work/lib/modules/$dk_rel" &&
		     ln -sfn "$dk_hdr" "$work/lib/modules/$dk_rel/build" &&
		     in_chroot "$work" env CROSS_COMPILE=aarch64-linux-gnu- \
			dkms build "randstat/$dk_ver" -k "$dk_rel" -a aarch64 &&
		     in_chroot "$work" env CROSS_COMPILE=aarch64-linux-gnu- \
			dkms install "randstat/$dk_ver" -k "$dk_rel" -a aarch64; } \
			>"$dk_log" 2>&1; then
			dk_ok=1
			ok "dkms $cross: randstat-dkms installed, dkms build and install for $dk_rel -a aarch64 ($(($(date +%s) - t)) s)"
		else
			not_ok "dkms $cross: dkms build and install for $dk_rel (see $dk_log)"
			diag_file "$dk_log" 30
		fi
	fi
	if [ "$dk_ok" -eq 1 ]; then
		dk_ko=$work/lib/modules/$dk_rel/updates/dkms/randstat.ko
		dk_file=$(file -b "$dk_ko" 2>&1 | cut -d, -f1,2) || true
		dk_magic=$(in_chroot "$work" modinfo -F vermagic \
			"/lib/modules/$dk_rel/updates/dkms/randstat.ko" 2>&1) || true
		dk_status=$(in_chroot "$work" dkms status randstat 2>&1) || true
		case $dk_file in *"ARM aarch64"*) dk_arch=1 ;; *) dk_arch=0 ;; esac
		case $dk_status in *"$dk_rel, aarch64: installed"*) dk_inst=1 ;; *) dk_inst=0 ;; esac
		if [ "$dk_arch" -eq 1 ] && [ "$dk_inst" -eq 1 ] &&
		   [ "${dk_magic%% *}" = "$dk_rel" ] &&
		   [ "${dk_magic##* }" = aarch64 ]; then
			ok "dkms $cross: /lib/modules/$dk_rel/updates/dkms/randstat.ko is $dk_file, vermagic $dk_magic; $dk_status"
		else
			not_ok "dkms $cross: the module: $dk_file; vermagic $dk_magic; $dk_status"
		fi
	fi
fi

diag "total $(($(date +%s) - t0)) s; logs in $out"
echo "1..$n"
exit "$failed"
