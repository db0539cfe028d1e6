#!/usr/bin/env python3
"""oracle-compare.py: filemon's capture of a workload checked call by call against strace's.

Input: the output of `strace -f -y -qq -xx -e signal=none -o FILE` (one file, every thread,
strings in hex) and filemonctl's `dump --format=jsonl` of the same run. For every thread
strace reports, the calls of filemon's syscall table (common/fm-syscalls.c, read here so
the two never disagree about what is traced) are lined up in call order with filemon's
events of that thread, and each pair is compared: syscall, result, path, path2 and the
decoded arguments (the detail). What filemon should show is derived from strace's line:
absolute paths as given, relative ones on the dirfd's or the cwd's path (strace -y prints
both), fd arguments as the fd's path, flags as sets of names.

Every difference is printed. A difference that a section of the limitations file
(limitations.ini) matches is counted as documented; any other fails the comparison.
doc/oracle.md describes the whole check and how to run it on one's own workload.
"""
import argparse
import configparser
import difflib
import errno
import json
import os
import re
import sys

# --- the syscall table ---------------------------------------------------------------------

KIND = {"P": "path", "P2": "path2", "FD": "fd", "FD2": "fd2", "DFD": "dirfd",
        "IGN": "ignored", "COUNT": "count", "OFF": "offset", "LEN": "length"}
TRAIT = {"T0": None, "ENTRY": "read_at_entry"}


class Syscall:
    __slots__ = ("kinds", "traits")


def read_table(path):
    """{name: Syscall (arg kinds, traits)} from the SC (...) lines of common/fm-syscalls.c."""
    table = {}
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r'^\s*SC \((\w+), "\w+", ([\w| ]+), ([^)]*)\),', text, re.M):
        sc = Syscall()
        sc.traits = set()
        for tok in m.group(2).split("|"):
            tok = tok.strip()
            trait = TRAIT.get(tok, tok.replace("FM_TRAIT_", "").lower())
            if trait:
                sc.traits.add(trait)
        sc.kinds = []
        for tok in m.group(3).split(","):
            tok = tok.strip()
            sc.kinds.append(KIND.get(tok, tok.replace("FM_ARG_", "").lower()))
        table[m.group(1)] = sc
    if len(table) < 40:
        sys.exit(f"oracle-compare: {path}: found only {len(table)} syscalls in the table")
    return table


# --- strace's output -----------------------------------------------------------------------

KERNEL_ERRNO = {"ERESTARTSYS": 512, "ERESTARTNOINTR": 513, "ERESTARTNOHAND": 514,
                "ERESTART_RESTARTBLOCK": 516}
HEX_STRING = re.compile(r'"((?:\\x[0-9a-f]{2})*)"(\.\.\.)?')


def unhex(s):
    return bytes.fromhex(s.replace("\\x", ""))


def split_args(text):
    """Top-level comma-separated arguments of a strace call (brackets, braces, quotes and
    <fd paths> nest; -xx keeps every string free of delimiters)."""
    args, depth, cur, quoted = [], 0, [], False
    i = 0
    while i < len(text):
        c = text[i]
        if quoted:
            cur.append(c)
            if c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            cur.append(c)
        elif c in "[{(<":
            depth += 1
            cur.append(c)
        elif c in "]})>" and text[i - 1:i + 1] != "=>":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur or args:
        args.append("".join(cur).strip())
    return args


def find_close(text, start):
    """Index of the ')' closing the '(' at @start."""
    depth, quoted = 0, False
    for i in range(start, len(text)):
        c = text[i]
        if quoted:
            if c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "[{(<":
            depth += 1
        elif c in "]})>" and text[i - 1:i + 1] != "=>":   # "=>": clone3's results
            depth -= 1
            if depth == 0:
                return i
    return -1


