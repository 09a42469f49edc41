#!/bin/bash
# Install, from Debian's packages, what building and testing randstat
# needs.  Does nothing when everything is there; as root it runs apt-get,
# otherwise it names the missing packages and fails.
#
#   deps.sh          everything make check needs
#   deps.sh demo     what make demo needs (no kernel source for KUnit)
set -euo pipefail

packages=(
	gcc make libc6-dev				# module, reader
	linux-headers-amd64				# the module's kernel
	linux-image-amd64				# the guest kernel
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd	# the guest
	libfuse3-dev fuse3 procps			# randstat-fs, top in the demo
	libtracefs-dev libtraceevent-dev pkg-config	# randstat top
)
[ "${1:-}" = demo ] ||
	packages+=(linux-source bc flex bison python3	# KUnit on UML
		git debhelper dh-dkms build-essential lintian	# make deb
		libelf-dev patch				# the debug kernel (objtool), its broken builds
		sparse						# the style suite
		debootstrap systemd			# tests/deb.sh's chroot, units
		prometheus-node-exporter prometheus curl	# its node_exporter
		sysstat						# the fuse suite
		linux-perf trace-cmd bpftrace)			# the trace suite

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "randstat: missing Debian packages: ${missing[*]}" >&2
	echo "  sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "# deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
