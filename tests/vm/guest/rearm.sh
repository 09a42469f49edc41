# shellcheck shell=sh
# rearm: the judged suite (judged.sh) in a guest that idles in hlt.
# shellcheck source=tests/vm/guest/judged.sh
. /tests/judged.sh
