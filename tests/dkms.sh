#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS test: in a Debian 12 (bookworm) debootstrap chroot with Debian's dkms
# and two kernel header packages of different flavours (linux-headers-amd64
# and linux-headers-rt-amd64), run the project's real `make dkms-install`,
# check that DKMS built and installed randstat.ko for BOTH kernels (file in
# /lib/modules/<kernel>, vermagic matching the kernel, `dkms status`), that
# dkms's kernel hook rebuilds it after a kernel (headers) upgrade, and that
# `make dkms-uninstall` removes it for every kernel.  Output is TAP.
#
# Usage: tests/dkms.sh [--refresh] [-h]
#   RANDSTAT_CACHE=<dir>   cache, default ~/.cache/randstat:
#     chroot-dkms-bookworm/    the chroot (created once, 2-3 minutes)
#     chroot-dkms-bookworm.log debootstrap / apt output
#     dkms/                    logs of the last run (make, dkms make.log)
#   --refresh   apt-get update and upgrade the chroot's packages first
#               (done anyway when the chroot is over 7 days old).
#
# The chroot is this test's own (the `make matrix` chroots are not touched);
# every run first removes what an earlier run left in it.  debootstrap runs
# with its default mirror, so no host name is written here.
#
# Exits non-zero if any test failed.  Needs root (debootstrap, chroot).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# dkms pulls in gcc, make, dpkg-dev, patch and kmod (modinfo, depmod);
# openssl lets dkms create its MOK key and sign the module.
packages=(dkms make gcc libc6-dev kmod openssl
	linux-headers-amd64 linux-headers-rt-amd64)
src=/build/randstat

# shellcheck source=tests/chroot.sh
. "$(dirname "$0")/chroot.sh"
chroot_script_start dkms "${BASH_SOURCE[0]}" "$@"

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
# ensure_chroot: create (or reuse, or refresh) the chroot.
ensure_chroot() { chroot_ensure "$release" "$root" "$log" "$stamp"; }
kernels() { chroot_kernels "$root"; }
ko_files() { chroot_ko_files "$root" "$1"; }

# purge: remove what an earlier (maybe aborted) run left in the chroot.
purge() { chroot_remove_randstat "$root"; }

# stage_sources: what `make dkms-install` reads, without build products.
stage_sources() {
	[ -e "$root$src" ] && safe_rm "$root$src"
	mkdir -p "$root$src"
	tar -C "$repo" -cf - \
		--exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='*.cmd' --exclude='*.order' \
		--exclude=Module.symvers --exclude='*.a' \
		Makefile dkms.conf Kbuild module include | tar -C "$root$src" -xf -
}

# build_seconds KVER: how long dkms's build for KVER took, from its make.log
# (first line the start date, mtime the end).
build_seconds() {
	local f start end
	f=$(find "$root/var/lib/dkms/randstat" -path "*/$1/*/log/make.log" 2>/dev/null | head -n 1)
	[ -n "$f" ] || { echo "?"; return; }
	start=$(sed -n '2p' "$f")
	start=$(date -d "$start" +%s 2>/dev/null) || { echo "?"; return; }
	end=$(stat -c %Y "$f")
	echo $((end - start))
}

echo "TAP version 13"
t0=$(date +%s)
if [ -f "$root/$stamp" ]; then cached=1; else cached=0; fi
if ensure_chroot; then
	ok "bookworm chroot with dkms and two kernel headers ($([ $cached = 1 ] && echo cached || echo created) in $(($(date +%s) - t0)) s)"
else
	not_ok "bookworm chroot with dkms and two kernel headers (see $log)"
	diag_file "$log"
	echo "1..$n"
	exit 1
fi
diag "chroot: $root"
# shellcheck disable=SC2016 # a dpkg-query format
diag "dkms $(chroot "$root" dpkg-query -W -f='${Version}' dkms), gcc $(chroot "$root" gcc -dumpfullversion), running kernel $(uname -r) (no headers in the chroot)"

mapfile -t kvers < <(kernels)
diag "kernels with headers: ${kvers[*]:-none}"
check "two or more kernels with headers in /lib/modules/*/build (${#kvers[@]})" \
	test "${#kvers[@]}" -ge 2

mount_proc "$root"
purge
stage_sources

# --- make dkms-install ---------------------------------------------------
version=$(sed -n 's/^VERSION *:*= *//p' "$repo/Makefile" | head -n 1)
diag "randstat version $version"
t=$(date +%s)
if in_chroot "$root" make -C "$src" dkms-install >"$out/dkms-install.log" 2>&1; then
	ok "make dkms-install ($(($(date +%s) - t)) s)"
else
	not_ok "make dkms-install (see $out/dkms-install.log)"
	diag_file "$out/dkms-install.log"
fi

status=$(in_chroot "$root" dkms status 2>&1) || true
printf '%s\n' "$status" | sed 's/^/# dkms status: /'

