#!/bin/bash
# vm-image-layer.sh ROOTFS DEBDIR IMGDIR GUESTDIR: run by vm-image.sh in a private mount
# namespace. Installs filemon's package from DEBDIR (vm-build-debs.sh) with apt in a chroot
# of an overlay of ROOTFS (the package layer stays untouched), sets the guest up as an
# administrator would, and writes IMGDIR/root.img (ext4), vmlinuz, initrd.img,
# kernel-release and lintian.txt (the packages' findings, for vm-run.sh to show).
set -euo pipefail
rootfs=$1 debdir=$2 imgdir=$3 guest=$4

layer=$imgdir/layer
rm -rf "$layer"
mkdir -p "$layer/upper" "$layer/work" "$layer/merged"
mount -t overlay overlay -o "lowerdir=$rootfs,upperdir=$layer/upper,workdir=$layer/work" "$layer/merged"
root=$layer/merged
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }

# The packages the guest's scenario upgrades to, removes, purges and installs again; the
# machine it boots has the earlier one (prev/) installed, the way README's Install section
# does it (apt in a chroot runs the maintainer scripts; those that talk to systemd find
# none and leave their work to the boot).
mkdir -p "$root/root/filemon-debs/prev"
cp "$debdir"/filemon_*_amd64.deb "$root/root/filemon-debs/"
cp "$debdir"/prev/filemon_*_amd64.deb "$root/root/filemon-debs/prev/"
prev=$(cd "$debdir/prev" && ls filemon_*_amd64.deb)
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/root/filemon-debs/prev/$prev" \
  > "$layer/apt.log" 2>&1 || { cat "$layer/apt.log" >&2; echo "vm-image-layer: apt could not install the package" >&2; exit 1; }
cp "$debdir/lintian.txt" "$imgdir/"

# The default capture's stap module built into filemond's cache for the image's kernel, as
# the package's filemond-precompile.service does at its first boot: under TCG that build
# takes many minutes (the guest's boot finds it done). Every capture of the scenario loads
# it: their filters are module parameters.
# Only where the image has SystemTap: Debian 12's cannot build for its kernel, and its
# image goes without it (bookworm.packages).
# SystemTap's cache lives in the package layer (/var/cache/filemon-stap-p4), shared with
# vm-stap-p4-trixie (the tier's first test, tests/stap/test-stap-p4.sh): stapconf (the
# kernel's configuration probed through kbuild, most of a cold pass 4), the type queries,
# and the modules themselves, keyed by SystemTap's hash of script, options, kernel and
# compiler. The builds below start from a copy of it and what they add goes back to it once
# the overlay is down, so that the next image of an unchanged script finds its module after
# passes 1-2 instead of compiling it (README.md, "Where the time goes"). Neither the copy nor
# the shared cache goes into the image (whiteouts in the overlay): the guest loads the
# precompiled module with staprun.
kver=$(cd "$root/lib/modules" && ls | sort -V | tail -1)
# The scenario's fmuser capture keeps the paths below these prefixes.
mkdir -p "$root/usr/local/share/fm-vm"
install -m 0644 "$guest/user-capture.prefixes" "$root/usr/local/share/fm-vm/"
if [ -x "$root/usr/bin/stap" ]; then
  start=$(date +%s)
  p4cache=$root/var/cache/filemon-stap-p4
  stapcache=$root/var/cache/filemond/systemtap/cache
  [ -d "$p4cache/cache" ] && mkdir -p "${stapcache%/*}" && cp -a "$p4cache/cache" "$stapcache"
  in_root /usr/libexec/filemond --precompile --kernel-release="$kver" \
    || { echo "vm-image-layer: the precompile failed" >&2; exit 1; }
  [ ! -d "$stapcache" ] || mv "$stapcache" "$layer/stapcache"
  rm -rf "$p4cache"
  echo "vm-image-layer: the stap module precompiled for $kver in $(( $(date +%s) - start )) s"
fi

# An unprivileged member of the package's filemon group, the shipped rule that lets the
# group in, and a configuration file of the administrator's (README, "Install"), which a
# purge takes with it.
in_root getent group filemon >/dev/null || { echo "vm-image-layer: the package made no filemon group" >&2; exit 1; }
in_root useradd --create-home --shell /bin/bash --groups filemon fmuser
in_root install -m 0644 /usr/share/doc/filemon/examples/50-filemon.rules /etc/polkit-1/rules.d/
in_root install -D -m 0644 /usr/share/filemon/filemond.conf /etc/filemond/filemond.conf

# The scenario runner: a oneshot unit after boot that runs the scenario the kernel command
# line names and powers off (guest/README in filemon-vm-scenario.service).
cp "$guest/fm-vm-workload.c" "$root/tmp/"
in_root cc -O2 -Wall -Wextra -Werror -o /usr/local/bin/fm-vm-workload /tmp/fm-vm-workload.c
install -m 0755 "$guest/fm-vm-scenario.sh" "$root/usr/local/bin/fm-vm-scenario"
install -D -m 0644 "$guest/fm-vm-package.sh" "$root/usr/local/lib/fm-vm/package.sh"
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
# the precompiles' additions to the shared SystemTap cache (no file of it replaced: a
# p4 run may have left newer ones)
if [ -d "$layer/stapcache" ]; then
  mkdir -p "$rootfs/var/cache/filemon-stap-p4/cache"
  cp -an "$layer/stapcache/." "$rootfs/var/cache/filemon-stap-p4/cache/"
fi
rm -rf "$layer"
