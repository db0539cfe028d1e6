#!/usr/bin/python3
# fake-file-manager.py LOG: a stand-in for the desktop's file manager on the session bus,
# started by D-Bus activation in the viewer's tests: owns org.freedesktop.FileManager1
# and writes each URI its ShowItems method is given to LOG, one a line.
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.FileManager1">
    <method name="ShowItems">
      <arg type="as" name="uris" direction="in"/>
      <arg type="s" name="startup_id" direction="in"/>
    </method>
  </interface>
</node>
"""


def on_call(connection, sender, path, interface, method, params, invocation):
    uris, _startup_id = params.unpack()
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        for uri in uris:
            log.write(uri + "\n")
    invocation.return_value(None)


def on_bus(connection, name):
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    connection.register_object("/org/freedesktop/FileManager1", info, on_call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.FileManager1", Gio.BusNameOwnerFlags.NONE,
                 on_bus, None, lambda *args: sys.exit(1))
GLib.MainLoop().run()