def fd_token(tok):
    """'3<\\x2f...>' or 'AT_FDCWD<...>' -> (number or 'AT_FDCWD', path bytes or None).
    A deleted file's path gets " (deleted)", as /proc and filemon write it."""
    m = re.match(r'^(-?\d+|AT_FDCWD)(?:<(.*)>(\(deleted\))?)?$', tok)
    if not m:
        return tok, None
    path = m.group(2)
    if path is not None:
        path = unhex(path) if path.startswith("\\x") or path == "" else path.encode()
        if m.group(3):
            path += b" (deleted)"
    return m.group(1), path


class Call:
    __slots__ = ("tid", "name", "args", "result", "ret_path", "line")


def parse_strace(path):
    """Complete calls in the order strace printed them, unfinished/resumed pairs joined."""
    pending = {}
    calls = []
    for line in open(path, encoding="ascii", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(\d+) +(.*)$", line)
        if not m:
            continue
        tid, rest = int(m.group(1)), m.group(2)
        if rest.startswith(("+++", "---")):
            continue
        if rest.endswith("<unfinished ...>"):
            pending[tid] = rest[: -len("<unfinished ...>")].rstrip()
            continue
        # strace notices the thread's exec before the leader's end and says whose pid the
        # thread took: the call resumes under that pid
        changed = re.match(r"^(.*) <pid changed to (\d+) \.\.\.>$", rest)
        if changed:
            pending[int(changed.group(2))] = changed.group(1).rstrip()
            continue
        r = re.match(r"^<\.\.\. (\w+) resumed>(.*)$", rest)
        if r:
            start = pending.pop(tid, None)
            if start is None:
                # an execve from a thread other than the leader resumes under the leader's
                # pid, which the thread has taken: the call is the leader's now
                other = [t for t, text in pending.items() if text.startswith(r.group(1) + "(")]
                start = pending.pop(other[0]) if len(other) == 1 else r.group(1) + "("
            rest = start + r.group(2)
        n = re.match(r"^(\w+)\(", rest)
        if not n:
            continue
        close = find_close(rest, n.end() - 1)
        if close < 0:
            continue
        call = Call()
        call.tid = tid
        call.name = n.group(1)
        call.args = split_args(rest[n.end():close])
        call.line = line
        ret = rest[close + 1:].strip()
        rm = re.match(r"^= (0x[0-9a-f]+|-?\d+|\?)(?:<(.*)>)?(?: (E[A-Z0-9_]+) )?", ret)
        call.result = None
        call.ret_path = None
        if rm:
            if rm.group(3):
                name = rm.group(3)
                call.result = -(KERNEL_ERRNO.get(name) or getattr(errno, name))
            elif rm.group(1) != "?":
                call.result = number(rm.group(1))
            if rm.group(2):
                call.ret_path = unhex(rm.group(2))
        calls.append(call)
    return calls


# --- what filemon should show --------------------------------------------------------------

def tidy(path):
    """filemon's tidying of an absolute path: repeated slashes and '.' components go, a
    trailing slash stays (it changes what the call means)."""
    if not path.startswith(b"/"):
        return path
    trailing = path.endswith(b"/") and len(path) > 1
    parts = [p for p in path.split(b"/") if p not in (b"", b".")]
    out = b"/" + b"/".join(parts)
    if trailing and out != b"/":
        out += b"/"
    return out


PATH_MAX = 4096


def walked(base):
    """The base as the bpf program's walk holds it: PATH_MAX bytes, the deepest whole
    components first; and whether its start was lost."""
    if len(base) <= PATH_MAX:
        return base, False
    out = b""
    for part in reversed(base.split(b"/")[1:]):
        if len(out) + 1 + len(part) > PATH_MAX:
            break
        out = b"/" + part + out
    return out, True


def elide(path):
    """common/fm-path.c's one rule: a path too long, or whose start is lost, becomes "/..."
    and its longest run of whole last components that fits in PATH_MAX bytes."""
    room = PATH_MAX - 4
    at = path.find(b"/", max(len(path) - room, 0))
    return b"/..." + (path[at:] if at >= 0 else b"/" + path[-(room - 1):])


def cut(path, kind, notes, longer=False, base=None):
    """The path filemon shows for @path (@base + "/" + @path when @base is given).
    @longer: strace cut the string itself (it prints at most PATH_MAX - 1 bytes of a path
    and then "..."): the kernel refused it unread past PATH_MAX, and filemon shows what was
    read, then "...". Otherwise a path of more than PATH_MAX - 1 bytes (a name in a deep
    cwd) keeps its root and its name, the middle elided."""
    lost = False
    if base is not None:
        base, lost = walked(base)
        path = base + b"/" + path
    if longer:
        notes.append(kind + " truncated")
        return tidy(path[: PATH_MAX - 1])[: PATH_MAX - 3] + b"..."
    if len(path) > PATH_MAX - 1:
        # the program keeps the last PATH_MAX - 1 bytes
        path, lost = path[-(PATH_MAX - 1):], True
    if not lost:
        return tidy(path)
    notes.append(kind + " truncated")
    return tidy(elide(path))


def quote(data):
    """fm-syscalls-detail.c's field_string(): a quoted C-escaped string."""
    out = ['"']
    text = data.decode("utf-8", errors="surrogateescape")
    for ch in text:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:
            out.append("\\x%02x" % (o - 0xDC00))
        elif ch in '\\"':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F or 0x80 <= o < 0xA0 or is_bidi(o):
            for b in ch.encode():
                out.append("\\x%02x" % b)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def is_bidi(o):
    return o in (0x061C, 0x200E, 0x200F) or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069


FILE_TYPES = {0o140000: "S_IFSOCK", 0o120000: "S_IFLNK", 0o100000: "S_IFREG",
              0o60000: "S_IFBLK", 0o40000: "S_IFDIR", 0o20000: "S_IFCHR", 0o10000: "S_IFIFO"}


def mode_field(tok):
    """A mode as filemon writes it: "0644", or "S_IFREG|0644" when file type bits are set
    (strace writes chmod's 0100644 as a number, mknod's as S_IFREG|0644)."""
    if "|" in tok:
        return flag_set(tok)
    n = number(tok) or 0
    kind = FILE_TYPES.get(n & 0o170000)
    return flag_set("%s|%04o" % (kind, n & 0o7777)) if kind else "%04o" % n


def flag_set(tok):
    return frozenset(t for t in tok.split("|") if t)


def number(tok):
    if re.match(r"^-?0[0-7]+$", tok):
        return int(tok, 8)
    return int(tok, 0) if re.match(r"^-?(0x[0-9a-f]+|\d+)$", tok) else None


class Expected:
    def __init__(self):
        self.path = b""
        self.path2 = b""
        self.fields = []
        self.notes = []


# flags shown only when set; and flags or names always shown
SPARSE_FLAGS = ("at_flags", "access_at_flags", "rename_flags", "xattr_flags", "rwf_flags",
                "falloc_mode", "sync_range_flags", "splice_flags", "mount_flags", "umount_flags")
FLAGS = ("access_mode", "statx_mask", "whence", "flock_op", "mmap_prot", "mmap_flags",
         "inotify_mask", "fcntl_cmd")
# numbers shown as label=N
NUMBERS = {"count": "count", "size": "size", "length": "length", "offset": "offset",
           "iovcnt": "iovcnt", "watch": "wd"}


def expect(call, sc, cwd):
    """What filemon should record for @call, of the table's syscall @sc; None when filemon
    does not capture it (an anonymous mmap touches no file)."""
    e = Expected()
    args = call.args
    dirfd = ("AT_FDCWD", cwd)
    mode_shown = True
    at = 0          # strace's argument index: it shows preadv's two position halves as one
    for i, kind in enumerate(sc.kinds):
        if kind == "offset_high":
            continue
        tok = args[at] if at < len(args) else ""
        at += 1
        if kind == "dirfd":
            dirfd = fd_token(tok)
            if dirfd[0] != "AT_FDCWD":
                later = [k for k in sc.kinds[i + 1:] if k in ("path", "path2")]
                e.fields.append(("dirfd2" if later and later[0] == "path2" else "dirfd") + "=" + dirfd[0])
        elif kind in ("path", "path2"):
            m = HEX_STRING.match(tok)
            s = unhex(m.group(1)) if m else None
            base = dirfd[1]
            deleted = base is not None and base.endswith(b" (deleted)")
            if tok == "NULL" and "null_path_is_dirfd" in sc.traits and base is not None:
                value = base           # futimens: the dirfd's own file
            elif s is None:
                value = b""
                e.notes.append(kind + (" NULL" if tok == "NULL" else " unknown"))
            elif s.startswith(b"/"):
                value = cut(s, kind, e.notes, longer=bool(m.group(2)))
            elif s == b"" and "AT_EMPTY_PATH" in " ".join(args):
                value = base if base is not None else b""
            elif s == b"":
                value = b""
            elif base is None:
                value = s
                e.notes.append(kind + " unknown")
            else:
                if deleted:
                    base = base[: -len(b" (deleted)")]
                value = cut(s, kind, e.notes, longer=bool(m.group(2)), base=base)
                if deleted:
                    e.notes.append(kind + "'s directory deleted")
            if kind == "path":
                e.path = value
            else:
                e.path2 = value
            dirfd = ("AT_FDCWD", cwd)
        elif kind in ("fd", "fd2"):
            num, path = fd_token(tok)
            e.fields.append(("fd=" if kind == "fd" else "fd2=") + num)
            which = "path" if kind == "fd" else "path2"
            if path is None:
                e.notes.append(which + " unknown")
            elif kind == "fd":
                e.path = path
            else:
                e.path2 = path
        elif kind == "other_fd":
            e.fields.append("fd=" + fd_token(tok)[0])
        elif kind in ("symlink_target", "mount_source"):
            m = HEX_STRING.match(tok)
            e.path2 = unhex(m.group(1)) if m else b""
            if tok == "NULL":
                e.notes.append("path2 NULL")
        elif kind == "open_flags":
            flags = flag_set(tok)
            mode_shown = bool(flags & {"O_CREAT", "O_TMPFILE"})
            e.fields.append(flags)
        elif kind == "mode":
            if mode_shown:
                e.fields.append(mode_field(tok))
        elif kind in SPARSE_FLAGS:
            # AT_STATX_SYNC_AS_STAT is 0: strace names it, filemon does not
            flags = flag_set(tok) - {"AT_STATX_SYNC_AS_STAT", "0"}
            if flags:
                e.fields.append(flags)
        elif kind in FLAGS:
            if kind == "mmap_flags" and "MAP_ANONYMOUS" in tok:
                return None
            # an unknown value ("0x7 /* SEEK_??? */") is a number, as filemon shows it
            tok = re.sub(r"\s*/\*.*?\*/", "", tok)
            e.fields.append(flag_set(tok) if re.match(r"^[A-Z]", tok) else tok)
        elif kind in NUMBERS:
            n = number(tok)
            e.fields.append("%s=%s" % (NUMBERS[kind], tok if n is None else n))
        elif kind == "fcntl_arg":
            # as its command reads it: a struct flock, flags, a number, or nothing
            if tok.startswith("{"):
                e.fields.append(tok)
            elif tok:
                n = number(tok)
                e.fields.append(flag_set(tok) if n is None else str(n))
        elif kind in ("xattr_name", "fstype"):
            m = HEX_STRING.match(tok)
            if m and (m.group(1) or kind == "xattr_name"):
                e.fields.append(quote(unhex(m.group(1))))
        elif kind in ("uid", "gid"):
            e.fields.append(kind + "=" + tok)
        elif kind == "dev":
            m = re.match(r"makedev\((0x[0-9a-f]+|\d+), (0x[0-9a-f]+|\d+)\)", tok)
            if m and ("S_IFCHR" in args[at - 2] or "S_IFBLK" in args[at - 2]):
                e.fields.append("dev=%d:%d" % (int(m.group(1), 0), int(m.group(2), 0)))
        elif kind == "argv":
            items = [quote(unhex(x.group(1))) for x in HEX_STRING.finditer(tok)]
            e.fields.append("[" + ", ".join(items) + ("..." if tok.endswith("...]") else "") + "]")
        elif kind == "open_how":
            how = dict(kv.split("=", 1) for kv in split_args(tok.strip("{}")) if "=" in kv)
            if "flags" in how:
                flags = flag_set(how["flags"])
                e.fields.append(flags)
                if flags & {"O_CREAT", "O_TMPFILE"}:
                    e.fields.append("%04o" % (number(how.get("mode", "0")) or 0))
                if how.get("resolve", "0") != "0":
                    e.fields.append(flag_set(how["resolve"]))
    if call.result is not None and -516 <= call.result <= -512:
        e.notes.append("interrupted by a signal (restarted, or EINTR for the process)")
    return e


def filemon_fields(detail):
    """filemon's detail split into its fields; flag fields become sets of names."""
    out = []
    for f in split_args(detail) if detail else []:
        out.append(flag_set(f) if re.match(r"^[A-Z][A-Z0-9_]*(\|[A-Z0-9_x]+)*$", f) else f)
    return out


def show(v):
    if isinstance(v, frozenset):
        return "|".join(sorted(v))
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="backslashreplace")
    return str(v)


