#!/bin/bash
# install-in-overlay.sh DEB...: run under `unshare --mount --propagation private`. Installs the
# packages with dpkg into an overlay of / on a tmpfs (the host's / is the read-only lower
# layer: nothing reaches it) and checks what the install did: the filemon group exists
# (postinst's systemd-sysusers), the daemon runs, the man pages are found; then removes and
# purges them: remove keeps the cache and configuration, purge takes them, the group stays.
# Prints one line per step; exits non-zero at the first failure.
set -euo pipefail
dir=$(mktemp -d "${TMPDIR:-/tmp}/filemon-deb-overlay.XXXXXX")
trap 'umount -R "$dir" 2>/dev/null; rmdir "$dir"' EXIT
mount -t tmpfs tmpfs "$dir"
mkdir "$dir/upper" "$dir/work" "$dir/root"
mount -t overlay overlay -o lowerdir=/,upperdir="$dir/upper",workdir="$dir/work" "$dir/root"
mount -t proc proc "$dir/root/proc"
mount --rbind /dev "$dir/root/dev"
mkdir -p "$dir/root/tmp/filemon-debs"
cp "$@" "$dir/root/tmp/filemon-debs/"

chroot "$dir/root" /bin/sh -eu <<'IN'
# a host where filemon was installed from source may have the group already
had_group=false
getent group filemon >/dev/null && had_group=true
DEBIAN_FRONTEND=noninteractive dpkg -i /tmp/filemon-debs/*.deb >/dev/null
getent group filemon >/dev/null || { echo "no filemon group after the install"; exit 1; }
if $had_group; then echo "installed (the filemon group was there before)"
else echo "installed: postinst created the filemon group"; fi
/usr/libexec/filemond --version
man -w filemond filemond.conf filemonctl filemon-viewer >/dev/null && echo "man pages found"
# what filemond and its administrator leave at run time: remove keeps it, purge does not
mkdir -p /var/cache/filemond/systemtap /etc/filemond
cp /usr/share/filemon/filemond.conf /etc/filemond/
dpkg -r filemon-viewer filemon >/dev/null
[ -e /etc/filemond/filemond.conf ] && [ -d /var/cache/filemond ] || { echo "remove took the configuration or the cache"; exit 1; }
dpkg -P filemon >/dev/null
[ ! -e /var/cache/filemond ] || { echo "purge left /var/cache/filemond"; exit 1; }
[ ! -e /etc/filemond ] || { echo "purge left /etc/filemond"; exit 1; }
getent group filemon >/dev/null || { echo "purge removed the filemon group"; exit 1; }
[ ! -e /usr/libexec/filemond ] && echo "removed and purged (cache and configuration with it; the group stays)"
IN
