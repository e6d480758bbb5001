#!/usr/bin/env python3
"""lines_crafted.py - runtime/symbols/lines.c against libdw on line programs made
to trip libdw's quirks and limits.

A tiny program is built (no C library, code at 0x401000) and its
.debug_line (or .debug_abbrev, .debug_info) replaced by hand-made bytes,
one quirk per file; `zeroinst_lines_diff --crafted` then looks up every
address of [0x401000, 0x401040) and the file tables both ways.  lines.c
may leave a unit to libdw, but an answer it gives must be libdw's.  The
well-formed control, and the cases lines.c can read as libdw does, must be
read by lines.c itself (else they could pass by leaving everything to
libdw).

usage: lines_crafted.py LINES_DIFF WORKDIR
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

LO, HI = 0x401000, 0x401040


def uleb(v):
    out = b""
    while True:
        b, v = v & 0x7F, v >> 7
        if not v:
            return out + bytes([b])
        out += bytes([b | 0x80])


def sleb(v):
    out = b""
    while True:
        b, v = v & 0x7F, v >> 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            return out + bytes([b])
        out += bytes([b | 0x80])


# Standard opcode operand counts, opcodes 1 to 12.
STD = bytes([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1])


def header(is_stmt=1):
    # minimum_instruction_length, maximum_operations_per_instruction,
    # default_is_stmt, line_base, line_range, opcode_base
    return bytes([1, 1, is_stmt, (-5) & 0xFF, 14, 13]) + STD


def v4(prog, files=((b"t.c", 0),), is_stmt=1):
    hdr = header(is_stmt) + b"\0"            # no include directories
    for name, d in files:
        hdr += name + b"\0" + uleb(d) + b"\0\0"
    hdr += b"\0"
    body = struct.pack("<H", 4) + struct.pack("<I", len(hdr)) + hdr + prog
    return struct.pack("<I", len(body)) + body


def v5(prog, dirfmt, dirs, filefmt, files):
    hdr = header()
    hdr += bytes([len(dirfmt)]) + b"".join(uleb(a) + uleb(b) for a, b in dirfmt)
    hdr += uleb(len(dirs)) + b"".join(dirs)
    hdr += bytes([len(filefmt)]) + b"".join(uleb(a) + uleb(b) for a, b in filefmt)
    hdr += uleb(len(files)) + b"".join(files)
    body = struct.pack("<H", 5) + bytes([8, 0]) + struct.pack("<I", len(hdr)) + hdr + prog
    return struct.pack("<I", len(body)) + body


def set_address(a):
    return b"\0\x09\x02" + struct.pack("<Q", a)


END = b"\0\x01\x01"
COPY = b"\x01"


def advance_pc(n):
    return b"\x02" + uleb(n)


def advance_line(n):
    return b"\x03" + sleb(n)


def set_column(n):
    return b"\x05" + uleb(n)


PLAIN = set_address(LO) + advance_line(4) + COPY + advance_pc(8) + advance_line(2) + COPY \
    + advance_pc(0x18) + END
DW_FORM_string, DW_FORM_udata, DW_FORM_data16 = 0x08, 0x0F, 0x1E

# name -> (how to make it, what it tests)
LINE_PROGRAMS = {
    "control": v4(PLAIN),
    # An extended operation's length as a two-byte ULEB (0x81 0x00): libdw
    # reads one byte, 129, and skips 128 bytes.
    "ext_length": v4(set_address(LO) + advance_line(4) + COPY + advance_pc(4)
                     + b"\0\x81\x00\x01" + b"\x07" * 127
                     + set_address(LO + 0x10) + COPY + advance_pc(0x14) + END),
    # DW_LNE_NVIDIA_inlined_call: libdw reads its two ULEBs whatever the
    # length says.
    "nvidia": v4(set_address(LO) + advance_line(4) + COPY + advance_pc(4)
                 + b"\0\x05\x90\x01\x01" + advance_line(5) + COPY + advance_pc(0x14) + END),
    # DWARF 5: a directory index in DW_FORM_data16 (libdw rejects the unit).
    "dir_data16": v5(PLAIN, [(1, DW_FORM_string)], [b"/d0\0"],
                     [(1, DW_FORM_string), (2, DW_FORM_data16)],
                     [b"t.c\0" + b"\0" * 16, b"u.c\0" + b"\0" * 16]),
    # DWARF 5: a content type libdw cuts to 16 bits (0x10001: DW_LNCT_path),
    # the last path wins.
    "lnct_16bit": v5(PLAIN, [(1, DW_FORM_string)], [b"/d0\0"],
                     [(1, DW_FORM_string), (0x10001, DW_FORM_string), (2, DW_FORM_udata)],
                     [b"a.c\0b.c\0\0", b"c.c\0d.c\0\0"]),
    # Rows after the last end of sequence (libdw ends them itself).
    "unended": v4(PLAIN + set_address(LO + 0x30) + advance_line(1) + COPY + advance_pc(4) + COPY),
    # A row at the end's address: libdw puts it after the end, then makes
    # the last row an end.
    "row_at_end": v4(set_address(LO) + COPY + advance_pc(0x10) + advance_line(3) + COPY + END),
    # Two sequences, the second starting at the first's end, one row there
    # each, and one starting inside the first (overlap).
    "touching": v4(set_address(LO) + COPY + advance_pc(0x10) + advance_line(1) + COPY + END
                   + set_address(LO + 0x10) + advance_line(7) + COPY + advance_pc(8) + END),
    "overlap": v4(set_address(LO) + COPY + advance_pc(0x20) + END
                  + set_address(LO + 0x10) + advance_line(7) + COPY + advance_pc(8) + END),
    # A column past libdw's 16 bits: libdw rejects the unit.
    "column": v4(set_address(LO) + set_column(70000) + COPY + advance_pc(8) + END),
    # default_is_stmt 2: libdw's one-bit field cannot hold it.
    "is_stmt": v4(PLAIN, is_stmt=2),
    # A file number past the table.
    "file_past": v4(set_address(LO) + b"\x04" + uleb(9) + COPY + advance_pc(8) + END),
    # Sequences out of address order (the unit's .text.unlikely first).
    "out_of_order": v4(set_address(LO + 0x20) + advance_line(9) + COPY + advance_pc(8) + END
                       + set_address(LO) + COPY + advance_pc(0x10) + END),
}


# Cases lines.c must read itself (its answers compared, none left to
# libdw): a regression that left them to libdw would pass otherwise.
READ_BY_LINES_C = {"control", "ext_length", "lnct_16bit", "row_at_end", "touching",
                   "out_of_order", "shared_program", "dwarf3_shared", "many_at_one_address"}


def abbrev(*entries):
    """.debug_abbrev: one DW_TAG_compile_unit entry (no children) per list
    of (attribute, form)."""
    out = b""
    for code, attrs in enumerate(entries, 1):
        out += uleb(code) + uleb(0x11) + b"\0"
        for a, f in attrs:
            out += uleb(a) + uleb(f)
        out += b"\0\0"
    return out + b"\0"


def unit(die, address_size=8, version=4):
    """A DWARF 2-4 compile unit (abbreviations at offset 0) holding DIE."""
    body = struct.pack("<H", version) + struct.pack("<I", 0) + bytes([address_size]) + die
    return struct.pack("<I", len(body)) + body


DW_AT_name, DW_AT_comp_dir, DW_AT_stmt_list = 0x03, 0x1B, 0x10
DW_FORM_data1, DW_FORM_sec_offset = 0x0B, 0x17


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def build(work, name, source, cwd=None):
    src = os.path.join(cwd or work, name + ".c")
    with open(src, "w") as f:
        f.write(source)
    exe = os.path.join(work, name)
    run(["gcc", "-O0", "-gdwarf-4", "-nostdlib", "-static", "-no-pie", "-Wl,-Ttext=0x401000",
         os.path.basename(src), "-o", exe], cwd=cwd or work)
    return exe


def section(exe, name):
    run(["objcopy", "--dump-section", name + "=" + exe + ".sec", exe, exe + ".tmp"])
    with open(exe + ".sec", "rb") as f:
        return bytearray(f.read())


def replace(exe, out, name, data, more=()):
    """OUT: EXE with section NAME's contents DATA (and MORE: (name, data))."""
    args = ["objcopy"]
    for k, (n, d) in enumerate(((name, data),) + tuple(more)):
        with open("%s.%d.sec" % (out, k), "wb") as f:
            f.write(d)
        args += ["--update-section", "%s=%s.%d.sec" % (n, out, k)]
    run(args + [exe, out])


