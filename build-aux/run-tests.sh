#!/bin/sh
# The test command of README.md: installs the missing build dependencies, builds with warnings
# as errors and runs every test tier; then builds again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the unit and integration tiers (unit, stap, bus, cli,
# robustness) under them; then fuzzes every parser with libFuzzer (clang) for a bounded time.
# Extra arguments go to every `meson test` run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build-aux/install-deps.sh || exit 1

builddir=${FILEMON_BUILDDIR:-_build}
asandir=${builddir}-asan
fuzzdir=${builddir}-fuzz

if [ ! -f "$builddir/build.ninja" ]; then
  # The system prefix: the systemd tier installs this build into a throwaway overlay of /,
  # where the bus policy, polkit actions and unit must land where the system looks.
  meson setup "$builddir" --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
    -Dwerror=true -Dbpf=enabled -Dviewer=enabled || exit 1
fi
if [ ! -f "$asandir/build.ninja" ]; then
  meson setup "$asandir" -Dwerror=true -Dbpf=enabled -Dviewer=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false || exit 1
fi

# clang: also the compiler whose warnings gcc does not give (the bpf backend built too)
if [ ! -f "$fuzzdir/build.ninja" ]; then
  CC=clang meson setup "$fuzzdir" -Dwerror=true -Dbpf=enabled -Dviewer=disabled -Dfuzzing=true \
    -Db_sanitize=address,undefined -Db_lundef=false || exit 1
fi

status=0
meson compile -C "$builddir" || exit 1
meson test -C "$builddir" --print-errorlogs "$@" || status=1

meson compile -C "$asandir" || exit 1
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
G_SLICE=always-malloc G_DEBUG=gc-friendly \
  meson test -C "$asandir" --print-errorlogs --suite unit --suite stap --suite bus --suite cli --suite robustness "$@" || status=1

# libFuzzer: each target fuzzes for a bounded time (meson option fuzz_seconds).
meson compile -C "$fuzzdir" || exit 1
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C "$fuzzdir" --print-errorlogs --suite robustness "$@" || status=1

exit $status
