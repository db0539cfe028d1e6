#!/bin/sh
# filemond from the shell: the calls of doc/scripting.md, in order. Run as root or as a
# member of the 'filemon' group (with the example polkit rule).
set -eu
dest=org.filemond.Filemond1
path=/org/filemond/Filemond1
iface=org.filemond.Filemond1

# What can capture here, and what runs now.
busctl --system get-property $dest $path $iface AvailableBackends
busctl --system get-property $dest $path $iface State

# Start a capture of failed calls only (a{sv} with one entry: key, type, value).
busctl --system call $dest $path $iface Start 'a{sv}' 1 failed-only b true

# The same daemon through gdbus, with GVariant text syntax.
gdbus call --system --dest $dest --object-path $path --method org.freedesktop.DBus.Properties.Get \
  $iface EventCount

# Every property at once.
busctl --system introspect $dest $path $iface

# Stop; the buffered events stay readable.
gdbus call --system --dest $dest --object-path $path --method $iface.Stop
