#!/bin/sh
# doc-current.sh: doc/dbus-api.md (committed, so it reads on the web) is what
# doc/dbus-doc.py makes of the interface XML today.
set -eu
generated=$1 committed=$2
if cmp -s "$generated" "$committed"; then
  echo "doc/dbus-api.md is current"
else
  echo "doc/dbus-api.md is stale: regenerate with" >&2
  echo "  python3 doc/dbus-doc.py dbus/org.filemond.Filemond1.xml doc/dbus-api.md" >&2
  diff -u "$committed" "$generated" | head -40 >&2
  exit 1
fi
