#!/usr/bin/env python3
"""Prints the failed file syscalls filemond reports, as they happen.

    filemon-failures.py [--seconds N] [--errno NAME]

Subscribes to the Events signal (sent to this connection alone), prints one line per failed
call, and unsubscribes on exit. Needs the org.filemond.subscribe authorization (root, or a
member of the 'filemon' group with the example polkit rule).
"""
import argparse
import errno
import os
import sys

from gi.repository import Gio, GLib

BUS_NAME = "org.filemond.Filemond1"
OBJECT_PATH = "/org/filemond/Filemond1"
INTERFACE = "org.filemond.Filemond1"


def text(value):
    """comm, path and path2 are bytestrings (ay) ending in a NUL; names need not be UTF-8."""
    return bytes(value).rstrip(b"\0").decode("utf-8", "backslashreplace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    parser.add_argument("--errno", help="only this error, e.g. EACCES")
    args = parser.parse_args()
    wanted = getattr(errno, args.errno) if args.errno else None

    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM)
    loop = GLib.MainLoop()

    def on_events(connection, sender, path, interface, signal, params):
        (batch,) = params.unpack()
        for seq, time_ns, duration, pid, ppid, tid, uid, comm, syscall, result, path, path2, detail in batch:
            if result >= 0 or (wanted is not None and -result != wanted):
                continue
            name = errno.errorcode.get(-result, str(-result))
            print(f"{seq} {text(comm)}[{pid}] uid={uid} {syscall}({text(path)!r}) = -{name}",
                  flush=True)

    bus.signal_subscribe(BUS_NAME, INTERFACE, "Events", OBJECT_PATH, None,
                         Gio.DBusSignalFlags.NONE, on_events)
    bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, "Subscribe",
                  GLib.Variant("(a{sv})", ({},)), None,
                  Gio.DBusCallFlags.ALLOW_INTERACTIVE_AUTHORIZATION, -1, None)
    if args.seconds > 0:
        GLib.timeout_add(int(args.seconds * 1000), loop.quit)
    try:
        loop.run()
    except KeyboardInterrupt:
        pass
    bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, "Unsubscribe", None, None,
                  Gio.DBusCallFlags.NONE, -1, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
