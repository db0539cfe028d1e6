#!/bin/sh
# The test command of README.md: installs what is missing, builds with warnings as errors
# (plus an ASan/UBSan build of the unit and robustness tiers) and runs every tier.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build-aux/install-deps.sh
builddir=${FILEMON_BUILDDIR:-_build}
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" -Dwerror=true -Dbpf=enabled -Dviewer=enabled
fi
meson compile -C "$builddir"
meson test -C "$builddir" --print-errorlogs "$@"
