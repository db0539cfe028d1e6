#!/bin/bash
# test-viewer-install.sh: `meson install` (staged with --destdir) puts filemon-viewer, its
# desktop file and its icons where desktops look for them, and the installed desktop file
# names the installed icon and program.
#   test-viewer-install.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
: "${FILEMON_BUILD_DIR:?}"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

meson install -C "$FILEMON_BUILD_DIR" --destdir "$stage" --no-rebuild --quiet >"$stage.log" 2>&1 ||
  { cat "$stage.log"; rm -f "$stage.log"; fail "meson install failed"; }
rm -f "$stage.log"

prefix=$(meson introspect --buildoptions "$FILEMON_BUILD_DIR" |
  /usr/bin/python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root=$stage$prefix

for f in bin/filemon-viewer \
         share/applications/org.filemond.Viewer.desktop \
         share/icons/hicolor/scalable/apps/org.filemond.Viewer.svg \
         share/icons/hicolor/symbolic/apps/org.filemond.Viewer-symbolic.svg; do
  [ -f "$root/$f" ] || fail "$prefix/$f is not installed"
  echo "installed: $prefix/$f"
done
[ -x "$root/bin/filemon-viewer" ] || fail "filemon-viewer is not executable"
grep -qx 'Icon=org.filemond.Viewer' "$root/share/applications/org.filemond.Viewer.desktop" ||
  fail "the desktop file does not name the installed icon"
grep -q '^Exec=filemon-viewer' "$root/share/applications/org.filemond.Viewer.desktop" ||
  fail "the desktop file does not run filemon-viewer"
xmllint --noout "$root/share/icons/hicolor/scalable/apps/org.filemond.Viewer.svg" ||
  fail "the icon is not well-formed SVG"
xmllint --noout "$root/share/icons/hicolor/symbolic/apps/org.filemond.Viewer-symbolic.svg" ||
  fail "the symbolic icon is not well-formed SVG"
"$root/bin/filemon-viewer" --version | grep -q '^filemon-viewer ' || fail "filemon-viewer --version"
echo PASS
