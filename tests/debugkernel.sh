#!/bin/bash
# The debug kernel for make check's debug suite: x86_64, from Debian's
# linux-source (the tree tests/kunit.sh unpacks), `make tinyconfig` plus
# tests/debug/debug.config: what the test guest needs to boot, and
# lockdep, KASAN, kmemleak, UBSAN, atomic-sleep and debug-objects checks,
# fault injection, IRQ_TIME_ACCOUNTING and VIRT_CPU_ACCOUNTING_GEN.
#
#   bash tests/debugkernel.sh     build it unless cached; print its directory
#
# The directory, $RANDSTAT_CACHE/debug-<source>-<key> (key: a checksum of
# the config fragment, this script and the compiler), is the kernel's
# build tree (`make -C DIR M=... modules` builds a module against it) and
# holds arch/x86/boot/bzImage and modinst/lib/modules/<release>/.  Cold:
# about 6 minutes on 2 cores; cached: nothing to do.  The build log is
# DIR.log.  Fails if Kconfig dropped an option of the fragment.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
frag=$repo/tests/debug/debug.config
# shellcheck source=tests/ksrc.sh
. "$repo/tests/ksrc.sh"
ksrc_prepare "$repo" debugkernel || exit 2

key=$({ cat "$frag" "$0"; gcc -dumpfullversion; } | cksum | cut -d' ' -f1)
build=$cache/debug-$ksrc_name-$key
log=$build.log
if [ ! -f "$build/.randstat-built" ]; then
	exec 9>"$cache/.debugkernel.lock"
	flock 9
fi
if [ ! -f "$build/.randstat-built" ]; then
	echo "# debugkernel: building $build (log $log)" >&2
	start=$SECONDS
	rm -rf "$build"
	mkdir -p "$build"
	{
		make -C "$ksrc" O="$build" tinyconfig
		"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$build" \
			"$build/.config" "$frag"
		make -C "$ksrc" O="$build" olddefconfig
	} >"$log" 2>&1 || { echo "debugkernel: configuring failed (see $log)" >&2; exit 1; }
	# Kconfig silently drops what it cannot satisfy.
	missing=$(grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$frag" |
		while IFS= read -r line; do
			case $line in
			"# "*)	sym=${line#\# }; sym=${sym%% *}
				grep -q "^$sym=" "$build/.config" && echo "$line" ;;
			*)	grep -qxF "$line" "$build/.config" || echo "$line" ;;
			esac
		done)
	if [ -n "$missing" ]; then
		echo "debugkernel: Kconfig did not take these from $frag:" >&2
		# shellcheck disable=SC2001 # indents every line
		echo "$missing" | sed 's/^/  /' >&2
		exit 1
	fi
	make -C "$ksrc" O="$build" -j"$(nproc)" bzImage modules >>"$log" 2>&1 ||
		{ echo "debugkernel: the build failed (see $log)" >&2; exit 1; }
	make -C "$ksrc" O="$build" INSTALL_MOD_PATH="$build/modinst" \
		modules_install >>"$log" 2>&1 ||
		{ echo "debugkernel: modules_install failed (see $log)" >&2; exit 1; }
	echo "# debugkernel: built in $((SECONDS - start)) s" >&2
	touch "$build/.randstat-built"
fi
echo "$build"
