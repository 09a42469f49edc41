# shellcheck shell=bash
# Helpers for the scripts that work in debootstrap chroots (matrix.sh,
# dkms.sh): sourced, not run.  Everything mounted is unmounted on exit.

mounts=()
chroot_cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
	done
	mounts=()
}
trap chroot_cleanup EXIT
trap 'exit 130' INT TERM

# mount_proc DIR: /proc in the chroot DIR, until chroot_cleanup.
mount_proc() {
	mountpoint -q "$1/proc" && return 0
	mount -t proc proc "$1/proc"
	mounts+=("$1/proc")
}

# in_chroot DIR CMD...: run CMD in the chroot DIR with a clean environment.
in_chroot() {
	local dir=$1
	shift
	chroot "$dir" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"
}

# apt_get DIR ARGS...: apt-get in the chroot DIR.  debootstrap does not
# check a Release file's Valid-Until, and sid's can lapse while the chroot
# is still good, so apt does not either; signatures are still checked.
apt_get() {
	local dir=$1
	shift
	in_chroot "$dir" apt-get -q -o Acquire::Check-Valid-Until=false "$@"
}

# safe_rm DIR: remove a chroot, refusing while anything is mounted below it.
safe_rm() {
	if findmnt -rn -o TARGET | grep -q "^$1\(/\|$\)"; then
		echo "$1 has mounts below it; not removing" >&2
		return 1
	fi
	rm -rf --one-file-system "$1"
}

# have_packages DIR: are all of ${packages[@]} (the caller's array)
# installed in chroot DIR?
# shellcheck disable=SC2154 # packages is the sourcing script's
have_packages() {
	local n
	# shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
	n=$(in_chroot "$1" dpkg-query -W -f='${db:Status-Abbrev}\n' \
		"${packages[@]}" 2>/dev/null | grep -c '^ii') || true
	[ "$n" -eq ${#packages[@]} ]
}

# chroot_packages DIR: install ${packages[@]} in chroot DIR (the default
# install step of chroot_ensure).
# shellcheck disable=SC2317 # called through chroot_ensure's hook
chroot_packages() {
	apt_get "$1" install -y --no-install-recommends "${packages[@]}"
}

# chroot_ensure RELEASE DIR LOG STAMP: create the bookworm-style chroot DIR
# of RELEASE with ${packages[@]} (the caller's array), or reuse it, or
# refresh its packages when $refresh is 1, its STAMP file is over 7 days
# old or a package is missing.  debootstrap and apt output go to LOG.
# Hooks: $chroot_install_step DIR installs what the chroot needs (default
# chroot_packages); $chroot_say MESSAGE reports progress (default: a "# "
# line; RELEASE is $rel in it).  Used by dkms.sh, deb.sh and matrix.sh
# (each with its own DIR).
# shellcheck disable=SC2154 # packages and refresh are the sourcing script's
chroot_ensure() {
	local rel=$1 dir=$2 log=$3 stamp=$4 new=$2.new include
	local install=${chroot_install_step:-chroot_packages}
	local say=${chroot_say:-chroot_note}
	if [ -f "$dir/$stamp" ]; then
		if [ "$refresh" = 1 ] || [ -n "$(find "$dir/$stamp" -mtime +7)" ] ||
		   ! have_packages "$dir"; then
			"$say" "refreshing the chroot's packages"
			if mount_proc "$dir" && {
				apt_get "$dir" update &&
				apt_get "$dir" install -y --no-install-recommends "${packages[@]}" &&
				apt_get "$dir" autoremove -y --purge &&
				"$install" "$dir" &&
				apt_get "$dir" clean
			} >>"$log" 2>&1; then
				touch "$dir/$stamp"
			else
				"$say" "refresh failed, using the old packages (see $log)"
			fi
			chroot_cleanup
		fi
		return 0
	fi
	command -v debootstrap >/dev/null || {
		"$say" "installing debootstrap"
		apt-get update -q >/dev/null
		apt-get install -y --no-install-recommends debootstrap >/dev/null
	}
	[ -e "$dir" ] && safe_rm "$dir"
	[ -e "$new" ] && safe_rm "$new"
	"$say" "creating chroot $dir (2-3 minutes)"
	include=$(IFS=,; echo "${packages[*]}")
	if ! { debootstrap --variant=minbase --include="$include" "$rel" "$new" &&
	       mount_proc "$new" &&
	       "$install" "$new" &&
	       apt_get "$new" clean; } >"$log" 2>&1; then
		chroot_cleanup
		return 1
	fi
	chroot_cleanup
	touch "$new/$stamp"
	mv "$new" "$dir"
}

# shellcheck disable=SC2317 # called through chroot_ensure's hook
chroot_note() { echo "# $*"; }

# chroot_kernels DIR: the kernels in chroot DIR that have a build tree
# (headers).  The build links are absolute, so look from inside the chroot.
chroot_kernels() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	in_chroot "$1" sh -c 'for f in /lib/modules/*/build/Makefile; do
		[ -f "$f" ] || continue
		k=${f%/build/Makefile}; echo "${k##*/}"
	done' | sort -V
}

# chroot_ko_files DIR KVER: randstat.ko* installed in chroot DIR for KVER
# (any compression).
chroot_ko_files() {
	find "$1/lib/modules/$2" -name 'randstat.ko*' 2>/dev/null | sort
}

# chroot_remove_randstat DIR: remove randstat from DKMS in chroot DIR, with
# its sources and any module left, whatever an earlier (maybe aborted) run
# left there.
chroot_remove_randstat() {
	local dir=$1 v
	for v in "$dir"/var/lib/dkms/randstat/*/; do
		[ -d "$v/source" ] || [ -L "$v/source" ] || continue
		v=${v%/}
		in_chroot "$dir" dkms remove "randstat/${v##*/}" --all >/dev/null 2>&1 || true
	done
	rm -rf "$dir/var/lib/dkms/randstat" "$dir"/usr/src/randstat-*
	find "$dir/lib/modules" -name 'randstat.ko*' -delete 2>/dev/null || true
}

# chroot_script_start NAME SCRIPT ARGS...: the start of dkms.sh and deb.sh.
# ARGS: --refresh sets refresh=1, -h prints SCRIPT's header comment (from
# line 3 to `set -euo`).  Must be root.  Sets the paths the script works
# in: cache (RANDSTAT_CACHE, ~/.cache/randstat), release (bookworm), root
# (its own chroot, cache/chroot-NAME-bookworm), log (debootstrap and apt
# output), out (cache/NAME, logs of the last run) and stamp (in the chroot
# when it is complete); and takes a lock, one run per NAME and cache.
# shellcheck disable=SC2034 # the variables are the sourcing script's
chroot_script_start() {
	local name=$1 script=$2 arg
	shift 2
	refresh=0
	for arg in "$@"; do
		case $arg in
		--refresh)	refresh=1 ;;
		-h|--help)	chroot_usage "$script"; exit 0 ;;
		*)		echo "$name.sh: unknown argument '$arg'" >&2
				chroot_usage "$script" >&2; exit 2 ;;
		esac
	done
	if [ "$(id -u)" -ne 0 ]; then
		echo "$name.sh: must run as root (debootstrap, chroot, dkms, apt-get)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive LC_ALL=C
	cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
	release=bookworm
	root=$cache/chroot-$name-$release
	log=$root.log
	out=$cache/$name
	stamp=.randstat-$name-complete
	mkdir -p "$cache" "$out"
	exec 9>"$cache/.$name.lock"
	flock 9
}
chroot_usage() {
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$1"
}
