#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""randstat_neg_log2()'s table and polynomial, for module/interval.c.

    python3 module/gen_log2_table.py            print them (C)
    python3 module/gen_log2_table.py --check    exit 1 unless interval.c
                                                holds exactly what it prints

Entry i of RS_LOG2_N = 128 covers the mantissas x in [1 + i/128,
1 + (i+1)/128):

    inv  = round(2^64 / (128 + i))          1/(128 x_i) in 0.64 fixed point
    log2 = round(2^62 log2(1 + i/128))      log2 x_i in 2.62 fixed point

and the polynomial's coefficients, log2(1 + t) = t (b1 - t (b2 - t (b3 -
t b4))) + O(t^5), are the Taylor series' bj = round(2^62 / (j ln 2)).
Exact integer arithmetic and the standard library's decimal module (its
ln() is correctly rounded), so the output is the same on any machine.
"""
import decimal
import os
import sys

N = 128
Q = 62
DEGREE = 4

decimal.getcontext().prec = 60
LN2 = decimal.Decimal(2).ln()


def round_div(num, den):
    """num / den rounded to the nearest integer (num, den > 0)."""
    return (2 * num + den) // (2 * den)


def round_dec(d):
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def table():
    rows = []
    for i in range(N):
        inv = round_div(1 << 64, N + i)
        lg = round_dec(decimal.Decimal(N + i).ln() / LN2 * (1 << Q)) - 7 * (1 << Q)
        rows.append((inv, lg))
    return rows


def coefficients():
    return [round_dec(decimal.Decimal(1 << Q) / (j * LN2))
            for j in range(1, DEGREE + 1)]


def text():
    out = []
    for j, b in enumerate(coefficients(), 1):
        out.append(f"#define RS_LOG2_B{j}\t0x{b:016x}ULL")
    out.append("")
    out.append("const struct randstat_log2_entry randstat_log2_table[RS_LOG2_N] __aligned(16) = {")
    for i, (inv, lg) in enumerate(table()):
        out.append(f"\t{{ 0x{inv:016x}ULL, 0x{lg:016x}ULL }},\t/* {i:3d} */")
    out.append("};")
    out.append("")
    return "\n".join(out) + "\n"


BEGIN = "/* gen_log2_table.py: begin */\n"
END = "/* gen_log2_table.py: end */\n"


def main():
    if sys.argv[1:] == ["--check"]:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "interval.c")
        with open(path, encoding="utf-8") as f:
            src = f.read()
        start, end = src.find(BEGIN), src.find(END)
        if start < 0 or end < start:
            sys.exit(f"{path}: no {BEGIN.strip()} ... {END.strip()}")
        if src[start + len(BEGIN):end] != text():
            sys.exit(f"{path}: the table is not gen_log2_table.py's")
        return
    if sys.argv[1:]:
        sys.exit(__doc__)
    sys.stdout.write(text())


if __name__ == "__main__":
    main()