def main():
    lines_diff, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = build(work, "t", "int g;\nvoid _start (void) { g = 1; g = 2; for (;;) ; }\n")
    files = {}
    for name, prog in LINE_PROGRAMS.items():
        files[name] = os.path.join(work, name)
        replace(base, files[name], ".debug_line", prog)
    # DW_AT_stmt_list in DW_FORM_data4 in a DWARF 4 unit: libdw takes the
    # offset in DW_FORM_sec_offset only (data4/data8 up to DWARF 3).
    data4 = section(base, ".debug_abbrev")
    at = data4.find(b"\x10\x17")            # DW_AT_stmt_list, DW_FORM_sec_offset
    assert at > 0, "no DW_AT_stmt_list in .debug_abbrev"
    data4[at + 1] = 0x06                    # DW_FORM_data4
    files["stmt_list_data4"] = os.path.join(work, "stmt_list_data4")
    replace(base, files["stmt_list_data4"], ".debug_abbrev", data4)
    # Two units (relative file names, different directories) sharing one
    # line program: libdw reads it once, with the first asker's directory.
    for d, fn, body in (("da", "x", "int g;\nvoid _start (void) { g = 1; for (;;) ; }\n"),
                        ("db", "y", "int h;\nvoid f (void) { h = 2; }\n")):
        os.makedirs(os.path.join(work, d))
        with open(os.path.join(work, d, fn + ".c"), "w") as f:
            f.write(body)
        run(["gcc", "-O0", "-gdwarf-4", "-c", fn + ".c", "-o", fn + ".o"], cwd=os.path.join(work, d))
    two = os.path.join(work, "two_units")
    run(["gcc", "-nostdlib", "-static", "-no-pie", "-Wl,-Ttext=0x401000",
         os.path.join(work, "da", "x.o"), os.path.join(work, "db", "y.o"), "-o", two])
    dump = run(["readelf", "--debug-dump=info", two]).stdout
    offsets = [int(m, 16) for m in re.findall(r"<([0-9a-f]+)>\s+DW_AT_stmt_list", dump)]
    assert len(offsets) == 2, "expected two units: %s" % offsets
    info = section(two, ".debug_info")
    info[offsets[1]:offsets[1] + 4] = info[offsets[0]:offsets[0] + 4]
    files["shared_program"] = os.path.join(work, "shared_program")
    replace(two, files["shared_program"], ".debug_info", info)

    # Hand-made units (.debug_abbrev and .debug_info replaced too).
    cu = uleb(1) + b"t.c\0/cd\0" + struct.pack("<I", 0) + b"\0"
    plain_unit = abbrev([(DW_AT_name, DW_FORM_string), (DW_AT_comp_dir, DW_FORM_string),
                         (DW_AT_stmt_list, DW_FORM_sec_offset)])
    # A unit of 4-byte addresses: libdw reads DW_LNE_set_address with 4
    # bytes (the rest are opcodes) and wants DWARF 5 headers to agree.
    files["address_size_4"] = os.path.join(work, "address_size_4")
    replace(base, files["address_size_4"], ".debug_line",
            v4(b"\0\x09\x02" + struct.pack("<Q", 0x0A0A0A0A00000000 | LO) + advance_line(4)
               + COPY + advance_pc(8) + END),
            ((".debug_abbrev", plain_unit), (".debug_info", unit(cu, address_size=4))))
    # A DWARF 3 unit with its offset in DW_FORM_data1 (libdw takes any
    # constant form there) and a DWARF 4 unit sharing its line program:
    # the first asker's directory names the files of both.
    files["dwarf3_shared"] = os.path.join(work, "dwarf3_shared")
    two_abbrev = abbrev([(DW_AT_name, DW_FORM_string), (DW_AT_comp_dir, DW_FORM_string),
                         (DW_AT_stmt_list, DW_FORM_data1)],
                        [(DW_AT_name, DW_FORM_string), (DW_AT_comp_dir, DW_FORM_string),
                         (DW_AT_stmt_list, DW_FORM_sec_offset)])
    replace(base, files["dwarf3_shared"], ".debug_line", v4(PLAIN),
            ((".debug_abbrev", two_abbrev),
             (".debug_info", unit(uleb(1) + b"t.c\0/A\0\0\0", version=3)
              + unit(uleb(2) + b"t.c\0/B\0" + struct.pack("<I", 0) + b"\0"))))
    # A compressed .zdebug_line before .debug_line: libdw takes the first.
    zfirst = os.path.join(work, "zdebug_first.tmp")
    other = v4(set_address(LO) + advance_line(40) + COPY + advance_pc(0x20) + END)
    with open(zfirst + ".z", "wb") as f:
        f.write(b"ZLIB" + struct.pack(">Q", len(LINE_PROGRAMS["control"]))
                + zlib.compress(LINE_PROGRAMS["control"]))
    with open(zfirst + ".b", "wb") as f:
        f.write(other)
    run(["objcopy", "--update-section", ".debug_line=" + zfirst + ".z",
         "--rename-section", ".debug_line=.zdebug_line", base, zfirst])
    files["zdebug_first"] = os.path.join(work, "zdebug_first")
    run(["objcopy", "--add-section", ".debug_line=" + zfirst + ".b", zfirst, files["zdebug_first"]])
    # 20,000 rows at one address (in order by a sort, not by insertion:
    # 160,000 took 14 s that way).
    files["many_at_one_address"] = os.path.join(work, "many_at_one_address")
    replace(base, files["many_at_one_address"], ".debug_line",
            v4((set_address(LO) + COPY + END) * 20000 + PLAIN))

    bad = 0
    for name, path in sorted(files.items()):
        r = subprocess.run([lines_diff, "--crafted", hex(LO), hex(HI), path],
                           capture_output=True, text=True, timeout=60)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        print("%-20s %s" % (name, last))
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            bad += 1
        m = re.search(r"(\d+) lookups compared, (\d+) left to libdw", last)
        if name in READ_BY_LINES_C and (not m or int(m.group(1)) == 0 or int(m.group(2)) != 0):
            print("FAIL: %s: lines.c does not read it itself" % name)
            bad += 1
    if bad:
        print("FAIL: %d cases" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
