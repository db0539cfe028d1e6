#!/bin/bash
# vm-image.sh NAME SRCDIR: makes the guest image NAME (a Debian suite with the packages of
# NAME.packages) with filemon's Debian package, built from the source tree in a clean
# chroot of that suite, installed inside it, and prints the directory that holds it:
# root.img (ext4), vmlinuz, initrd.img, kernel-release and lintian.txt (what lintian said
# of the packages).
# vm-image.sh --rootfs NAME SRCDIR: prints the root directory of NAME's package layer (for
# tools that want a chroot of the guest's distribution, e.g. SystemTap passes 1-4).
#
# Four layers, cached in $FILEMON_VM_CACHE (default /var/cache/filemon-tests/vm), outside
# the source tree, so that a clean clone reuses them:
#   NAME-pkgs-HASH/rootfs   mmdebstrap's tree of the guest; HASH covers the package list
#                           and this recipe, so a changed list or recipe builds a new one;
#   NAME-build-HASH/rootfs  a clean build chroot of the suite: build-essential, lintian and
#                           what debian/control's Build-Depends name (HASH covers it), so a
#                           build dependency missing from debian/control fails the build;
#   NAME-debs-HASH-SRC/     the packages dpkg-buildpackage made there from the source tree,
#                           lintian-clean (SRC is the hash of the source files);
#   NAME-img-HASH-SRC/      the guest tree with that package installed by apt, as an
#                           administrator installs it, then the ext4 image; any change of
#                           the tree redoes these two (~1-2 min each).
# Older versions of each layer are removed when a new one is made, unless used within the
# last hour (a reuse touches the layer): another checkout's run may be booting one. One
# builder at a time per image name (a lock in the cache).
set -euo pipefail

rootfs_only=false
if [ "${1:-}" = --rootfs ]; then
  rootfs_only=true
  shift
fi
name=$1
srcdir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cache=${FILEMON_VM_CACHE:-/var/cache/filemon-tests/vm}
mirror=${FILEMON_VM_MIRROR:-http://deb.debian.org/debian}

log() { echo "vm-image[$name]: $*" >&2; }

case $name in
  trixie | bookworm) suite=$name ;;
  *) echo "vm-image: unknown image '$name' (trixie, bookworm)" >&2; exit 2 ;;
esac

# The image's packages: its own list, plus filemon's build dependencies (the "# build"
# section of build-aux/debian-packages.txt) without GTK (the guests install no viewer).
# The guests build nothing: the -dev packages bring the libraries filemon's package
# depends on, so that apt installs it with no network (their names differ between
# releases: libglib2.0-0t64 on trixie), and bpftool, which the scenario asks what BPF
# programs are loaded.
packages() {
  grep -v '^\s*\(#\|$\)' "$here/$name.packages"
  sed -n '/^# build/,/^# /{/^#/d;p}' "$srcdir/build-aux/debian-packages.txt" | grep -v '^libgtk-4-dev$'
}

mkdir -p "$cache"
# remove_stale PATTERN KEEP: the cache entries PATTERN other than KEEP, unused for an hour
remove_stale() {
  find "$cache" -mindepth 1 -maxdepth 1 -name "$1" ! -path "$2" -mmin +60 -exec rm -rf {} +
}
exec 9> "$cache/.lock-$name"
flock 9

pkg_hash=$( { echo "$suite $mirror"; packages | sort -u; sed -n '/^# recipe:/,/^# end of recipe/p' "$0"; } \
  | sha256sum | cut -c1-16)
pkgdir=$cache/$name-pkgs-$pkg_hash

# A layer whose build was cut short (no done file) is made again from nothing: mmdebstrap
# refuses a target that is not empty.
[ -e "$pkgdir/done" ] || rm -rf "$pkgdir/rootfs"

