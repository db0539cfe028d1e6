#!/bin/bash
# test-deb.sh: builds the Debian packages from a temporary copy of the tracked files
# (build-aux/build-deb.sh, which never writes into the source tree), fails on any lintian
# error or warning, and checks what the packages hold and do: the files of issue 34's list,
# the group's sysusers file run from postinst, the unit neither enabled nor started, the
# dependencies; then installs, removes and purges them in a throwaway overlay of /. Root. TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/filemon-deb-test.XXXXXX")
trap 'rm -rf "$out"' EXIT

TAP_PREFIX=/package/
. "$(dirname "$0")/../tap-check.sh"

start=$(date +%s)
"$top/build-aux/build-deb.sh" --lintian "$out" >"$out/build.log" 2>&1
rc=$?
# lintian's findings are at the end of the log; show them (and a failed build's last words)
tail -n 30 "$out/build.log" | sed 's/^/# /'
check "build-and-lintian-clean" '[ "$rc" -eq 0 ]'
echo "# built and checked in $(( $(date +%s) - start )) s"
[ "$rc" -eq 0 ] || { echo "1..$n"; exit 1; }

deb=$(ls "$out"/filemon_*.deb)
viewer=$(ls "$out"/filemon-viewer_*.deb)
files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
viewer_files=$(dpkg-deb -c "$viewer" | awk '{ print $6 }')
# bookworm keeps units in /lib, later releases in /usr/lib
check "filemon/has/the-unit" 'grep -qE "^\./(usr/)?lib/systemd/system/filemond\.service$" <<<"$files"'
check "filemon/has/the-precompile-unit" \
  'grep -qE "^\./(usr/)?lib/systemd/system/filemond-precompile\.service$" <<<"$files"'
for f in usr/libexec/filemond usr/bin/filemonctl \
         usr/share/dbus-1/system.d/org.filemond.Filemond1.conf \
         usr/share/dbus-1/system-services/org.filemond.Filemond1.service \
         usr/share/polkit-1/actions/org.filemond.policy usr/lib/sysusers.d/filemon.conf \
         usr/share/doc/filemon/examples/50-filemon.rules usr/share/filemon/filemond.conf \
         usr/share/man/man8/filemond.8.gz usr/share/man/man5/filemond.conf.5.gz \
         usr/share/man/man1/filemonctl.1.gz usr/share/bash-completion/completions/filemonctl; do
  check "filemon/has/$f" 'grep -qx "./$f" <<<"$files"'
done
check "filemon/rule-not-enabled" '! grep -q "etc/polkit-1" <<<"$files"'
for f in usr/bin/filemon-viewer usr/share/applications/org.filemond.Viewer.desktop \
         usr/share/icons/hicolor/scalable/apps/org.filemond.Viewer.svg \
         usr/share/man/man1/filemon-viewer.1.gz; do
  check "filemon-viewer/has/$f" 'grep -qx "./$f" <<<"$viewer_files"'
done

depends=$(dpkg-deb -f "$deb" Depends)
for d in dbus polkitd libbpf1; do
  check "filemon/depends/$d" 'grep -qE "(^|, )$d( |,|$)" <<<"$depends"'
done
check "filemon/suggests-systemtap" 'dpkg-deb -f "$deb" Suggests | grep -q systemtap'
check "filemon-viewer/depends-on-filemon" 'dpkg-deb -f "$viewer" Depends | grep -q "filemon (= "'

dpkg-deb -e "$deb" "$out/control"
check "postinst/creates-the-group" 'grep -q "systemd-sysusers.* filemon.conf" "$out/control/postinst"'
# dh_installsystemd --no-enable: the unit is enabled again only where it was before
check "postinst/leaves-the-unit-disabled" 'grep -q "debian-installed .filemond.service" "$out/control/postinst"'
check "postinst/does-not-start" '! grep -qE "deb-systemd-invoke (start|restart|[$]_dh_action) .filemond\.service" "$out/control/postinst"'
check "prerm/stops-on-remove" 'grep -q "deb-systemd-invoke stop filemond.service" "$out/control/prerm"'
# the module's build: enabled (each boot on a new kernel), started on install, restarted
# on upgrade, stopped on removal with a build in progress
check "postinst/enables-the-precompile" 'grep -q "deb-systemd-helper enable .filemond-precompile.service" "$out/control/postinst"'
check "postinst/starts-the-precompile" 'grep -q "deb-systemd-invoke [$]_dh_action .filemond-precompile.service" "$out/control/postinst"'
check "prerm/stops-the-precompile" 'grep -q "deb-systemd-invoke stop .filemond-precompile.service" "$out/control/prerm"'
check "postrm/purges-cache-and-config" 'grep -q "rm -rf .*/var/cache/filemond.*/etc/filemond" "$out/control/postrm"'

# installed for real, in a throwaway overlay of / (the host is not touched)
install_log=$(unshare --mount --propagation private "$top/tests/package/install-in-overlay.sh" \
  "$deb" "$viewer" 2>&1)
rc=$?
sed 's/^/# /' <<<"$install_log"
check "installs-creates-the-group-and-purges" '[ "$rc" -eq 0 ] && grep -q "removed and purged" <<<"$install_log"'

tap_end
