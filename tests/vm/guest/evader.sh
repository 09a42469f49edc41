# shellcheck shell=sh
# evader: the judged suite (judged.sh) in an ordinary guest booted with
# idle=poll: the tick evader on cpu1, against its own CPU time and the tick.
# shellcheck source=tests/vm/guest/judged.sh
. /tests/judged.sh