# recipe: the package layer (everything up to "end of recipe" is part of its hash)
if [ ! -e "$pkgdir/done" ]; then
  log "building the package layer ($pkgdir)"
  start=$(date +%s)
  mkdir -p "$pkgdir"
  # minbase: only what the list asks for; no docs, man pages or locales (they are half of
  # a Debian tree and nothing here reads them). Without unsafe-io dpkg syncs every file: on
  # a machine whose disk other builds keep busy that made a bookworm tree take 28 min.
  # The kernel's -dbg package is 1.8 GB unpacked, 1.5 GB of it the modules' debuginfo:
  # filemon's scripts probe the kernel proper (vmlinux, 337 MB), so the modules' part is
  # left out of the tree and of every image made from it (vm-stap-p4-trixie builds every
  # option set's module without it).
  mmdebstrap --variant=minbase --mode=root --components=main \
    --include="$(packages | sort -u | paste -sd,)" \
    --aptopt='Acquire::Retries "3"' \
    --dpkgopt=force-unsafe-io \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/filemon/*' \
    --dpkgopt='path-exclude=/usr/lib/debug/lib/modules/*' \
    "$suite" "$pkgdir/rootfs" "$mirror" >&2
  touch "$pkgdir/done"
  log "package layer built in $(( $(date +%s) - start )) s"
fi
# end of recipe
touch "$pkgdir"
remove_stale "$name-pkgs-*" "$pkgdir"

if $rootfs_only; then
  echo "$pkgdir/rootfs"
  exit 0
fi

build_hash=$( { echo "$suite $mirror"; cat "$srcdir/debian/control"
                sed -n '/^# build recipe:/,/^# end of build recipe/p' "$0"; } | sha256sum | cut -c1-16)
builddir=$cache/$name-build-$build_hash
[ -e "$builddir/done" ] || rm -rf "$builddir/rootfs"

# build recipe: the build layer (everything up to "end of build recipe" is part of its hash)
if [ ! -e "$builddir/done" ]; then
  log "building the build layer ($builddir)"
  start=$(date +%s)
  mkdir -p "$builddir"
  # buildd: essential and build-essential; then what debian/control asks for, resolved by
  # apt as a buildd does (alternatives and versions: `systemd-dev | systemd (<< 253-2~)`)
  mmdebstrap --variant=buildd --mode=root --components=main \
    --include=lintian \
    --aptopt='Acquire::Retries "3"' \
    --dpkgopt=force-unsafe-io \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --customize-hook='mkdir -p "$1/tmp/fm-src/debian"' \
    --customize-hook="copy-in $srcdir/debian/control $srcdir/debian/changelog /tmp/fm-src/debian" \
    --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y /tmp/fm-src' \
    --customize-hook='rm -rf "$1/tmp/fm-src"' \
    "$suite" "$builddir/rootfs" "$mirror" >&2
  touch "$builddir/done"
  log "build layer built in $(( $(date +%s) - start )) s"
fi
# end of build recipe
touch "$builddir"
remove_stale "$name-build-*" "$builddir"

# The source tree as a user's checkout has it: tracked and new files, not build dirs.
srctar=$(mktemp --tmpdir filemon-vm-src.XXXXXX.tar)
trap 'rm -f "$srctar"' EXIT
if git -C "$srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$srcdir" ls-files -z --cached --others --exclude-standard \
    | (cd "$srcdir" && xargs -0 stat --printf='%n\0' 2>/dev/null || true) \
    | tar -C "$srcdir" --null -T - --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$srctar"
else
  tar -C "$srcdir" --exclude='./_build*' --exclude='./build' --sort=name --mtime=@0 --owner=0 \
    --group=0 --numeric-owner -cf "$srctar" .
fi
src_hash=$(sha256sum < "$srctar" | cut -c1-16)
debdir=$cache/$name-debs-$build_hash-$src_hash
imgdir=$cache/$name-img-$pkg_hash-$src_hash

remove_stale "$name-debs-*" "$debdir"
if [ ! -e "$debdir/done" ]; then
  log "building the packages ($debdir)"
  start=$(date +%s)
  rm -rf "$debdir"
  mkdir -p "$debdir"
  unshare --mount --propagation private "$here/vm-build-debs.sh" \
    "$builddir/rootfs" "$srctar" "$debdir" >&2
  touch "$debdir/done"
  log "packages built and checked in $(( $(date +%s) - start )) s"
fi
touch "$debdir"

remove_stale "$name-img-*" "$imgdir"
if [ ! -e "$imgdir/done" ]; then
  log "installing filemon's package into the image ($imgdir)"
  start=$(date +%s)
  mkdir -p "$imgdir"
  unshare --mount --propagation private "$here/vm-image-layer.sh" \
    "$pkgdir/rootfs" "$debdir" "$imgdir" "$here/guest" >&2
  touch "$imgdir/done"
  log "filemon layer and image made in $(( $(date +%s) - start )) s"
fi
touch "$imgdir"
echo "$imgdir"
