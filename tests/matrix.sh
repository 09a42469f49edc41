#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make matrix: build randstat.ko with W=1 against each Debian release's own
# kernel headers and compiler, and print one line per kernel:
#
#   matrix: 6.1.0-56-amd64 (bookworm, gcc 12.2.0): ok, 0 warnings, <dir>/randstat.ko
#   matrix: 6.12.57+deb13-amd64 (trixie, gcc 14.2.0): FAILED (see <dir>/build.log)
#   matrix: 6.1.0-56-arm64 (bookworm, aarch64-linux-gnu-gcc 12.2.0): ok, 0 warnings, <dir>/randstat.ko, vermagic 6.1.0-56-arm64 SMP mod_unload modversions aarch64
#
# The host's own release (Debian 12 "bookworm") is built on the host with
# its /usr/src/linux-headers-*-amd64; every other release is built in a
# debootstrap chroot with that release's gcc and linux-headers-amd64.  The
# last row, "debug", is the debug kernel of make check's debug suite
# (tests/debugkernel.sh: lockdep, KASAN, UBSAN...), built on the host.
# A release named RELEASE-arm64 is the same release's arm64 kernel, cross-
# built with Debian's gcc-NN-aarch64-linux-gnu (x86-64 kbuild tools, as a
# cross build runs them) against its linux-headers-<abi>-arm64 of the same
# ABI and version as the amd64 row's: fetched with apt-get download (arch
# arm64, added with dpkg --add-architecture) and unpacked with dpkg-deb -x,
# on the host (tests/unpack.sh, cross_headers) or in RELEASE's chroot.
# debootstrap runs with its default mirror, so no host name is written here.
#
# Usage: tests/matrix.sh [--images] [--refresh] [-h]
#   MATRIX="bookworm trixie sid debug bookworm-arm64 trixie-arm64 sid-arm64"
#                                  releases to build (the default);
#                                  debug: the debug kernel's tree
#                                  (tests/debugkernel.sh; no --images);
#                                  RELEASE-arm64: its arm64 kernel, cross-
#                                  built (no --images).  MATRIX=bookworm-arm64
#                                  is the quick one: on the host, no chroot
#   RANDSTAT_CACHE=<dir>           cache, default ~/.cache/randstat:
#     chroot-<release>/              the chroots (created once, 1-2 min each)
#     chroot-<release>.log           debootstrap / apt output
#     matrix/<kernel>/build.log      full W=1 build log
#     matrix/<kernel>/randstat.ko    the module built for <kernel>
#     matrix/<kernel>/image/         with --images: the unpacked linux-image
#                                    packages, and links to its parts:
#     matrix/<kernel>/vmlinuz          the kernel image
#     matrix/<kernel>/modules          its /lib/modules/<kernel>
#   --images    also fetch each kernel's image for VM tests: inside the
#               chroot, `apt-get download linux-image-<kernel>` (and the
#               linux-{binary,modules,base}-<kernel> it is split into from
#               7.x), then `dpkg-deb -x` them into matrix/<kernel>/image.
#   --refresh   apt-get update and upgrade linux-headers-amd64 in the
#               chroots first (done anyway when a chroot is over 7 days old).
#
# Exits non-zero if any build failed.  Needs root (debootstrap, chroot).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
releases=${MATRIX:-bookworm trixie sid debug bookworm-arm64 trixie-arm64 sid-arm64}
images=0
refresh=0
# What a headers-only out-of-tree build needs; linux-headers-amd64 pulls in
# linux-kbuild-* and the kernel's own gcc-NN (checked again below).  perl:
# W=1 runs scripts/kernel-doc (perl up to 6.12), which needs more than
# minbase's perl-base.
packages=(gcc make libc6-dev perl linux-headers-amd64)
stamp=.randstat-matrix-complete
jobs=$(nproc 2>/dev/null || echo 1)

usage() {
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

for arg in "$@"; do
	case $arg in
	--images)	images=1 ;;
	--refresh)	refresh=1 ;;
	-h|--help)	usage; exit 0 ;;
	*)		echo "matrix.sh: unknown argument '$arg'" >&2
			usage >&2; exit 2 ;;
	esac
done

