# rearm: the judged suite (judged.sh) in a guest that idles in hlt.
. /tests/judged.sh