check "/usr/src/randstat-$version/dkms.conf has the version substituted" \
	grep -q "^PACKAGE_VERSION=\"$version\"" "$root/usr/src/randstat-$version/dkms.conf"

# Per kernel: dkms says installed, the .ko is there, its vermagic matches.
check_kernel() {
	local k=$1 files f vermagic signer secs
	secs=$(build_seconds "$k")
	diag "$k: dkms build $secs s"
	if printf '%s\n' "$status" | grep -q "^randstat/$version, $k, [^:]*: installed"; then
		ok "$k: dkms status says installed"
	else
		not_ok "$k: dkms status says installed"
	fi
	mapfile -t files < <(ko_files "$k")
	if [ "${#files[@]}" -eq 1 ]; then
		f=${files[0]}
		ok "$k: one randstat.ko installed (${f#"$root"})"
	else
		not_ok "$k: one randstat.ko installed (found ${#files[@]}: ${files[*]:-none})"
		cp "$root"/var/lib/dkms/randstat/"$version"/"$k"/*/log/make.log \
			"$out/make-$k.log" 2>/dev/null && diag_file "$out/make-$k.log"
		not_ok "$k: vermagic matches the kernel (no module)"
		not_ok "$k: module is in modules.dep (no module)"
		return 0
	fi
	vermagic=$(in_chroot "$root" modinfo -F vermagic "${f#"$root"}" 2>/dev/null) || vermagic=""
	diag "$k: vermagic $vermagic"
	check "$k: vermagic matches the kernel" test "${vermagic%% *}" = "$k"
	check "$k: module is in modules.dep (depmod ran)" \
		grep -q "randstat\.ko" "$root/lib/modules/$k/modules.dep"
	signer=$(in_chroot "$root" modinfo -F signer "${f#"$root"}" 2>/dev/null) || signer=""
	diag "$k: signer: ${signer:-none (not signed)}"
	cp "$root"/var/lib/dkms/randstat/"$version"/"$k"/*/log/make.log \
		"$out/make-$k.log" 2>/dev/null || true
}
for k in "${kvers[@]}"; do
	check_kernel "$k"
done
if [ -f "$root/var/lib/dkms/mok.key" ]; then
	diag "dkms MOK key: /var/lib/dkms/mok.key ($(in_chroot "$root" openssl x509 -noout -subject -in /var/lib/dkms/mok.pub -inform DER 2>/dev/null || echo '?'))"
else
	diag "dkms MOK key: none"
fi

# --- after a kernel upgrade: dkms's header_postinst.d hook rebuilds ------
# A kernel (headers) package's postinst runs /etc/kernel/header_postinst.d/dkms
# <kernel>, which autoinstalls every AUTOINSTALL module for that kernel.
# Simulate it for the last kernel: drop its build, run the hook.
if [ "${#kvers[@]}" -ge 1 ]; then
	k=${kvers[-1]}
	in_chroot "$root" dkms remove "randstat/$version" -k "$k" >"$out/hook.log" 2>&1 || true
	if [ -z "$(ko_files "$k")" ]; then
		t=$(date +%s)
		in_chroot "$root" /etc/kernel/header_postinst.d/dkms "$k" >>"$out/hook.log" 2>&1 || true
		if [ -n "$(ko_files "$k")" ]; then
			ok "$k: header_postinst.d/dkms hook rebuilt the module ($(($(date +%s) - t)) s)"
		else
			not_ok "$k: header_postinst.d/dkms hook rebuilt the module (see $out/hook.log)"
			diag_file "$out/hook.log"
		fi
	else
		not_ok "$k: dkms remove -k $k removed the module (see $out/hook.log)"
	fi
fi

# --- make dkms-uninstall -------------------------------------------------
t=$(date +%s)
if in_chroot "$root" make -C "$src" dkms-uninstall >"$out/dkms-uninstall.log" 2>&1; then
	ok "make dkms-uninstall ($(($(date +%s) - t)) s)"
else
	not_ok "make dkms-uninstall (see $out/dkms-uninstall.log)"
	diag_file "$out/dkms-uninstall.log"
fi
for k in "${kvers[@]}"; do
	left=$(ko_files "$k")
	check "$k: randstat.ko removed${left:+ (left: ${left//$'\n'/ })}" test -z "$left"
	if grep -q 'randstat\.ko' "$root/lib/modules/$k/modules.dep"; then
		not_ok "$k: not in modules.dep"
	else
		ok "$k: not in modules.dep"
	fi
done
status=$(in_chroot "$root" dkms status 2>&1) || true
if grep -q '^randstat' <<<"$status"; then
	not_ok "dkms status no longer lists randstat"
else
	ok "dkms status no longer lists randstat"
fi
check "/usr/src/randstat-$version removed" test ! -e "$root/usr/src/randstat-$version"

chroot_cleanup
purge
safe_rm "$root$src"
diag "total $(($(date +%s) - t0)) s; logs in $out"
echo "1..$n"
exit "$failed"
