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
