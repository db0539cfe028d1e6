#!/bin/sh
# build-deb.sh [--lintian] [OUTDIR]: builds the Debian packages filemon and filemon-viewer
# (debian/) from the files git tracks, in a temporary copy of them, so that nothing is
# written into the source tree; the .deb files (and .changes, .buildinfo) go to OUTDIR, the
# current directory by default. Installs the missing build dependencies first
# (build-aux/debian-packages.txt). --lintian: then runs lintian on the result and fails on
# any error or warning (the package test suite runs it so).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
run_lintian=false
if [ "${1:-}" = --lintian ]; then
  run_lintian=true
  shift
fi
out=$(mkdir -p "${1:-.}" && cd "${1:-.}" && pwd)

"$top/build-aux/install-deps.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/filemon-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# dpkg-buildpackage writes its results next to the tree: the tree is one level down.
mkdir "$work/src"
# the files git tracks, as they are in the work tree (uncommitted changes included; a new
# file counts once it is added); build directories and other untracked files stay behind
(cd "$top" && git ls-files -z --cached |
  xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
  xargs -0 cp -a --parents -t "$work/src")

# nocheck: the project's own suite is the test (debian/rules says why); -j: the machine's CPUs
(cd "$work/src" &&
  DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b)

changes=$(ls "$work"/filemon_*.changes)
if $run_lintian; then
  echo "lintian: $changes" >&2
  lintian --fail-on error,warning "$changes"
fi
cd "$work"
# the debug symbols too (filemon-dbgsym, filemon-viewer-dbgsym): the .changes lists them
cp ./*.deb filemon_*.changes filemon_*.buildinfo "$out/"
ls -l "$out"/filemon*_*.deb
