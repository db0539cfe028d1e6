#!/usr/bin/env python3
"""Saves filemond's buffered events to a file, passing the daemon a file descriptor.

    filemon-save.py FILE [--format jsonl|text|csv] [--since SEQ]

The daemon never opens a path a client names: this script opens FILE with its own rights and
hands the open descriptor over D-Bus (type 'h' plus a Gio.UnixFDList).
"""
import argparse
import os
import sys

from gi.repository import Gio, GLib

BUS_NAME = "org.filemond.Filemond1"
OBJECT_PATH = "/org/filemond/Filemond1"
INTERFACE = "org.filemond.Filemond1"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--format", default="jsonl", choices=("jsonl", "text", "csv"))
    parser.add_argument("--since", type=int, default=0, help="first sequence number")
    args = parser.parse_args()

    fd = os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    fds = Gio.UnixFDList.new()
    index = fds.append(fd)
    os.close(fd)  # the list holds its own duplicate

    options = {"since-seq": GLib.Variant("t", args.since)} if args.since else {}
    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM)
    try:
        reply, _ = bus.call_with_unix_fd_list_sync(
            BUS_NAME, OBJECT_PATH, INTERFACE, "Save",
            GLib.Variant("(hsa{sv})", (index, args.format, options)),
            GLib.VariantType("(t)"), Gio.DBusCallFlags.ALLOW_INTERACTIVE_AUTHORIZATION,
            -1, fds, None)
    except GLib.Error as e:
        print(f"filemon-save: {Gio.DBusError.get_remote_error(e) or ''} {e.message}",
              file=sys.stderr)
        return 1
    (written,) = reply.unpack()
    print(f"{written} events written to {args.file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
