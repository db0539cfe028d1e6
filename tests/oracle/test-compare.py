#!/usr/bin/env python3
"""test-compare.py ORACLE_DIR TABLE: oracle-compare.py on small recorded inputs. It must
pass an exact capture, fail on a planted difference of each kind (result, path, detail, a
missing call), and pass the same difference once a limitations file documents it."""
import json
import os
import subprocess
import sys
import tempfile

oracle_dir, table = sys.argv[1], sys.argv[2]


def hx(s):
    return "".join("\\x%02x" % b for b in s.encode())


STRACE = f"""100 execve("{hx('/bin/prog')}", ["{hx('prog')}", "{hx('a b')}"], 0x7ffd /* 3 vars */) = 0
100 openat(AT_FDCWD<{hx('/w')}>, "{hx('rel')}", O_RDONLY|O_CLOEXEC) = 3<{hx('/w/rel')}>
100 read(3<{hx('/w/rel')}>, "{hx('xy')}", 64) = 2
100 clone(child_stack=NULL, flags=SIGCHLD) = 101
101 newfstatat(AT_FDCWD<{hx('/w')}>, "{hx('missing')}", 0x7ffc, 0) = -1 ENOENT (No such file or directory)
100 mkdir("{hx('d/')}", 0755) = 0
100 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
100 sendfile(4<{hx('/w/out')}>, 3<{hx('/w/rel')}>, [0] => [2], 2) = 2
100 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3<{hx('/w/rel')}>, 0x1000) = 0x7f0000001000
102 execve("{hx('/bin/next')}", ["{hx('next')}"], 0x7ffd /* 0 vars */ <pid changed to 100 ...>
100 +++ superseded by execve in pid 102 +++
100 <... execve resumed>)             = 0
"""


def event(tid, syscall, result, path, detail, path2=""):
    return {"seq": 0, "time_ns": 0, "duration_ns": 0, "pid": tid, "ppid": 1, "tid": tid,
            "uid": 0, "comm": "prog", "syscall": syscall, "result": result, "errno": None,
            "path": path, "path2": path2, "detail": detail}


GOOD = [
    event(100, "close", 0, "/strace/out", "fd=5"),   # before the first execve: ignored
    event(100, "execve", 0, "/bin/prog", '["prog", "a b"]'),
    event(100, "openat", 3, "/w/rel", "O_CLOEXEC|O_RDONLY"),
    event(100, "read", 2, "/w/rel", "fd=3, count=64"),
    event(101, "newfstatat", -2, "/w/missing", ""),
    event(100, "mkdir", 0, "/w/d/", "0755"),
    # an anonymous mmap is neither captured nor expected; a file's is, its result in hex
    event(100, "sendfile", 2, "/w/rel", "fd2=4, fd=3, count=2", path2="/w/out"),
    event(100, "mmap", 0x7f0000001000, "/w/rel",
          "length=4096, PROT_READ, MAP_PRIVATE, fd=3, offset=4096"),
    # an execve from thread 102 ends under the leader's pid, as strace says it does
    event(100, "execve", 0, "/bin/next", '["next"]'),
]


def run(events, limitations=""):
    with tempfile.TemporaryDirectory() as tmp:
        st = os.path.join(tmp, "strace.txt")
        fm = os.path.join(tmp, "filemon.jsonl")
        lim = os.path.join(tmp, "limitations.ini")
        open(st, "w").write(STRACE)
        open(fm, "w").write("".join(json.dumps(e) + "\n" for e in events))
        open(lim, "w").write(limitations)
        p = subprocess.run([sys.executable, os.path.join(oracle_dir, "oracle-compare.py"),
                            "--table", table, "--strace", st, "--filemon", fm,
                            "--limitations", lim, "--cwd", "/w", "--name", "self"],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


failed = 0


def check(what, got, want, out):
    global failed
    if got != want:
        failed += 1
        print(f"FAIL {what}: exit {got}, wanted {want}\n{out}")
    else:
        print(f"ok {what}")


rc, out = run(GOOD)
check("exact capture passes", rc, 0, out)
check("exact capture counts 8 calls", "8 compared, 0 differ" in out, True, out)

for what, index, key, value in [("result", 4, "result", -13), ("path", 2, "path", "/w/other"),
                                ("detail", 2, "detail", "O_RDONLY"),
                                ("trailing slash", 5, "path", "/w/d"),
                                ("argv", 1, "detail", "prog a b"),
                                ("path2 of a second fd", 6, "path2", "/w/rel"),
                                ("mmap offset", 7, "detail",
                                 "length=4096, PROT_READ, MAP_PRIVATE, fd=3, offset=0"),
                                ("path of a thread's execve", 8, "path", "/bin/prog")]:
    bad = [dict(e) for e in GOOD]
    bad[index][key] = value
    rc, out = run(bad)
    check(f"planted {what} difference fails", rc, 1, out)

missing = [e for e in GOOD if e["syscall"] != "read"]
rc, out = run(missing)
check("a missing call fails", rc, 1, out)

rc, out = run(missing, "[read-missing]\nsyscall = read\nfield = missing\nreason = planted\n")
check("a documented difference passes", rc, 0, out)
rc, out = run(missing, "[read-missing]\nsyscall = read\nfield = missing\n")
check("a limitation without a reason is refused", rc != 0, True, out)
sys.exit(1 if failed else 0)
