#!/usr/bin/env python3
"""Writes the seed inputs of the plugin-table fuzzer (fuzz_plugin.c) into corpus_plugin/: small
well-formed models in the fuzzer's input encoding (read its take_* functions), with every kind
of row (FLT, INT, BOOL, VEC, read-only, alias, default taken from another row, a contact-plane
state VEC). Run: python3 tests/fuzz/make_corpus_plugin.py (from anywhere)."""
import os

# take_name: a byte below 160 picks one of these; take_f64: a byte below 200 picks from COMMON.
PLAIN = ["fz_a", "fz_b", "fz_c", "fz_k", "fz_v", "fz_s", "fz_t", "linear", "kn", "fz"]
COMMON = [0, 1, -1, 0.5, 2, 3, 10, 100, 1e6, -1e6, 1e300, -1e300, "inf", "-inf", "nan", 1.5,
          0.25, 64, 1e-9, -0.5]
FLT, INT, BOOL, VEC = 0, 1, 2, 3
RW, RO, ALIAS = 0, 1, 2


def name(n):
    return bytes([PLAIN.index(n)])


def num(x):
    return bytes([COMMON.index(x)])


def prop(nm, typ, d, lo, hi, access=RW, default_from=None):
    out = name(nm) + bytes([typ]) + b"\0" + num(d) + num(lo) + num(hi) + bytes([access]) + b"\0"
    return out + (b"\0" if default_from is None else b"\1" + name(default_from))


def state(nm, typ, flags=0):
    return name(nm) + bytes([typ, flags]) + b"\0\0"


def model(props, states, dim, writes, n_derived=1):
    out = name("fz") + b"\0" + bytes([len(props), len(states), n_derived])
    out += b"".join(props) + b"".join(states) + bytes([1 if dim == 2 else 0])
    for values, n in writes:
        out += b"".join(num(v) for v in values) + bytes([n])
    return out


seeds = {
    "two_rows_2d": model([prop("fz_a", FLT, 1, 0, "inf"),
                          prop("fz_b", FLT, 2, 0, "inf", default_from="fz_a")],
                         [state("fz_s", FLT)], 2, [((10, 0, 0), 1), ((100, 0, 0), 1)]),
    "every_kind_3d": model([prop("fz_a", FLT, 1, 0, "inf"),
                            prop("fz_k", INT, 3, 0, 100),
                            prop("fz_b", BOOL, 0, 0, 1),
                            prop("fz_v", VEC, 0, "-inf", "inf"),
                            prop("fz_c", FLT, 0, 0, "inf", access=ALIAS, default_from="fz_a"),
                            prop("fz_t", FLT, 0.5, 0, 1, access=RO)],
                           [state("fz_s", FLT), state("kn", VEC, 1)], 3,
                           [((2, 0, 0), 1), ((64, 0, 0), 1), ((1, 0, 0), 1),
                            ((1, -1, 0.5), 3), ((3, 0, 0), 1), ((0.25, 0, 0), 1)]),
    "no_rows_3d": model([], [], 3, []),
}
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus_plugin")
os.makedirs(here, exist_ok=True)
for k, v in seeds.items():
    with open(os.path.join(here, "seed_" + k), "wb") as f:
        f.write(v)
print("seed models written:", len(seeds))
