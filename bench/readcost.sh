#!/bin/bash
# The cost of a read of /proc/randstat beside /proc/stat's, at several
# guest sizes (bench/guest/readcost.sh in one boot per size; make bench
# runs it from bench/run.sh).  Prints KTAP (bench/readcost.py).
#
#   bash bench/readcost.sh OUT INITRD [--boot-only]
#
# --boot-only (bench/run.sh): boot, and leave the list "NCPU OK KTAP ..."
# in OUT/vm/readcost.runs for bench/analyze.py.
#
# Env: READCOST_SMPS (guest sizes, default "2 8 32 64"), readcost_secs
# and readcost_rounds as the guest takes them (READCOST_SECS, default 1;
# READCOST_ROUNDS, default 5), and what tests/vm/boot.sh takes.  The
# guests run single-threaded TCG, as the rest of the benchmark: one host
# thread, so a read's cost is its own and not the host's other load's.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
out=${1:?usage: readcost.sh OUT INITRD}
initrd=${2:?}
boot_only=0
[ "${3:-}" = --boot-only ] && boot_only=1
mkdir -p "$out/vm"
ktaps=()
for n in ${READCOST_SMPS:-2 8 32 64}; do
	echo "# bench: booting the read-cost guest, -smp $n $(date +%T)" >&2
	t=$SECONDS
	ok=1
	RANDSTAT_OUT=$out/vm RANDSTAT_SMP=$n RANDSTAT_DISK_IOPS=0 \
		RANDSTAT_TCG_THREAD=${READCOST_TCG:-single} RANDSTAT_VM_TIMEOUT=${RANDSTAT_VM_TIMEOUT:-1200} \
		bash "$repo/tests/vm/boot.sh" "bench_readcost$n" readcost "$initrd" \
		"readcost_secs=${READCOST_SECS:-1} readcost_rounds=${READCOST_ROUNDS:-5}" || ok=0
	echo "# bench: -smp $n done in $((SECONDS - t)) s" >&2
	ktaps+=("$n" "$ok" "$out/vm/bench_readcost$n.ktap")
done
echo "${ktaps[*]}" >"$out/vm/readcost.runs"
[ "$boot_only" -eq 1 ] && exit 0
python3 "$here/readcost.py" "$out" "${ktaps[@]}"
