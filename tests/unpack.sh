# shellcheck shell=bash
# Debian packages unpacked, not installed: sourced, not run.
#
# What make check runs but must not install on the host (a boot kernel,
# daemons whose packages enable and start services) is taken from the
# packages' .debs, fetched with `apt-get download` (no root needed) and
# unpacked with `dpkg-deb -x` into $RANDSTAT_CACHE/unpacked/NAME (default
# ~/.cache/randstat), as tests/matrix.sh does for other kernels:
#
#   unpacked NAME PKG[=VERSION]...   fetch unless there, print the dir
#   unpacked_dir NAME                the dir if there (no fetch), or fail
#   guest_release                    the kernel linux-headers-amd64 is for
#   guest_image                      its image: sets GUEST_KERNEL and
#                                    GUEST_MODDIR (installed or unpacked)
#   cross_headers FLAVOUR [RELEASE]  another architecture's headers of the
#                                    same ABI (arm64: 6.1.0-56-arm64 for
#                                    6.1.0-56-amd64), ready for a cross
#                                    build: prints the KDIR
#
# NAME/.versions lists "package version" as unpacked; a package whose
# version apt would now fetch differs is fetched again.  Messages go to
# stderr.

unpack_cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}/unpacked

# unpack_want PKG[=VERSION]: "package version" apt would fetch, or nothing.
# PKG may be PKG:ARCH; the line names the package as dpkg-deb -f does,
# without the architecture.
unpack_want() {
	local p=${1%%=*} v
	if [ "$p" != "$1" ]; then
		v=${1#*=}
	else
		v=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		[ "$v" != "(none)" ] || v=
	fi
	[ -n "$v" ] && echo "${p%%:*} $v"
}

unpacked_dir() {
	[ -f "$unpack_cache/$1/.versions" ] && echo "$unpack_cache/$1"
}

unpacked() {
	local dir=$unpack_cache/$1 want="" line tmp deb p
	shift
	for p in "$@"; do
		line=$(unpack_want "$p") || line="${p%%=*} ?"
		want+="$line"$'\n'
	done
	want=$(printf '%s' "$want" | sort)
	# Already there, and what apt would fetch (when it can tell).
	if [ -f "$dir/.versions" ] &&
		{ [ "$want" = "$(cat "$dir/.versions")" ] || [[ $want == *' ?'* ]]; }; then
		echo "$dir"
		return 0
	fi
	echo "# unpack: apt-get download $* into $dir" >&2
	mkdir -p "$unpack_cache"
	tmp=$(mktemp -d "$unpack_cache/.fetch.XXXXXX") || return 1
	# apt downloads as _apt when root: let it write there.
	[ "$(id -u)" -ne 0 ] || chown _apt "$tmp" 2>/dev/null || true
	if ! (cd "$tmp" && apt-get download -q "$@") >"$tmp.log" 2>&1; then
		echo "unpack: apt-get download $* failed (apt-get update? log: $tmp.log)" >&2
		sed 's/^/  /' "$tmp.log" | tail -n 5 >&2
		rm -rf "$tmp"
		return 1
	fi
	mkdir -p "$tmp/root"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root" || { rm -rf "$tmp"; return 1; }
		dpkg-deb -f "$deb" Package Version | awk '{ printf "%s%s", $2, NR == 1 ? " " : "\n" }'
	done | sort >"$tmp/root/.versions"
	rm -rf "$dir" "$tmp.log"
	mv "$tmp/root" "$dir"
	rm -rf "$tmp"
	echo "$dir"
}

guest_release() {
	dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-[^ ,]*-amd64' | head -n 1 |
		sed 's/^linux-headers-//'
}

# depmod_unpacked MODDIR: modules.dep for an unpacked kernel's modules
# (dpkg-deb -x does not run depmod; initramfs.sh needs it), if missing.
depmod_unpacked() {
	local moddir=$1 rel=${1##*/} base
	[ -s "$moddir/modules.dep" ] && return 0
	base=$(mktemp -d)
	mkdir -p "$base/lib/modules"
	ln -s "$moddir" "$base/lib/modules/$rel"
	"$(command -v depmod || echo /sbin/depmod)" -b "$base" "$rel" ||
		{ rm -rf "$base"; echo "unpack: depmod for $rel failed" >&2; return 1; }
	rm -rf "$base"
}

# guest_image [RELEASE [ARCH]]: the image of RELEASE (default
# guest_release's) unpacked from linux-image-RELEASE at the installed
# headers' version (depmod run on it), the same on every machine; if that
# cannot be fetched, the installed one (/boot, /lib/modules).  With ARCH
# (arm64), linux-image-RELEASE:ARCH at the version of the installed
# headers of its ABI's amd64 flavour.  Sets GUEST_KERNEL and GUEST_MODDIR,
# or returns 1.
guest_image() {
	local rel=${1:-$(guest_release)} arch=${2:-} ver dir m
	GUEST_KERNEL=''
	GUEST_MODDIR=''
	[ -n "$rel" ] || { echo "unpack: linux-headers-amd64 is not installed" >&2; return 1; }
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-${rel%-"${arch:-amd64}"}-amd64" 2>/dev/null) || ver=
	if ! dir=$(unpacked "guest-$rel" "linux-image-$rel${arch:+:$arch}${ver:+=$ver}"); then
		if [ -r "/boot/vmlinuz-$rel" ] && [ -s "/lib/modules/$rel/modules.dep" ]; then
			echo "unpack: taking the installed $rel instead" >&2
			GUEST_KERNEL=/boot/vmlinuz-$rel
			GUEST_MODDIR=/lib/modules/$rel
			return 0
		fi
		return 1
	fi
	for m in "$dir/lib/modules/$rel" "$dir/usr/lib/modules/$rel"; do
		[ -d "$m" ] && GUEST_MODDIR=$m
	done
	for m in "$dir/boot/vmlinuz-$rel" "$dir/usr/lib/modules/$rel/vmlinuz"; do
		[ -f "$m" ] && GUEST_KERNEL=$m
	done
	if [ -z "$GUEST_KERNEL" ] || [ -z "$GUEST_MODDIR" ]; then
		echo "unpack: no kernel image or modules for $rel in $dir" >&2
		return 1
	fi
	depmod_unpacked "$GUEST_MODDIR"
}

# cross_headers FLAVOUR [RELEASE]: the headers of Debian's FLAVOUR kernel
# (arm64) for RELEASE's ABI (default: guest_release's, 6.1.0-56-amd64 ->
# 6.1.0-56-arm64), at the version of the installed amd64 headers, unpacked
# into the cache as cross-FLAVOUR-ABI with linux-headers-ABI-common and
# linux-kbuild-6.1 (apt's candidate) (x86-64 fixdep and modpost: what a cross
# build runs), so that the tree's scripts and tools links, which point at
# ../../lib/linux-kbuild-6.1, resolve inside it.  The flavour's Makefile
# includes /usr/src/linux-headers-ABI-common/Makefile: made to include
# the unpacked one.  Needs `dpkg --add-architecture arm64` and apt-get
# update (apt-get download of an :arm64 package).  From 7.x its
# KBUILD_OUTPUT= names /usr/src too: the unpacked tree then.  Prints the
# KDIR.
cross_headers() {
	local flavour=$1 rel=${2:-$(guest_release)} abi ver kb dir hdr
	[ -n "$rel" ] || { echo "unpack: linux-headers-amd64 is not installed" >&2; return 1; }
	abi=${rel%-*}
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$rel" 2>/dev/null) || ver=
	[ -n "$ver" ] || ver=$(apt-cache policy "linux-headers-$abi-$flavour:$flavour" 2>/dev/null |
		sed -n 's/^ *Candidate: //p')
	case $ver in ''|'(none)')
		echo "unpack: no linux-headers-$abi-$flavour:$flavour (dpkg --add-architecture $flavour; apt-get update)" >&2
		return 1 ;;
	esac
	kb=$(apt-cache show "linux-headers-$abi-$flavour:$flavour=$ver" 2>/dev/null |
		sed -n 's/^Depends: .*\(linux-kbuild-[^ ,]*\).*/\1/p' | head -n 1)
	[ -n "$kb" ] || { echo "unpack: linux-headers-$abi-$flavour:$flavour=$ver: no linux-kbuild in its Depends" >&2; return 1; }
	# linux-kbuild at apt's candidate: the headers depend on it by ">=",
	# and its own updates move on (6.1.192-3 under headers 6.1.192-2).
	dir=$(unpacked "cross-$abi-$flavour" "linux-headers-$abi-$flavour:$flavour=$ver" \
		"linux-headers-$abi-common=$ver" "$kb") || return 1
	hdr=$dir/usr/src/linux-headers-$abi-$flavour
	if [ ! -f "$hdr/Makefile" ] || [ ! -d "$dir/usr/lib/$kb/scripts" ]; then
		echo "unpack: no $hdr/Makefile or $kb in $dir" >&2
		return 1
	fi
	sed -i -E "s#([ =])/usr/src/#\\1$dir/usr/src/#g" "$hdr/Makefile"
	echo "$hdr"
}
