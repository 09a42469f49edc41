#!/bin/bash
# Install, from Debian's packages, what building and testing randstat
# needs, and the prof suite's d3-flame-graph template from the npm
# registry (tests/d3fg.sh).  Does nothing when everything is there; as
# root it runs apt-get, otherwise it names the missing packages and fails.
# What must not be installed on the host is unpacked into the cache
# instead (tests/unpack.sh, apt-get download and dpkg-deb -x; no root
# needed): the guest kernel's image (a boot entry otherwise), sysstat,
# prometheus and prometheus-node-exporter (enabled and started services
# otherwise, listening on every interface).
#
#   deps.sh          everything make check needs
#   deps.sh demo     what make demo needs (no kernel source for KUnit)
#   deps.sh --missing [demo]   only print the Debian packages that are
#                    missing, one line, and change nothing
set -euo pipefail

list_only=0
if [ "${1:-}" = --missing ]; then
	list_only=1
	shift
fi

packages=(
	gcc make libc6-dev				# module, reader
	linux-headers-amd64				# the module's kernel (and the guest's, unpacked)
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd	# the guest
	libfuse3-dev fuse3 procps			# randstat-fs, top in the demo
	libtracefs-dev libtraceevent-dev pkg-config	# randstat top
	libjson-c-dev					# the reader's JSON
	clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev	# randstat cgroup
)
[ "${1:-}" = demo ] ||
	packages+=(linux-source bc flex bison python3	# KUnit on UML
		git debhelper dh-dkms build-essential lintian	# make deb
		dpkg-dev diffoscope-minimal			# the source package, reproducibility
		libelf-dev patch				# the debug kernel (objtool), its broken builds
		sparse python3-docutils shellcheck groff-base man-db	# the style suite
		clang libclang-rt-dev				# the sanitize suite (ASan, UBSan, libFuzzer)
		debootstrap systemd			# tests/deb.sh's chroot, units
		curl						# its node_exporter (unpacked)
		libsensors5					# the fuse suite's sadc (unpacked sysstat)
		linux-perf trace-cmd bpftrace			# the trace suite
		chromium					# the prof suite's flame graph
		gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm	# the arm64 suite
		device-tree-compiler				# its idle state that stops the timer (arm64-dtb.sh)
		libjson-c-dev:arm64 libtracefs-dev:arm64 libtraceevent-dev:arm64)	# (static reader)
# npm, for the prof suite's d3-flame-graph: Debian's package, unless an
# npm is there already (Node.js from elsewhere bundles one, and its
# package conflicts with Debian's npm).
[ "${1:-}" = demo ] || command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
if [ "$list_only" = 1 ]; then
	echo "${missing[*]}"
	exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "randstat: missing Debian packages: ${missing[*]}" >&2
		echo "  sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "# deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# The arm64 suite's libraries are arm64 packages (multiarch).
	case " ${missing[*]} " in *:arm64" "*)
		dpkg --print-foreign-architectures | grep -qx arm64 ||
			dpkg --add-architecture arm64 ;;
	esac
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# Unpacked, not installed (tests/unpack.sh): the image of the kernel
# linux-headers-amd64 is for; sysstat (the fuse suite's
# mpstat, sar and sadc), prometheus and prometheus-node-exporter (the deb
# and fuse suites).
# shellcheck source=tests/unpack.sh
. "$(dirname "$0")/unpack.sh"
guest_image || { echo "randstat: no guest kernel (see above)" >&2; exit 1; }
[ "${1:-}" = demo ] && exit 0
if ! unpacked sysstat sysstat >/dev/null ||
	! unpacked prometheus prometheus prometheus-node-exporter >/dev/null; then
	echo "randstat: could not unpack sysstat or prometheus (see above)" >&2
	exit 1
fi

# The prof suite's flame graph template (tests/d3fg.sh): d3-flame-graph
# from the npm registry, pinned, into the cache (no root needed).
# shellcheck source=tests/d3fg.sh
. "$(dirname "$0")/d3fg.sh"
d3fg_ok() {
	[ -f "$D3FG_TEMPLATE" ] &&
		[ "$(sha256sum <"$D3FG_TEMPLATE" | cut -d' ' -f1)" = "$D3FG_SHA256" ]
}
if ! d3fg_ok; then
	echo "# deps: npm install d3-flame-graph@$D3FG_VERSION into $D3FG_DIR"
	rm -rf "$D3FG_DIR"
	mkdir -p "$D3FG_DIR"
	# npm's Node.js trusts its own CA list; the system's (which holds a
	# site's proxy CA, if any) too, unless the caller chose otherwise.
	if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
		export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
	fi
	npm install --prefix "$D3FG_DIR" --no-save --no-package-lock --no-audit \
		--no-fund --ignore-scripts --loglevel=error \
		"d3-flame-graph@$D3FG_VERSION" >"$D3FG_DIR.log" 2>&1 ||
		{ echo "randstat: npm install d3-flame-graph@$D3FG_VERSION failed (see $D3FG_DIR.log)" >&2; exit 1; }
	d3fg_ok || { echo "randstat: $D3FG_TEMPLATE missing or not $D3FG_VERSION's (sha256)" >&2; exit 1; }
fi
