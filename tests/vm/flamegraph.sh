#!/bin/bash
# The prof suite's host half: flame graphs of the guest's profiles of
# tests/progs/twofn (tests/vm/guest/prof.sh), made with perf's own
# `perf script report flamegraph` (flamegraph.py, Debian's linux-perf) and
# the d3-flame-graph template from the npm registry (tests/deps.sh
# installs it), then rendered by headless Chromium.  Prints KTAP.
#
#   bash tests/vm/flamegraph.sh DISK_IMAGE DIR
#
# DISK_IMAGE is the prof guest's scratch disk, on which the guest wrote a
# tar: rs/perf.data (perf record -e randstat:sample -a -g), clk/perf.data
# (cpu-clock at 250 Hz), home/.debug (perf's build-id cache: the guest's
# kallsyms and twofn, so that this host names the guest's frames; perf
# reads the cache at $HOME/.debug, so HOME points there) and counts (the
# samples of twofn in f and in g that the guest's perf script counted).
# DIR gets them and rs/flamegraph.html, clk/flamegraph.html and
# rs/flamegraph.png.
#
# The cpu-clock profile goes through `perf script report flamegraph`
# itself.  randstat:sample is a tracepoint, whose samples perf's Python
# scripting never hands to flamegraph.py's one handler (process_event),
# so that command draws an empty graph of it; userspace/
# randstat-flamegraph.py runs the same flamegraph.py and hands them over
# (its comment says how).
#
# Why on the host: flamegraph.py needs python3's standard library beside
# the libpython perf links, 40 MB more in a guest that only this suite
# boots, and the HTML has to come out for Chromium anyway; perf.data
# plus the build-id cache is what `perf archive` would carry.
#
# Env: RANDSTAT_CACHE (default ~/.cache/randstat; the template is in
# d3-flame-graph-VERSION/ there).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
img=${1:?usage: flamegraph.sh DISK_IMAGE DIR}
dir=${2:?usage: flamegraph.sh DISK_IMAGE DIR}
# The pinned template (tests/deps.sh installs it and checks its sha256).
# shellcheck source=tests/d3fg.sh
. "$repo/tests/d3fg.sh"

T=0
echo "KTAP version 1"
diag() { echo "# $*"; }
result() {
	T=$((T + 1))
	if [ "$1" -eq 0 ]; then echo "ok $T $2"; else echo "not ok $T $2"; fi
}
# finish: the plan, and the status (any failure: 1).
nfail=0
finish() { echo "1..$T"; [ "$nfail" -eq 0 ]; }
check() {	# check STATUS NAME
	[ "$1" -eq 0 ] || nfail=$((nfail + 1))
	result "$@"
}

rm -rf "$dir"
mkdir -p "$dir"
st=1
if [ -s "$img" ] && tar -xf "$img" -C "$dir" 2>"$dir/tar.err" &&
   [ -s "$dir/rs/perf.data" ] && [ -s "$dir/clk/perf.data" ] && [ -d "$dir/home/.debug" ]; then
	st=0
	diag "from the guest: $(du -sh "$dir" | cut -f1); $(tr '\n' ' ' <"$dir/counts")"
else
	diag "no profile on $img: $(head -c 300 "$dir/tar.err" 2>/dev/null)"
fi
check $st "the guest's profiles came out on its scratch disk"
if [ "$st" -ne 0 ]; then finish; exit 1; fi

# The template: the pinned version, self-contained (no script, style or
# font from the network: a flame graph must open offline).
st=0
if [ ! -f "$D3FG_TEMPLATE" ]; then
	diag "no $D3FG_TEMPLATE: bash tests/deps.sh (npm install d3-flame-graph@$D3FG_VERSION; Debian's npm)"
	st=1
elif [ "$(sha256sum <"$D3FG_TEMPLATE" | cut -d' ' -f1)" != "$D3FG_SHA256" ]; then
	diag "$D3FG_TEMPLATE is not d3-flame-graph $D3FG_VERSION's (sha256 differs)"
	st=1
else
	ext=$(grep -oiE '<script[^>]+src=|<link[^>]*>|@import|url\([^)]*\)|https?://[^"'"'"' )]*' "$D3FG_TEMPLATE" |
		grep -vE '^https?://www\.w3\.org/' | sort -u)
	if [ -n "$ext" ]; then
		diag "external references in the template: $(echo "$ext" | head -n 5 | tr '\n' ' ')"
		st=1
	fi
