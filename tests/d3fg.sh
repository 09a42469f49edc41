# shellcheck shell=bash
# The flame graph template of the prof suite: d3-flame-graph from the npm
# registry, pinned, installed by tests/deps.sh into the cache, checked by
# its sha256 (the template perf's flamegraph.py fills in).  Sourced.
# shellcheck disable=SC2034 # used by deps.sh and vm/flamegraph.sh
D3FG_VERSION=4.1.3
D3FG_SHA256=64aba4b35cfaba17b37d57a4036876f1999f3cfc4c8d4d3a0781d08a1ad97d5a
D3FG_DIR=${RANDSTAT_CACHE:-$HOME/.cache/randstat}/d3-flame-graph-$D3FG_VERSION
D3FG_TEMPLATE=$D3FG_DIR/node_modules/d3-flame-graph/dist/templates/d3-flamegraph-base.html
