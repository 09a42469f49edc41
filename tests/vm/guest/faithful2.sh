# shellcheck shell=sh
# faithful2: the faithful suite on two CPUs under trixie's QEMU 10, its
# workloads on the nohz_full cpu1, judged against their own CPU time and
# vtime (faithful.sh says how; run.sh boots it).
# shellcheck disable=SC2034 # faithful.sh's
FAITHFUL_CPU=1
# shellcheck source=tests/vm/guest/faithful.sh
. /tests/faithful.sh