# --- the comparison ------------------------------------------------------------------------

class Limitations:
    def __init__(self, path):
        self.rules = []
        if not path:
            return
        ini = configparser.ConfigParser(interpolation=None)
        if not ini.read(path, encoding="utf-8"):
            sys.exit(f"oracle-compare: cannot read {path}")
        for name in ini.sections():
            sec = ini[name]
            if not sec.get("reason", "").strip():
                sys.exit(f"oracle-compare: {path}: [{name}] gives no reason")
            self.rules.append((name, re.compile(sec.get("syscall", ".*")),
                               re.compile(sec.get("field", ".*")),
                               re.compile(sec.get("filemon", ".*"), re.S),
                               re.compile(sec.get("strace", ".*"), re.S),
                               re.compile(sec.get("workload", ".*"))))

    def match(self, workload, syscall, field, got, want):
        for name, sc, fl, fm, st, wl in self.rules:
            if (sc.fullmatch(syscall) and fl.fullmatch(field) and fm.fullmatch(got)
                    and st.fullmatch(want) and wl.fullmatch(workload)):
                return name
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", required=True, help="common/fm-syscalls.c")
    ap.add_argument("--list-strace", action="store_true",
                    help="print the syscalls strace must trace, comma-separated, and exit")
    ap.add_argument("--strace")
    ap.add_argument("--filemon")
    ap.add_argument("--status", help="filemonctl status of the capture (drops are checked)")
    ap.add_argument("--limitations")
    ap.add_argument("--name", default="workload")
    ap.add_argument("--cwd", default="/", help="the workload's starting directory")
    ap.add_argument("--max-shown", type=int, default=40)
    opts = ap.parse_args()

    table = read_table(opts.table)
    if opts.list_strace:
        # strace 6.1 does not know fchmodat2 by name: 'all' and a filter here instead
        print("all")
        return 0

    limits = Limitations(opts.limitations)
    failures = []
    if opts.status:
        status = open(opts.status, encoding="utf-8").read()
        for key in ("Dropped", "Overwritten"):
            m = re.search(r"^%s:\s*(\d+)" % key, status, re.M)
            if m is None or m.group(1) != "0":
                failures.append(f"filemon lost events ({key}, or no such line):\n" + status)

    calls = parse_strace(opts.strace)
    tids = []
    parent = {}
    for c in calls:
        if c.tid not in tids:
            tids.append(c.tid)
        if c.name in ("clone", "clone3", "fork", "vfork") and c.result and c.result > 0:
            parent[c.result] = c.tid

    # cwd of each thread, followed through chdir, fchdir, AT_FDCWD<...> and clone
    cwd = {}
    expected = {t: [] for t in tids}
    for c in calls:
        here = cwd.get(c.tid)
        if here is None:
            here = cwd.get(parent.get(c.tid), opts.cwd.encode())
        for tok in c.args:
            if tok.startswith("AT_FDCWD<"):
                here = fd_token(tok)[1]
                break
        sc = table.get(c.name)
        if sc is not None:
            e = expect(c, sc, here)
            if e is not None:
                expected[c.tid].append((c, e))
        if c.result == 0 and sc is not None and "moves_cwd" in sc.traits:
            if sc.kinds[0] == "fd":
                p = fd_token(c.args[0])[1]
                if p:
                    here = p
            else:
                m = HEX_STRING.match(c.args[0])
                if m:
                    s = unhex(m.group(1))
                    here = os.path.normpath(s if s.startswith(b"/") else here + b"/" + s)
        cwd[c.tid] = here
        if c.name in ("clone", "clone3", "fork", "vfork") and c.result and c.result > 0:
            cwd.setdefault(c.result, here)

    events = {t: [] for t in tids}
    for line in open(opts.filemon, encoding="utf-8"):
        ev = json.loads(line)
        if ev["tid"] in events:
            events[ev["tid"]].append(ev)

    diffs = []     # (documented-by or None, text)
    compared = 0

    def differ(tid, c, field, got, want):
        got_s, want_s = show(got), show(want)
        name = c.name if c is not None else "?"
        rule = limits.match(opts.name, name, field, got_s, want_s)
        line = c.line if c is not None else ""
        diffs.append((rule, f"tid {tid} {name}: {field}: filemon {got_s!r}, strace {want_s!r}"
                            + (f"\n    strace: {line[:300]}" if line else "")))

    # The first thread is strace's child, whose calls before its execve (closing strace's
    # files) strace does not show: they are not the workload's.
    if tids:
        first = events[tids[0]]
        while first and first[0]["syscall"] != "execve":
            first.pop(0)

    for tid in tids:
        exp = expected[tid]
        evs = events[tid]
        a = [c.name for c, _ in exp]
        b = [ev["syscall"] for ev in evs]
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                for (c, e), ev in zip(exp[i1:i2], evs[j1:j2]):
                    compared += 1
                    got_fields = filemon_fields(ev["detail"])
                    want_fields = e.fields + e.notes
                    if c.result is not None and ev["result"] != c.result:
                        differ(tid, c, "result", ev["result"], c.result)
                    got_path = ev["path"].encode("utf-8", errors="surrogateescape")
                    got_path2 = ev["path2"].encode("utf-8", errors="surrogateescape")
                    if got_path != e.path:
                        differ(tid, c, "path", got_path, e.path)
                    if got_path2 != e.path2:
                        differ(tid, c, "path2", got_path2, e.path2)
                    if got_fields != want_fields:
                        differ(tid, c, "detail", ", ".join(map(show, got_fields)),
                               ", ".join(map(show, want_fields)))
                continue
            for c, e in exp[i1:i2]:
                differ(tid, c, "missing", "", c.name)
            for ev in evs[j1:j2]:
                rule = limits.match(opts.name, ev["syscall"], "extra", ev["syscall"], "")
                diffs.append((rule, f"tid {tid} {ev['syscall']}: extra: filemon has "
                                    f"{ev['syscall']}({ev['path']!r}) = {ev['result']}, strace nothing"))

    undocumented = [t for r, t in diffs if r is None]
    documented = {}
    for r, _ in diffs:
        if r is not None:
            documented[r] = documented.get(r, 0) + 1
    for f in failures:
        print("FAIL:", f)
    for t in undocumented[: opts.max_shown]:
        print("DIFF:", t)
    if len(undocumented) > opts.max_shown:
        print(f"... and {len(undocumented) - opts.max_shown} more")
    for name, n in sorted(documented.items()):
        print(f"documented: {name}: {n}")
    print(f"{opts.name}: {len(tids)} threads, {sum(len(v) for v in expected.values())} calls "
          f"in strace, {compared} compared, {len(diffs)} differ, {len(undocumented)} "
          f"undocumented")
    return 1 if undocumented or failures or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
