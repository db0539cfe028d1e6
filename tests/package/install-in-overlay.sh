#!/bin/bash
# install-in-overlay.sh DEB...: run under `unshare --mount --propagation private`. Installs the
# packages with dpkg into an overlay of / on a tmpfs (the host's / is the read-only lower
# layer: nothing reaches it) and checks what the install did: the filemon group exists
# (postinst's systemd-sysusers), the daemon runs, the man pages are found; then removes and
# purges them. Prints one line per step; exits non-zero at the first failure.
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
dpkg -r filemon-viewer filemon >/dev/null
dpkg -P filemon >/dev/null
[ ! -e /usr/libexec/filemond ] && echo "removed and purged"
IN
