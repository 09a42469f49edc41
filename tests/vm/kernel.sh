# shellcheck shell=bash
# The guest kernel, chosen one way for tests/vm/run.sh and bench/run.sh:
# sourced, not run.
#
# KERNEL=/path/vmlinuz-VER and MODDIR=/lib/modules/VER: either gives the
# other; with neither, the newest installed Debian kernel of the default
# flavour (linux-image-amd64's on a fresh machine; not -rt or -cloud), not
# a version written here: the archive moves on.
if [ -n "${KERNEL:-}" ] && [ -z "${MODDIR:-}" ]; then
	MODDIR=/lib/modules/${KERNEL##*/vmlinuz-}
elif [ -z "${KERNEL:-}" ]; then
	if [ -z "${MODDIR:-}" ]; then
		newest=$(find /boot -maxdepth 1 -name 'vmlinuz-*-amd64' |
			sed 's|.*/vmlinuz-||' | grep -Ev -- '-(rt|cloud)-amd64$' |
			sort -V | tail -n 1)
		MODDIR=/lib/modules/${newest:-none}
	fi
	KERNEL=/boot/vmlinuz-${MODDIR##*/}
fi
export KERNEL MODDIR

# headers_for KVER: the build tree for KVER (KDIR if set), or nothing.
headers_for() {
	local d
	for d in ${KDIR:-} "/lib/modules/$1/build" "/usr/src/linux-headers-$1"; do
		[ -f "$d/Makefile" ] && { echo "$d"; return 0; }
	done
	return 1
}
