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
kver=$(cd "$root/lib/modules" && ls | sort -V | tail -1)
# The scenario's fmuser capture keeps the paths below these prefixes: its module too, built
# beside the first one (each build keeps one CPU busy).
mkdir -p "$root/usr/local/share/fm-vm"
install -m 0644 "$guest/user-capture.prefixes" "$root/usr/local/share/fm-vm/"
if [ -x "$root/usr/bin/stap" ]; then
  start=$(date +%s)
  user_options="{'path-prefixes': <[$(sed "s/.*/'&'/" "$guest/user-capture.prefixes" | paste -sd, -)]>}"
  in_root /usr/libexec/filemond --precompile --kernel-release="$kver" &
  default_pid=$!
  in_root /usr/libexec/filemond --precompile --kernel-release="$kver" --options="$user_options" &
  user_pid=$!
  rc=0
  wait "$default_pid" || rc=$?
  wait "$user_pid" || rc=$?
  [ $rc = 0 ] || { echo "vm-image-layer: a precompile failed" >&2; exit 1; }
  echo "vm-image-layer: stap modules of the default and the user capture precompiled for $kver in $(( $(date +%s) - start )) s"
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
in_root systemctl mask serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
  apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer man-db.timer \
  dpkg-db-backup.timer
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
