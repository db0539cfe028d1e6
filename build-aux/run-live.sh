#!/bin/sh
# The first command of README.md: installs what is missing, builds and installs filemon, starts
# filemond and shows live file activity.
#
# With systemd as PID 1 and a running system bus, filemond runs as the systemd service
# (`systemctl start filemond`) and keeps running after this script ends. Without them (a
# container, a minimal VM), the script starts a system bus, lets polkitd be activated on it and
# starts filemond itself; all three stop when the script ends.
#
#   build-aux/run-live.sh [FILTER]      (FILTER as in filemonctl(1), e.g. 'failed')
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

build-aux/install-deps.sh
builddir=_build-live
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
    --buildtype=release -Dbpf=enabled -Dtests=false
fi
meson compile -C "$builddir"
$SUDO meson install --no-rebuild --quiet -C "$builddir"

libexecdir=$(meson introspect "$builddir" --buildoptions |
  python3 -c 'import json,sys; o={x["name"]:x["value"] for x in json.load(sys.stdin)}; print(o["prefix"]+"/"+o["libexecdir"])')
bus_socket=/run/dbus/system_bus_socket
started=""
own_bus=false

cleanup() {
  for pid in $started; do $SUDO kill "$pid" 2>/dev/null || true; done
  # dbus-daemon leaves its socket behind when it is killed
  if $own_bus; then
    $SUDO rm -f "$bus_socket"
    echo "stopped the system bus this script started: open viewers keep their events" \
         "(save them there) and connect again when a system bus runs"
  fi
}

# a bus answers there: a socket alone may be left by one that is gone
bus_alive() {
  [ -S "$bus_socket" ] &&
    busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId >/dev/null 2>&1
}

if [ -d /run/systemd/system ] && [ -S "$bus_socket" ]; then
  $SUDO systemctl daemon-reload
  # the bus reads the new policy file only when told to
  $SUDO busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
  $SUDO systemctl start filemond
  echo "filemond runs as a systemd service: systemctl status filemond; journalctl -u filemond"
  echo "It keeps running after this command; stop it with: sudo systemctl stop filemond"
else
  # HUP too: a closed terminal must not leave the bus and filemond behind
  trap cleanup EXIT INT TERM HUP
  if bus_alive; then
    $SUDO busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
  else
    $SUDO mkdir -p /run/dbus
    $SUDO rm -f "$bus_socket"
    pidfile=$(mktemp)
    $SUDO dbus-daemon --system --fork --nopidfile --print-pid=1 > "$pidfile"
    started="$started $(cat "$pidfile")"
    own_bus=true
    rm -f "$pidfile"
    echo "started a system bus at $bus_socket (no system bus was running); Ctrl-C stops it too," \
         "and viewers then keep their events until they connect to the next one"
  fi
  $SUDO "$libexecdir/filemond" &
  started="$started $!"
  for _ in $(seq 50); do
    busctl --system status org.filemond.Filemond1 >/dev/null 2>&1 && break
    sleep 0.1
  done
  echo "filemond runs in the foreground of this script (pid $!); it stops when you press Ctrl-C"
fi

# an already running capture is fine: filemonctl says so and the view joins it
$SUDO filemonctl start || true
filemonctl status
echo "Watching every file syscall; failures in red. From another terminal:"
echo "  filemonctl watch 'errno=EACCES'   filemonctl dump --format=jsonl   filemon-viewer"
echo "Ctrl-C ends this view; 'sudo filemonctl stop' ends the capture."
filemonctl watch "$@" || true