fi
check $st "d3-flame-graph $D3FG_VERSION's template is there and loads nothing from outside"

command -v perf >/dev/null || diag "perf missing: apt-get install linux-perf"
# flamegraph NAME OUT [SCRIPT]: perf script report flamegraph (or perf
# script -s SCRIPT) on NAME/perf.data, the HTML into NAME/OUT.
flamegraph() {
	local args=(report flamegraph)
	[ -n "${3:-}" ] && args=(-s "$3" --)
	(cd "$dir/$1" && HOME="$dir/home" \
		perf script "${args[@]}" --template "$D3FG_TEMPLATE" -o "$2" \
		>"$dir/$1.report.out" 2>&1)
}
for n in rs clk; do
	st=0
	if [ "$n" = rs ]; then
		how="perf script -s userspace/randstat-flamegraph.py"
		flamegraph rs flamegraph.html "$repo/userspace/randstat-flamegraph.py" || st=1
	else
		how="perf script report flamegraph"
		flamegraph clk flamegraph.html || st=1
	fi
	[ -s "$dir/$n/flamegraph.html" ] || st=1
	[ "$st" -eq 0 ] || sed 's/^/# perf: /' "$dir/$n.report.out" | head -n 20
	check $st "$how: $n/flamegraph.html ($(wc -c <"$dir/$n/flamegraph.html" 2>/dev/null || echo 0) bytes)"
done

# The graph's data (the stacks flamegraph.py put into the template): under
# twofn, the samples in f and in g must be the guest's own counts from
# perf script, each > 0, and the kernel's frames must be named (the
# guest's kallsyms from the build-id cache): randstat_timer_fn, in the
# module, by that name alone (randstat-flamegraph.py cuts perf's
# "randstat_timer_fn\0[randstat]").
# frames FILE: "f N", "g N", "kernel K", "twofn T" from the HTML's JSON.
frames() {
	python3 - "$1" <<'EOF'
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"const stacks = \[(.*)\];\n", html)
root = json.loads(m.group(1))
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
def first(n, name, found):
    # the subtrees where NAME first appears on each path
    if n["n"] == name:
        found.append(n)
        return
    for c in n["c"]:
        first(c, name, found)
def anywhere(n, name):
    return n["n"] == name or any(anywhere(c, name) for c in n["c"])
tw = [c for c in root["c"] if re.match(r"twofn \(\d+\)$", c["n"])]
out = {"f": 0, "g": 0, "twofn": 0}
for t in tw:
    out["twofn"] += total(t)
    for fn in ("f", "g"):
        found = []
        first(t, fn, found)
        out[fn] += sum(total(x) for x in found)
out["kernel"] = int(anywhere(root, "randstat_timer_fn"))
for k, v in out.items():
    print(k, v)
EOF
}
want() { awk -v k="$1" '$1 == k { print $2 }' "$dir/counts"; }
# What perf's own command makes of the tracepoint (a diagnostic: the
# reason for the script above; should a later perf hand tracepoint
# samples to process_event, this shows it).
flamegraph rs plain.html
diag "perf script report flamegraph on rs/perf.data itself: $(frames "$dir/rs/plain.html" 2>&1 | tr '\n' ' ')"

for n in rs clk; do
	got=$(frames "$dir/$n/flamegraph.html" 2>&1)
	diag "$n/flamegraph.html: $(echo "$got" | tr '\n' ' ')"
	gf=$(echo "$got" | awk '$1 == "f" { print $2 }')
	gg=$(echo "$got" | awk '$1 == "g" { print $2 }')
	gk=$(echo "$got" | awk '$1 == "kernel" { print $2 }')
	if [ "$n" = rs ]; then
		# randstat's: f and g both there, as in the guest, and the
		# kernel's frames named.
		st=1
		[ "$gf" = "$(want rs_f)" ] && [ "$gg" = "$(want rs_g)" ] &&
			[ "${gf:-0}" -gt 0 ] && [ "${gg:-0}" -gt 0 ] && [ "$gk" = 1 ] && st=0
		check $st "rs/flamegraph.html: twofn's f and g frames hold the guest's counts ($(want rs_f), $(want rs_g)), randstat_timer_fn named"
	else
		# perf's: the same counts as the guest's; which of f and g
		# it shows is the aliasing the guest judged.
		st=1
		[ "$gf" = "$(want clk_f)" ] && [ "$gg" = "$(want clk_g)" ] && st=0
		check $st "clk/flamegraph.html: twofn's f and g frames hold the guest's counts ($(want clk_f), $(want clk_g))"
	fi