say() { echo "# matrix: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
	echo "matrix.sh: must run as root (debootstrap and chroot)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive LC_ALL=C
mkdir -p "$cache/matrix"

# One run at a time per cache: the chroots and result dirs are shared.
exec 9>"$cache/.matrix.lock"
flock 9

# shellcheck source=/dev/null
host_release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

# shellcheck source=tests/chroot.sh
. "$(dirname "$0")/chroot.sh"


# shellcheck source=tests/unpack.sh
. "$(dirname "$0")/unpack.sh"

# The cross compiler's prefix for the arm64 rows.
cross=aarch64-linux-gnu-

# cross_arch ROOT: arm64 packages known to ROOT's dpkg and apt (ROOT "" is
# the host): dpkg --add-architecture arm64, then apt-get update.
cross_arch() {
	local root=$1
	run_in "$root" dpkg --print-foreign-architectures | grep -qx arm64 && return 0
	run_in "$root" dpkg --add-architecture arm64 || return 1
	if [ -z "$root" ]; then apt-get update -q; else apt_get "$root" update; fi
}

# cross_cc ROOT CC: the cross compiler aarch64-linux-gnu-CC (CC is gcc-NN,
# the kernel's), from Debian's CC-aarch64-linux-gnu, installed in ROOT.
cross_cc() {
	local root=$1 cc=$2
	run_in "$root" sh -c "command -v $cross$cc" >/dev/null && return 0
	if [ -z "$root" ]; then
		apt-get install -y -q --no-install-recommends "$cc-aarch64-linux-gnu"
	else
		apt_get "$root" install -y --no-install-recommends "$cc-aarch64-linux-gnu"
	fi
}

# chroot_cross_headers ROOT AMD64_KVER: in chroot ROOT, the arm64 headers
# of AMD64_KVER's ABI at the version of its installed amd64 headers,
# unpacked (apt-get download, dpkg-deb -x) into /cross/arm64-<abi>, its
# ../../lib/linux-kbuild-X.Y links resolved by a link to the chroot's own
# (linux-headers-amd64's, the same version), and its Makefile made to
# include the unpacked common headers (and from 7.x to name the unpacked
# tree in KBUILD_OUTPUT).  Prints the KDIR, as seen in ROOT.
chroot_cross_headers() {
	local root=$1 kver=$2 abi ver dir kb p deb dl=/tmp/randstat-cross
	abi=${kver%-amd64}
	dir=/cross/arm64-$abi
	# shellcheck disable=SC2016 # a dpkg-query format
	ver=$(in_chroot "$root" dpkg-query -W -f='${Version}' "linux-headers-$kver") || return 1
	if [ ! -f "$root$dir/.complete" ] || [ "$(cat "$root$dir/.complete")" != "$ver" ]; then
		# apt's output to stderr: stdout is the KDIR.
		cross_arch "$root" >&2 || return 1
		rm -rf "${root:?}$dir" "$root$dl"
		mkdir -p "$root$dir" "$root$dl"
		in_chroot "$root" chown _apt "$dl" 2>/dev/null || true
		# shellcheck disable=SC2016 # expanded by the inner sh
		in_chroot "$root" sh -c 'cd "$0" && exec apt-get download -q "$@"' "$dl" \
			"linux-headers-$abi-arm64:arm64=$ver" "linux-headers-$abi-common=$ver" >&2 ||
			return 1
		for deb in "$root$dl"/*.deb; do
			dpkg-deb -x "$deb" "$root$dir" || return 1
		done
		rm -rf "$root$dl"
		echo "$ver" >"$root$dir/.complete"
	fi
	p=$dir/usr/src/linux-headers-$abi-arm64
	[ -f "$root$p/Makefile" ] || { echo "no $p/Makefile in $root" >&2; return 1; }
	kb=$(readlink "$root$p/scripts")
	kb=${kb#../../lib/}
	kb=${kb%/scripts}
	[ -d "$root/usr/lib/$kb" ] || { echo "no /usr/lib/$kb in $root" >&2; return 1; }
	mkdir -p "$root$dir/usr/lib"
	ln -sfn "/usr/lib/$kb" "$root$dir/usr/lib/$kb"
	# include /usr/src/...-common/Makefile, and from 7.x KBUILD_OUTPUT=
	sed -i -E "s#([ =])/usr/src/#\\1$dir/usr/src/#g" "$root$p/Makefile"
	echo "$p"
}

# kbuild_cc HEADERS_DIR: the compiler the kernel was built with (gcc-NN).
kbuild_cc() {
	grep -ho 'gcc-[0-9][0-9]*' "$1/.kernelvariables" 2>/dev/null | head -n 1
}

# newest_headers ROOT: newest usr/src/linux-headers-*-amd64 under ROOT,
# not a PREEMPT_RT or cloud flavour (tests/vm/run.sh installs the rt one).
newest_headers() {
	local d
	d=$(printf '%s\n' "$1"/usr/src/linux-headers-*-amd64 |
		grep -Ev -- '-(rt|cloud)-amd64$' | sort -V | tail -n 1)
	[ -n "$d" ] && [ -f "$d/Makefile" ] && echo "${d#"$1"}"
}

# chroot_install DIR: make sure the packages and the kernel's gcc are in.
# shellcheck disable=SC2317 # called through chroot_ensure's hook
chroot_install() {
	local dir=$1 hdr cc
	if ! have_packages "$dir" ||
	   ! apt_get "$dir" check >/dev/null 2>&1; then
		apt_get "$dir" update || return 1
		apt_get "$dir" install -y --no-install-recommends \
			"${packages[@]}" || return 1
	fi
	hdr=$(newest_headers "$dir") || { echo "no linux-headers in $dir" >&2; return 1; }
	cc=$(kbuild_cc "$dir$hdr")
	if [ -n "$cc" ] && ! in_chroot "$dir" sh -c "command -v $cc" >/dev/null; then
		apt_get "$dir" install -y --no-install-recommends \
			"$cc" || return 1
	fi
	return 0
}

# ensure_chroot RELEASE: create (or reuse, or refresh) chroot-RELEASE, with
# the kernel's own gcc (chroot_install).
# shellcheck disable=SC2317,SC2154 # a hook; rel is chroot_ensure's
matrix_say() { say "$rel: $*"; }
ensure_chroot() {
	chroot_install_step=chroot_install chroot_say=matrix_say \
		chroot_ensure "$1" "$cache/chroot-$1" "$cache/chroot-$1.log" "$stamp"
}

# stage_sources DEST: copy the module sources (no .git, no build products).
stage_sources() {
	local dest=$1
	[ -e "$dest" ] && safe_rm "$dest"
	mkdir -p "$dest"
	tar -C "$repo" -cf - \
		--exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='*.cmd' --exclude='*.order' \
		--exclude=Module.symvers --exclude='*.a' \
		Kbuild module include | tar -C "$dest" -xf -
}

# image_packages ROOT KVER: linux-image-KVER and the packages it is split
# into (7.x: linux-binary-KVER, linux-modules-KVER, linux-base-KVER).
image_packages() {
	local root=$1 kver=$2 p
	echo "linux-image-$kver"
	run_in "$root" apt-cache depends "linux-image-$kver" |
	while read -r _ p; do
		case $p in
		*-"$kver") echo "$p" ;;
		esac
	done
}

# run_in ROOT CMD...: CMD on the host (ROOT "") or in chroot ROOT.
run_in() {
	local root=$1
	shift
	if [ -z "$root" ]; then "$@"; else in_chroot "$root" "$@"; fi
}

# fetch_image ROOT KVER OUT: download the kernel image packages with ROOT's
# apt (ROOT "" is the host) and unpack them with dpkg-deb -x into OUT/image,
# for VM tests: OUT/image/boot/vmlinuz-KVER and OUT/image/lib/modules/KVER.
fetch_image() {
	local root=$1 kver=$2 out=$3 dl=/tmp/randstat-image deb pkgs
	[ -f "$out/image/.complete" ] && [ -f "$out/vmlinuz" ] && return 0
	if ! run_in "$root" apt-cache show "linux-image-$kver" >/dev/null 2>&1; then
		[ -n "$root" ] && apt_get "$root" update
	fi
	mapfile -t pkgs < <(image_packages "$root" "$kver")
	rm -rf "$root$dl" "$out/image" "$out/vmlinuz" "$out/modules"
	mkdir -p "$root$dl" "$out/image"
	# apt downloads as _apt: let it write there.
	run_in "$root" chown _apt "$dl" 2>/dev/null || true
	# shellcheck disable=SC2016 # expanded by the inner sh
	run_in "$root" sh -c 'cd "$0" && exec apt-get download -q "$@"' \
		"$dl" "${pkgs[@]}" || return 1
	for deb in "$root$dl"/*.deb; do
		dpkg-deb -x "$deb" "$out/image" || return 1
	done
	rm -rf "$root$dl"
	# Stable names for the VM tests: up to 6.x the image is in /boot and
	# the modules in /lib/modules (6.12: /usr/lib/modules); from 7.x both
	# are in /usr/lib/modules/KVER.
	local f
	for f in boot/vmlinuz-"$kver" usr/lib/modules/"$kver"/vmlinuz; do
		[ -f "$out/image/$f" ] && ln -sfn "image/$f" "$out/vmlinuz"
	done
	for f in lib/modules/"$kver" usr/lib/modules/"$kver"; do
		[ -d "$out/image/$f" ] && ln -sfn "image/$f" "$out/modules"
	done
	[ -f "$out/vmlinuz" ] && [ -d "$out/modules" ] &&
		touch "$out/image/.complete"
}

# use_chroot BASE: root and where for release BASE's debootstrap chroot,
# made if missing; if it cannot be, says so (for the row $rel) and
# returns 1.
use_chroot() {
	root=$cache/chroot-$1
	where=chroot
	ensure_chroot "$1" && return 0
	echo "matrix: $rel: FAILED to create the chroot (see $cache/chroot-$1.log)"
	return 1
}

failed=0
for rel in $releases; do
	arch=amd64
	base=$rel
	case $rel in
	*-arm64) arch=arm64; base=${rel%-arm64} ;;
	esac
	if [ "$arch" = arm64 ]; then
		# The same release's amd64 headers say which ABI and version.
		if [ "$base" = "$host_release" ] && amd=$(newest_headers ""); then
			root=""
			where=host
		else
			use_chroot "$base" || { failed=1; continue; }
			amd=$(newest_headers "$root") || amd=
		fi
		kver=${amd##*/linux-headers-}
		if [ -z "$amd" ]; then
			echo "matrix: $rel: FAILED, no linux-headers-*-amd64 to take the ABI from"
			failed=1
			continue
		fi
		say "$rel: the arm64 headers of ${kver%-amd64}"
		if [ "$where" = host ]; then
			hdr=$({ cross_arch "" >&2 && cross_headers arm64 "$kver"; } 2>>"$cache/matrix/cross-$rel.log") || hdr=
		else
			hdr=$(chroot_cross_headers "$root" "$kver" 2>>"$cache/matrix/cross-$rel.log") || hdr=
		fi
		if [ -z "$hdr" ]; then
			echo "matrix: $rel: FAILED to fetch the arm64 headers (see $cache/matrix/cross-$rel.log)"
			failed=1
			continue
		fi
	elif [ "$rel" = debug ]; then
		# The debug kernel's build tree (built here, once, if missing).
		if ! hdr=$(bash "$repo/tests/debugkernel.sh"); then
			echo "matrix: debug: FAILED to build the debug kernel (tests/debugkernel.sh)"
			failed=1
			continue
		fi
		root=""
		where=host
	elif [ "$rel" = "$host_release" ] && hdr=$(newest_headers ""); then
		root=""
		where=host
	else
		use_chroot "$rel" || { failed=1; continue; }
		if ! hdr=$(newest_headers "$root"); then
			echo "matrix: $rel: FAILED, no linux-headers-*-amd64 in $root"
			failed=1
			continue
		fi
	fi
	kver=${hdr##*/linux-headers-}
	[ "$rel" = debug ] && kver=$(cat "$hdr/include/config/kernel.release")
	kbuild_args=(W=1)
	[ "$arch" = arm64 ] && kbuild_args+=(ARCH=arm64 CROSS_COMPILE="$cross")
	out=$cache/matrix/$kver
	log=$out/build.log
	mkdir -p "$out"
	rm -f "$out/randstat.ko"

	cc=$(kbuild_cc "$root$hdr" || true)	# none in the debug tree
	cc=${cc:-gcc}
	ccname=gcc
	if [ "$arch" = arm64 ]; then
		cross_cc "$root" "$cc" >>"$cache/matrix/cross-$rel.log" 2>&1 || true
		cc=$cross$cc
		ccname=${cross}gcc
	fi
	if [ "$where" = host ]; then
		ccver=$("$cc" -dumpfullversion 2>/dev/null || echo "$cc missing")
	else
		ccver=$(in_chroot "$root" "$cc" -dumpfullversion 2>/dev/null || echo "$cc missing")
	fi
	label="$kver ($base, $ccname $ccver)"
	say "$rel: building against $kver"

	# Build from a fresh copy: no stale objects, and no interference
	# with builds in the work tree.
	if [ "$where" = host ]; then
		src=$cache/matrix/src-$rel
	else
		src=/build/randstat-$arch
	fi
	stage_sources "$root$src"
	ok=1
	if [ "$where" = host ]; then
		make -C "$hdr" M="$src" modules "${kbuild_args[@]}" -j"$jobs" \
			>"$log" 2>&1 || ok=0
	else
		mount_proc "$root"
		in_chroot "$root" make -C "$hdr" M="$src" modules "${kbuild_args[@]}" \
			-j"$jobs" >"$log" 2>&1 || ok=0
		chroot_cleanup
	fi
	warnings=$(grep -c 'warning:' "$log" || true)

	if [ "$ok" = 1 ] && [ -f "$root$src/module/randstat.ko" ]; then
		cp "$root$src/module/randstat.ko" "$out/randstat.ko"
		extra=""
		if [ "$arch" = arm64 ]; then
			extra=", vermagic $(modinfo -F vermagic "$out/randstat.ko" 2>/dev/null || echo '?')"
		elif [ "$images" = 1 ] && [ "$rel" != debug ]; then
			if fetch_image "$root" "$kver" "$out" >>"$out/image.log" 2>&1; then
				extra=", image $out/vmlinuz"
			else
				extra=", image FAILED (see $out/image.log)"
				failed=1
			fi
		fi
		echo "matrix: $label: ok, $warnings warnings, $out/randstat.ko$extra"
	else
		echo "matrix: $label: FAILED (see $log)"
		grep -m 5 -E 'error:|Error [0-9]' "$log" | sed 's/^/#   /' >&2 || true
		failed=1
	fi
done

exit "$failed"
