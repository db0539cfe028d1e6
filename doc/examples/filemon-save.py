#!/usr/bin/env python3
"""Saves filemond's buffered events to a file, passing the daemon a file descriptor.

    filemon-save.py FILE [--format jsonl|text|csv] [--since SEQ]

The daemon never opens a path a client names: this script opens FILE with its own rights,
hands the daemon the write end of a pipe over D-Bus (type 'h' plus a Gio.UnixFDList) and
copies what arrives into FILE while the call is pending. A pipe, not FILE itself: the
pages of FILE are then charged to this script's memory, not to filemond's (filemond
refuses a file kept in memory, such as one in a tmpfs /tmp, with InvalidArgs).
"""
import argparse
import os
import shutil
import sys
import threading

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

    options = {"since-seq": GLib.Variant("t", args.since)} if args.since else {}
    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM)
    out = open(args.file, "wb")
    read_end, write_end = os.pipe()
    fds = Gio.UnixFDList.new()
    index = fds.append(write_end)
    os.close(write_end)  # the list holds its own duplicate
    # the reply comes once everything is written: read while the call is pending
    copier = threading.Thread(target=shutil.copyfileobj, args=(os.fdopen(read_end, "rb"), out))
    copier.start()
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
    finally:
        for fd in fds.steal_fds():  # the daemon closed its copy: the copy sees the end
            os.close(fd)
        copier.join()
        out.close()
    (written,) = reply.unpack()
    print(f"{written} events written to {args.file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