done

# Rendering: headless Chromium (Debian's chromium) runs the page's
# script; the DOM it then holds must have SVG frames titled f and g under
# twofn, and its screenshot must not be blank (many colours, and a good
# part of it not the white background).  The screenshot waits for every
# compositor stage of a frame (--run-all-compositor-stages-before-draw):
# without it, once in a CI run on a loaded host, the DOM held all 73
# frames and the screenshot showed the page's buttons over an empty chart.
# shellcheck disable=SC2054 # the comma is --window-size's
chrome=(chromium --headless --no-sandbox --disable-gpu --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--disable-dev-shm-usage --hide-scrollbars --window-size=1400,700
	--virtual-time-budget=5000 --run-all-compositor-stages-before-draw)
if command -v chromium >/dev/null; then
	prof=$(mktemp -d)
	url=file://$dir/rs/flamegraph.html
	timeout 120 "${chrome[@]}" --user-data-dir="$prof" --dump-dom "$url" \
		>"$dir/rs/dom.html" 2>"$dir/chromium.err"
	st=$?
	nf=$(grep -aoE '<title>f \([^<]*</title>' "$dir/rs/dom.html" | head -n 1)
	ng=$(grep -aoE '<title>g \([^<]*</title>' "$dir/rs/dom.html" | head -n 1)
	nt=$(grep -aoE '<title>twofn \([0-9]+\) \([^<]*</title>' "$dir/rs/dom.html" | head -n 1)
	nframes=$(grep -ao 'class="frame"' "$dir/rs/dom.html" | wc -l)
	diag "Chromium's DOM: $nframes frames; $nt $nf $ng"
	if [ "$st" -ne 0 ] || [ -z "$nf" ] || [ -z "$ng" ] || [ -z "$nt" ]; then
		st=1
		sed 's/^/# chromium: /' "$dir/chromium.err" | tail -n 10
	fi
	check $st "Chromium renders rs/flamegraph.html with frames for twofn, f and g"
	timeout 120 "${chrome[@]}" --user-data-dir="$prof" --screenshot="$dir/rs/flamegraph.png" \
		"$url" >/dev/null 2>>"$dir/chromium.err"
	st=$?
	rm -rf "$prof"
	pix=$(python3 - "$dir/rs/flamegraph.png" <<'EOF' 2>&1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + ln]
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT":
        idat += body
    pos += 12 + ln
assert depth == 8 and ctype in (2, 6) and inter == 0, "unexpected PNG format"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, white, i = bytearray(stride), {}, 0, 0
for y in range(h):
    ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if ft == 1: line[x] = (line[x] + a) & 255
        elif ft == 2: line[x] = (line[x] + b) & 255
        elif ft == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        rgb = bytes(line[x:x + 3])
        colours[rgb] = colours.get(rgb, 0) + 1
    prev = line
n = w * h
print("%dx%d %d colours %.1f%% white" % (w, h, len(colours), 100.0 * colours.get(b"\xff\xff\xff", 0) / n))
EOF
)
	diag "screenshot rs/flamegraph.png: $pix"
	ncol=$(echo "$pix" | awk '{ print $2 }')
	wpct=$(echo "$pix" | awk '{ print $4 }')
	# A blank or error page is one or two colours and nearly all white;
	# the graph's frames are many colours over most of the chart.
	awk -v st="$st" -v c="${ncol:-0}" -v w="${wpct:-100}" 'BEGIN { exit !(st == 0 && c >= 20 && w < 90) }'
	check $? "Chromium's screenshot of rs/flamegraph.png is not blank (>= 20 colours, < 90% white)"
else
	diag "chromium missing: apt-get install chromium (tests/deps.sh)"
	check 1 "Chromium renders rs/flamegraph.html with frames for twofn, f and g"
	check 1 "Chromium's screenshot of rs/flamegraph.png is not blank (>= 20 colours, < 90% white)"
fi
finish
