#!/usr/bin/env python3
"""Prints the failed file syscalls filemond reports, as they happen.

    filemon-failures.py [--seconds N] [--errno NAME]

Subscribes to the Events signal (sent to this connection alone), prints one line per failed
call, and unsubscribes on exit. Says on stderr when the capture stops or starts
(CaptureChanged) and when events were missed (Dropped). Needs the org.filemond.subscribe
authorization (root, or a member of the 'filemon' group with the example polkit rule).

Any connection on the bus may send a signal named Events, Dropped or CaptureChanged to
this one: the handlers take a signal only when its sender is the unique name that owns
org.filemond.Filemond1 now, followed through NameOwnerChanged (bus_watch_name), so
forged ones are dropped.
"""
import argparse
import errno
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
    daemon = {"owner": None, "subscriptions": []}

    def from_daemon(sender):
        # The one check that matters: anybody can send us a signal with these names.
        return sender is not None and sender == daemon["owner"]

    def on_events(connection, sender, path, interface, signal, params):
        if not from_daemon(sender):
            return
        (batch,) = params.unpack()
        for seq, time_ns, duration, pid, ppid, tid, uid, comm, syscall, result, path, path2, detail in batch:
            if result >= 0 or (wanted is not None and -result != wanted):
                continue
            name = errno.errorcode.get(-result, str(-result))
            print(f"{seq} {text(comm)}[{pid}] uid={uid} {syscall}({text(path)!r}) = -{name}",
                  flush=True)

    def on_dropped(connection, sender, path, interface, signal, params):
        if not from_daemon(sender):
            return
        count, unsubscribed = params.unpack()
        print(f"filemon-failures: missed {count} events"
              + (" and was unsubscribed" if unsubscribed else ""), file=sys.stderr, flush=True)
        if unsubscribed:
            loop.quit()

    def on_capture_changed(connection, sender, path, interface, signal, params):
        if not from_daemon(sender):
            return
        running, next_seq = params.unpack()
        print(f"filemon-failures: capture {'started' if running else 'stopped'} "
              f"(next seq {next_seq})", file=sys.stderr, flush=True)

    def unsubscribe_signals():
        for sub in daemon["subscriptions"]:
            bus.signal_unsubscribe(sub)
        daemon["subscriptions"] = []

    def on_owner(connection, name, owner):
        # A new owner is a new daemon: match its unique name, and subscribe to it (a
        # subscription does not survive the daemon).
        unsubscribe_signals()
        daemon["owner"] = owner
        for signal, handler in (("Events", on_events), ("Dropped", on_dropped),
                                ("CaptureChanged", on_capture_changed)):
            daemon["subscriptions"].append(
                bus.signal_subscribe(owner, INTERFACE, signal, OBJECT_PATH, None,
                                     Gio.DBusSignalFlags.NONE, handler))
        try:
            bus.call_sync(owner, OBJECT_PATH, INTERFACE, "Subscribe",
                          GLib.Variant("(a{sv})", ({},)), None,
                          Gio.DBusCallFlags.ALLOW_INTERACTIVE_AUTHORIZATION, -1, None)
        except GLib.Error as e:
            print(f"filemon-failures: {e.message}", file=sys.stderr)
            daemon["failed"] = True
            loop.quit()

    def on_vanished(connection, name):
        if daemon["owner"] is not None:
            print("filemon-failures: filemond left the bus; waiting for it",
                  file=sys.stderr, flush=True)
        unsubscribe_signals()
        daemon["owner"] = None

    watch = Gio.bus_watch_name_on_connection(bus, BUS_NAME, Gio.BusNameWatcherFlags.NONE,
                                             on_owner, on_vanished)
    if args.seconds > 0:
        GLib.timeout_add(int(args.seconds * 1000), loop.quit)
    try:
        loop.run()
    except KeyboardInterrupt:
        pass
    Gio.bus_unwatch_name(watch)
    if daemon.get("failed"):
        return 1
    if daemon["owner"] is not None:
        bus.call_sync(daemon["owner"], OBJECT_PATH, INTERFACE, "Unsubscribe", None, None,
                      Gio.DBusCallFlags.NONE, -1, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
