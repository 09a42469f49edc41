# shellcheck shell=bash
# Debian's linux-source, unpacked once into $RANDSTAT_CACHE and shared by
# tests/kunit.sh (the UML kernel) and tests/debugkernel.sh (the x86_64
# debug kernel): sourced, not run.
#
# ksrc_prepare REPO WHO: sets cache, ksrc_name (linux-source-X.Y) and ksrc (the
# unpacked tree), unpacking the newest /usr/src/linux-source-*.tar.xz if
# needed, and hooks REPO's kunit/ into the tree as drivers/randstat (the
# link is pointed at REPO each time: CI clones to a new place, and Kconfig
# reads it whichever kernel is built).  Or says why not on stderr, as
# "WHO: ...", and returns 1.
ksrc_prepare() {
	local repo=$1 who=$2 tarball
	cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
	# shellcheck disable=SC2012 # Debian's file names are plain
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$tarball" ]; then
		echo "$who: no /usr/src/linux-source-*.tar.xz: apt-get install linux-source" >&2
		return 1
	fi
	ksrc_name=$(basename "$tarball" .tar.xz)
	ksrc=$cache/$ksrc_name
	mkdir -p "$cache"
	(
		# One unpacker at a time: kunit.sh and debugkernel.sh may race.
		flock 8
		if [ ! -f "$ksrc/.randstat-unpacked" ]; then
			echo "# $who: unpacking $tarball into $cache" >&2
			rm -rf "$ksrc"
			tar -C "$cache" -xf "$tarball"
			touch "$ksrc/.randstat-unpacked"
		fi
		if ! grep -q randstat "$ksrc/drivers/Kconfig"; then
			sed -i '/^endmenu/i source "drivers/randstat/kunit/Kconfig"' \
				"$ksrc/drivers/Kconfig"
			# shellcheck disable=SC2016 # make's $(...), not the shell's
			echo 'obj-$(CONFIG_RANDSTAT_KUNIT_TEST) += randstat/kunit/' \
				>>"$ksrc/drivers/Makefile"
		fi
	) 8>"$cache/.ksrc.lock" ||
		{ echo "$who: unpacking $tarball failed" >&2; return 1; }
	# drivers/randstat is one link that every build through the tree's
	# Kconfig reads.  tests/mutate.sh points it at its copies, which it
	# rewrites, holding .ksrc-tree.lock exclusive (RANDSTAT_KSRC_LOCKED=1
	# for its own kunit.sh runs); every other user holds the lock shared
	# until it exits.  So make check's debug kernel build, beside its
	# mutants suite, never reads Kconfig through a copy being rewritten.
	if [ -z "${RANDSTAT_KSRC_LOCKED:-}" ]; then
		exec 7>>"$cache/.ksrc-tree.lock"
		flock -s 7
	fi
	ln -sfn "$repo" "$ksrc/drivers/randstat"
}
