# evader: the judged suite (judged.sh) in an ordinary guest booted with
# idle=poll: the tick evader on cpu1, against its own CPU time and the tick.
. /tests/judged.sh
