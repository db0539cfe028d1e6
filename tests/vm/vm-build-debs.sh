#!/bin/bash
# vm-build-debs.sh BUILDROOT SRCTAR DEBDIR: run by vm-image.sh in a private mount namespace.
# Builds filemon's Debian packages from SRCTAR with dpkg-buildpackage in a chroot of an
# overlay of BUILDROOT (a clean build chroot of the guest's suite, which stays untouched),
# fails on any lintian error or warning there (that release's lintian), and leaves in
# DEBDIR: the packages, lintian.txt, and prev/, the same filemon package labelled a lower
# version (VERSION~prev), which the guest upgrades from: this build's maintainer scripts on
# both sides of the upgrade, the only build at hand on a fresh machine.
set -euo pipefail
buildroot=$1 srctar=$2 debdir=$3

layer=$debdir/layer
rm -rf "$layer"
mkdir -p "$layer/upper" "$layer/work" "$layer/merged"
mount -t overlay overlay -o "lowerdir=$buildroot,upperdir=$layer/upper,workdir=$layer/work" "$layer/merged"
root=$layer/merged
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
# never rm -rf through a mount that is still there (the host's /dev is bound inside)
cleanup() {
  umount -R "$root" 2>/dev/null || true
  mountpoint -q "$root" || rm -rf "$layer"
}
trap cleanup EXIT

# dpkg-buildpackage writes its results next to the tree: the tree is one level down
mkdir -p "$root/tmp/build/src"
# the tar holds every file at time 0 (its hash is the source's): unpacked as new files, or
# the packages would hold files of 1970 (lintian: package-contains-ancient-file)
tar -C "$root/tmp/build/src" -xmf "$srctar"
# nocheck: the project's own suite is the test (debian/rules says why)
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root \
  DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" sh -ec '
    cd /tmp/build/src
    dpkg-buildpackage -us -uc -b >/tmp/build/build.log 2>&1 || { tail -n 40 /tmp/build/build.log; exit 1; }
    cd /tmp/build
    lintian --fail-on error,warning filemon_*.changes >lintian.txt 2>&1 || { cat lintian.txt; exit 1; }
    # the build chroot has only root; what lintian found is the rest
    sed -i "/^running with root privileges is not recommended!\$/d" lintian.txt
  ' || { echo "vm-build-debs: dpkg-buildpackage or lintian failed in the $(. "$root/etc/os-release"; echo "$VERSION_CODENAME") chroot" >&2; exit 1; }

cp "$root"/tmp/build/*.deb "$root/tmp/build/lintian.txt" "$debdir/"
deb=$(ls "$debdir"/filemon_*_amd64.deb)
version=$(dpkg-deb -f "$deb" Version)
mkdir "$debdir/prev" "$layer/prev"
dpkg-deb -R "$deb" "$layer/prev"
sed -i "s/^Version: .*/Version: $version~prev/" "$layer/prev/DEBIAN/control"
dpkg-deb -b "$layer/prev" "$debdir/prev/filemon_${version}~prev_amd64.deb" >/dev/null
echo "vm-build-debs: built $(cd "$debdir" && ls ./*.deb | tr '\n' ' ')and prev/filemon_${version}~prev; lintian: $(grep -c . "$debdir/lintian.txt") findings"
