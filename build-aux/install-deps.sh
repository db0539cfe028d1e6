#!/bin/sh
# Installs the Debian/Ubuntu packages of build-aux/debian-packages.txt that are missing.
set -eu
list="$(dirname "$0")/debian-packages.txt"

installed() {
  case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" in
    *"install ok installed"*) return 0 ;;
    *) return 1 ;;
  esac
}

missing=""
for pkg in $(grep -v '^#' "$list"); do
  installed "$pkg" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update

# Ubuntu ships bpftool in linux-tools-* rather than in a package of its own.
wanted=""
for pkg in $missing; do
  if [ "$pkg" = bpftool ] && ! apt-cache show bpftool >/dev/null 2>&1; then
    wanted="$wanted linux-tools-common linux-tools-generic"
  else
    wanted="$wanted $pkg"
  fi
done
echo "installing:$wanted" >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $wanted
