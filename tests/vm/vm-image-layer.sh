#!/bin/bash
# vm-image-layer.sh ROOTFS SRCTAR IMGDIR GUESTDIR: run by vm-image.sh in a private mount
# namespace. Builds and installs filemon from SRCTAR in a chroot of an overlay of ROOTFS (the
# package layer stays untouched), sets the guest up as an administrator would, and writes
# IMGDIR/root.img (ext4), vmlinuz, initrd.img and kernel-release.
set -euo pipefail
rootfs=$1 srctar=$2 imgdir=$3 guest=$4

layer=$imgdir/layer
rm -rf "$layer"
mkdir -p "$layer/upper" "$layer/work" "$layer/merged"
mount -t overlay overlay -o "lowerdir=$rootfs,upperdir=$layer/upper,workdir=$layer/work" "$layer/merged"
root=$layer/merged
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }

# filemon, exactly as its README installs it.
mkdir -p "$root/usr/src/filemon"
tar -C "$root/usr/src/filemon" -xf "$srctar"
in_root sh -ec '
  cd /usr/src/filemon
  meson setup /usr/src/filemon/_build --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
    -Dbpf=enabled -Dviewer=disabled >/dev/null
  meson compile -C _build >/dev/null
  meson install -C _build --no-rebuild >/dev/null
'

# The default capture's stap module built into filemond's cache for the image's kernel, as
# a package's postinst could: under TCG a Start that compiles takes many minutes.
# Only where the image has SystemTap: Debian 12's cannot build for its kernel, and its
# image goes without it (bookworm.packages).
# SystemTap's cache in the package layer, filled by vm-stap-p4-trixie (the tier's first
# test, tests/stap/test-stap-p4.sh) for this kernel, holds what every build for it shares:
# stapconf (the kernel's configuration probed through kbuild, most of a cold pass 4) and
# the type queries. With a copy of it the precompile's pass 4 took 21 s of CPU instead of
# 64 s (README.md, "Where the time goes"). The module itself is still compiled: stap's hash
# of it differs from that of p4's option set {} (not investigated; the script comes on
# stdin here, from a file there). The copy and the p4 cache itself leave the image
# afterwards (whiteouts in the overlay: the package layer keeps its cache): the guest
# loads the precompiled module with staprun.
kver=$(cd "$root/lib/modules" && ls | sort -V | tail -1)
if [ -x "$root/usr/bin/stap" ]; then
  start=$(date +%s)
  p4cache=$root/var/cache/filemon-stap-p4
  stapcache=$root/var/cache/filemond/systemtap/cache
  [ -d "$p4cache/cache" ] && mkdir -p "${stapcache%/*}" && cp -a "$p4cache/cache" "$stapcache"
  in_root /usr/libexec/filemond --precompile --kernel-release="$kver"
  rm -rf "$stapcache" "$p4cache"
  echo "vm-image-layer: stap module of the default capture precompiled for $kver in $(( $(date +%s) - start )) s"
fi

# A filemon group with an unprivileged member, and the shipped rule that lets the group in
# (README, "Install").
in_root groupadd --system filemon
in_root useradd --create-home --shell /bin/bash --groups filemon fmuser
in_root install -m 0644 /usr/share/doc/filemon/50-filemon.rules /etc/polkit-1/rules.d/

# The scenario runner: a oneshot unit after boot that runs the scenario the kernel command
# line names and powers off (guest/README in filemon-vm-scenario.service).
in_root cc -O2 -Wall -Wextra -Werror -o /usr/local/bin/fm-vm-workload \
  /usr/src/filemon/tests/vm/guest/fm-vm-workload.c
install -m 0755 "$guest/fm-vm-scenario.sh" "$root/usr/local/bin/fm-vm-scenario"
install -m 0644 "$guest/filemon-vm-scenario.service" "$root/etc/systemd/system/"
in_root systemctl enable filemon-vm-scenario.service
# Nothing else of the boot should compete for the two emulated CPUs or wait for a terminal.
# The root image is a snapshot (vm-run.sh), so every boot is the first after an update:
# ldconfig, the journal's catalog and systemd-update-done (ConditionNeedsUpdate) would run
# on each, 1-3 s of emulated CPU on an idle host (README.md, "Where the time goes"); the
# tree's linker cache is fresh already (dpkg's trigger), and nothing registers binfmts.
in_root systemctl mask serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
  apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer man-db.timer \
  dpkg-db-backup.timer ldconfig.service systemd-journal-catalog-update.service \
  systemd-update-done.service systemd-binfmt.service
in_root systemd-machine-id-setup >/dev/null
echo filemon-vm > "$root/etc/hostname"

umount "$root/tmp"
umount -R "$root/dev"
umount "$root/proc"

echo "$kver" > "$imgdir/kernel-release"
cp "$root/boot/vmlinuz-$kver" "$imgdir/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$imgdir/initrd.img"

# The image: the tree's size plus room for the scenarios' files and SystemTap's builds.
used_mb=$(du -sxm "$root" | cut -f1)
rm -f "$imgdir/root.img"
truncate -s "$(( used_mb + used_mb / 4 + 1536 ))M" "$imgdir/root.img"
mkfs.ext4 -q -L filemon-root -d "$root" "$imgdir/root.img"
umount "$root"
rm -rf "$layer"
