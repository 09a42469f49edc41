# shellcheck shell=bash
# The guest kernel, chosen one way for tests/vm/run.sh and bench/run.sh:
# sourced, not run.
#
# KERNEL=/path/vmlinuz-VER and MODDIR=/lib/modules/VER: either gives the
# other.  With neither, the kernel linux-headers-amd64 is for (the module
# is built against those headers): Debian's linux-image package of that
# release and the headers' version unpacked into the cache, not installed
# (tests/unpack.sh: no boot entry on the host; the installed image if it
# cannot be fetched).  Without linux-headers-amd64, the newest installed
# Debian kernel of the default flavour (not -rt or -cloud).
# Not a version written here: the archive moves on.

# shellcheck source=tests/unpack.sh
. "$(dirname "${BASH_SOURCE[0]}")/../unpack.sh"

if [ -n "${KERNEL:-}" ] && [ -z "${MODDIR:-}" ]; then
	MODDIR=/lib/modules/${KERNEL##*/vmlinuz-}
elif [ -z "${KERNEL:-}" ]; then
	if [ -z "${MODDIR:-}" ] && [ -n "$(guest_release)" ]; then
		if guest_image; then
			KERNEL=$GUEST_KERNEL
			MODDIR=$GUEST_MODDIR
		else
			echo "# kernel: no image for $(guest_release) (see above)" >&2
			MODDIR=/lib/modules/$(guest_release)
		fi
	elif [ -z "${MODDIR:-}" ]; then
		newest=$(find /boot -maxdepth 1 -name 'vmlinuz-*-amd64' |
			sed 's|.*/vmlinuz-||' | grep -Ev -- '-(rt|cloud)-amd64$' |
			sort -V | tail -n 1)
		MODDIR=/lib/modules/${newest:-none}
	fi
	KERNEL=${KERNEL:-/boot/vmlinuz-${MODDIR##*/}}
fi
export KERNEL MODDIR

# The hint when the kernel chosen above is missing.
# shellcheck disable=SC2034 # for the sourcing scripts
kernel_hint="bash tests/deps.sh unpacks linux-headers-amd64's kernel into the cache (or set KERNEL/MODDIR)"

# headers_for KVER: the build tree for KVER (KDIR if set), or nothing.
headers_for() {
	local d
	for d in ${KDIR:-} "/lib/modules/$1/build" "/usr/src/linux-headers-$1"; do
		[ -f "$d/Makefile" ] && { echo "$d"; return 0; }
	done
	return 1
}
