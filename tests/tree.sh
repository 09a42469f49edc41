# shellcheck shell=bash
# The work tree copied elsewhere: sourced, not run.
#
#   tree_copy DEST   the files of the tree in the current directory into
#                    DEST (made if missing), as they are in the work tree:
#                    those git lists, tracked or untracked but not ignored
#                    (what a commit of it would hold), or, outside a git
#                    checkout, everything but tests/out
#
# make check's icount lanes run their guests from such a copy; deb.sh,
# readme.sh and srcpkg.sh build packages and a newcomer's clone from one.
tree_copy() {
	mkdir -p "$1" || return 1
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard |
			tar --null -T - -cf - | tar -C "$1" -xf -
	else
		tar --exclude=./tests/out -cf - . | tar -C "$1" -xf -
	fi
}
