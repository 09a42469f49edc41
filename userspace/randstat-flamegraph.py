# SPDX-License-Identifier: GPL-2.0
"""randstat-flamegraph.py: perf's flame graph of randstat:sample.

    perf record -e randstat:sample -a -g -- WORKLOAD
    perf script -s randstat-flamegraph.py -- --template TEMPLATE [-o OUT]

perf's Python scripting hands the samples of a tracepoint such as
randstat:sample to a handler named after the event (randstat__sample),
else to trace_unhandled(), and never to process_event(), the only handler
perf's own flamegraph.py defines: `perf script report flamegraph` on such
a recording writes an empty graph (perf 6.1, Debian 12's; upstream's
flamegraph.py is no different).  This runs perf's flamegraph.py itself
(from PERF_EXEC_PATH, which perf sets), with its own options (--template,
-o, --colorscheme...), and passes it each tracepoint sample in the form
its process_event() reads: the comm, the pid and the callchain.  Samples
of other events go to flamegraph.py's process_event() as before.

perf 6.1 also names a module's functions in a tracepoint's callchain
"NAME\0[MODULE]" (randstat_timer_fn\0[randstat]): the name is cut at
the NUL, which would otherwise reach the HTML.
"""
import os
import runpy

_FLAMEGRAPH = os.path.join(os.environ.get("PERF_EXEC_PATH", "/usr/lib/perf-core"),
                           "scripts", "python", "flamegraph.py")
# flamegraph.py parses sys.argv (the options after --) when run as main.
_G = runpy.run_path(_FLAMEGRAPH, run_name="__main__")
process_event = _G["process_event"]
trace_end = _G["trace_end"]


def _frame(entry):
    """One callchain entry, its symbol's name cut at a NUL."""
    sym = entry.get("sym")
    if sym and "\0" in sym.get("name", ""):
        entry = dict(entry, sym=dict(sym, name=sym["name"].split("\0")[0]))
    return entry


def trace_unhandled(event_name, context, fields, *_):
    """A tracepoint sample: its common_* fields, as flamegraph.py wants."""
    del context
    process_event({
        "ev_name": event_name.replace("__", ":", 1),
        "comm": fields["common_comm"],
        "sample": {"pid": fields["common_pid"], "cpu": fields["common_cpu"]},
        "callchain": [_frame(e) for e in fields.get("common_callchain", [])],
    })
