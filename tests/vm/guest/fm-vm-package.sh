# fm-vm-package.sh: sourced by fm-vm-scenario. The package's life on a booted machine, the
# way an administrator lives it with apt: the image has the earlier package installed
# (filemon_VERSION~prev); the scenario upgrades it while a capture runs and fmuser watches,
# captures on the upgraded package, removes it during a capture, purges it, installs it on
# the purged machine and purges it again. Uses the scenario's step, fail, log, wait_until,
# user_prefix and idle.
debs=/root/filemon-debs
new_deb=$(ls "$debs"/filemon_*_amd64.deb)
new_version=$(dpkg-deb -f "$new_deb" Version)

# a command, not a function: step runs it under timeout
apt_get=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0)
unit_prop() { systemctl show -p "$2" --value "$1"; }
version_installed() { dpkg-query -W -f='${Version}' filemon 2>/dev/null; }
# SystemTap can build this kernel's module: the precompile unit's own conditions
stap_buildable() { [ -x /usr/bin/stap ] && [ -d "/lib/modules/$(uname -r)/build" ]; }
precompile_settled() {
  case $(unit_prop filemond-precompile ActiveState) in
    active | activating | deactivating | reloading) return 1 ;;
  esac
}
# filemond's BPF programs (fmd_enter, fmd_exit, fmd_fork, ...), among systemd's own
filemond_bpf_programs() { bpftool prog show | grep -c ' name fmd_' || true; }
stap_modules() { awk '$1 ~ /^stap_/ { print $1 }' /proc/modules; }
# a module build too: stap's make and compiler
capture_processes() { pgrep -x -l 'filemond|stap|staprun|stapio|make|gcc|cc1' || true; }

# precompile_ran: the precompile unit's last run, once settled, was what it must be here:
# skipped by its conditions where SystemTap cannot build (bookworm), else a success that
# left a module in filemond's cache
precompile_ran() {
  wait_until "$HANG" precompile_settled || fail "filemond-precompile still running after $HANG s"
  if stap_buildable; then
    [ "$(unit_prop filemond-precompile Result)" = success ] ||
      fail "filemond-precompile failed: $(journalctl -b -u filemond-precompile --no-pager | tail -20)"
    compgen -G '/var/cache/filemond/systemtap/precompiled/*/*.ko' >/dev/null ||
      fail "filemond-precompile succeeded but left no module in /var/cache/filemond"
  else
    [ "$(unit_prop filemond-precompile ConditionResult)" = no ] ||
      fail "filemond-precompile ran where SystemTap cannot build this kernel's module"
  fi
}
# built_already_count: how often this boot's precompile found the module built
built_already_count() { journalctl -b -u filemond-precompile -o cat | grep -c 'is built already' || true; }

# As the package installs it: nothing started at install, D-Bus activation instead
expect_installed_not_started() {
  [ "$(version_installed)" = "$1" ] || fail "filemon $(version_installed) installed, not $1"
  [ "$(systemctl is-enabled filemond)" = disabled ] ||
    fail "filemond.service is $(systemctl is-enabled filemond), the package leaves it disabled"
  [ "$(systemctl is-enabled filemond-precompile)" = enabled ] ||
    fail "filemond-precompile.service is $(systemctl is-enabled filemond-precompile), the package enables it"
  getent group filemon >/dev/null || fail "no filemon group"
}

# Nothing of a capture is left: no daemon, no stap, no module, no BPF program
expect_no_capture_left() {
  local left
  left=$(capture_processes)
  [ -z "$left" ] || fail "$1: processes left: $left"
  [ -z "$(stap_modules)" ] || fail "$1: SystemTap modules still loaded: $(stap_modules)"
  [ "$(filemond_bpf_programs)" = 0 ] || fail "$1: $(filemond_bpf_programs) of filemond's BPF programs still loaded"
}

# The files named for filemon, but the scenario's own and the administrator's rule file
# (README: they remove it themselves): filemon*, *filemond* (org.filemond.*), *-filemon*
# (50-filemon.rules), not GLib's gfilemonitor.h
filemon_files() {
  find / -xdev \( -name 'filemon*' -o -name '*filemond*' -o -name '*-filemon*' \) \
    ! -path "$debs" ! -path "$debs/*" ! -path /etc/polkit-1/rules.d/50-filemon.rules \
    ! -name filemon-vm-scenario.service 2>/dev/null
}

# A purged filemon leaves no file of its own
expect_purged() {
  local left
  [ -z "$(version_installed)" ] || fail "$1: dpkg still knows filemon: $(dpkg-query -W -f='${Status}' filemon)"
  [ ! -e /var/cache/filemond ] || fail "$1: /var/cache/filemond is still there"
  [ ! -e /etc/filemond ] || fail "$1: /etc/filemond is still there"
  getent group filemon >/dev/null || fail "$1: purge removed the filemon group (Debian leaves system groups)"
  left=$(filemon_files)
  [ -z "$left" ] || fail "$1: files of filemon left: $left"
  expect_no_capture_left "$1"
}

package_as_booted() {
  log "package: as the image installed it"
  expect_installed_not_started "$new_version~prev"
  [ "$(systemctl is-active filemond)" = inactive ] || fail "filemond runs although nothing asked for it"
  precompile_ran
  ! stap_buildable || [ "$(built_already_count)" -ge 1 ] ||
    fail "the boot's precompile built the module again instead of finding it"
}

# The upgrade restarts a running filemond: its capture ends with the old daemon (SIGTERM,
# status 0), fmuser's watch is told and exits with 4 (no daemon), the new daemon is idle
package_upgrade() {
  local old_pid watch_pid rc since
  log "package: upgrade to $new_version during a capture"
  step upgrade-start-service systemctl start filemond
  old_pid=$(unit_prop filemond MainPID)
  step upgrade-capture filemonctl start --backend=bpf
  user_prefix fmuser
  "${asu[@]}" filemonctl watch > "$res/upgrade-watch.out" 2> "$res/upgrade-watch.err" &
  watch_pid=$!
  # the capture takes every process: the scenario's own calls reach a live watch
  wait_until "$HANG" test -s "$res/upgrade-watch.out" ||
    fail "fmuser's watch printed no event: $(cat "$res/upgrade-watch.err")"
  since=$(date +%s)
  step upgrade-apt "${apt_get[@]}" install "$new_deb"
  timeout "$HANG" tail --pid="$watch_pid" -f /dev/null || fail "fmuser's watch still runs after the upgrade"
  wait "$watch_pid"
  rc=$?
  [ "$rc" = 4 ] && grep -q 'filemond closed the event stream' "$res/upgrade-watch.err" ||
    fail "fmuser's watch was not told (status $rc): $(cat "$res/upgrade-watch.err")"
  [ "$(version_installed)" = "$new_version" ] || fail "filemon $(version_installed) after the upgrade"
  [ "$(systemctl is-active filemond)" = active ] || fail "the upgrade did not restart filemond"
  [ "$(unit_prop filemond MainPID)" != "$old_pid" ] || fail "filemond still runs as $old_pid after the upgrade"
  journalctl -b "_PID=$old_pid" -o cat | grep -q 'shutting down: SIGTERM' ||
    fail "the old filemond did not shut down on SIGTERM: $(journalctl -b "_PID=$old_pid" -o cat | tail -5)"
  # what systemd says of the unit (not filemond's own messages)
  if journalctl -b _PID=1 UNIT=filemond.service --since "@$since" -o cat |
       grep -E 'code=killed|status=[1-9]|timed out|Failed with result|Killing'; then
    fail "the old filemond did not end cleanly"
  fi
  user_prefix root
  step upgrade-status filemonctl status
  grep -q '^State: *idle' "$res/upgrade-status.out" || fail "the new filemond is not idle after the upgrade"
  [ "$(filemond_bpf_programs)" = 0 ] || fail "the old capture's BPF programs outlived the upgrade"
  # restarted by the postinst: the module is there, nothing to build
  precompile_ran
  ! stap_buildable || [ "$(built_already_count)" -ge 2 ] || fail "the upgrade did not run filemond-precompile again"
  dpkg -L filemon > "$res/dpkg-L-filemon.txt"
  # the search a purge is checked with finds the installed package's files
  filemon_files > "$res/filemon-files-installed.txt"
  grep -qx /usr/libexec/filemond "$res/filemon-files-installed.txt" ||
    fail "the search for filemon's files does not find /usr/libexec/filemond"
}

# Remove during a capture, with the first backend of the boot
package_remove() {
  local b=$1
  log "package: removed during a $b capture"
  step remove-start-service systemctl start filemond
  step remove-capture filemonctl start --backend="$b"
  case $b in
    stap) [ -n "$(stap_modules)" ] || fail "no SystemTap module loaded during the stap capture" ;;
    bpf) [ "$(filemond_bpf_programs)" -gt 0 ] || fail "no BPF program of filemond loaded during the bpf capture" ;;
  esac
  step remove-apt "${apt_get[@]}" remove filemon
  expect_no_capture_left "after apt remove"
  [ "$(dpkg-query -W -f='${Status}' filemon)" = "deinstall ok config-files" ] ||
    fail "filemon is '$(dpkg-query -W -f='${Status}' filemon)' after apt remove"
  [ -e /etc/filemond/filemond.conf ] && [ -d /var/cache/filemond ] ||
    fail "apt remove took the configuration or the cache (only purge does)"
}

package_purge() {
  log "package: purged"
  step "purge-apt-$1" "${apt_get[@]}" purge filemon
  expect_purged "after apt purge ($1)"
}

# On the purged machine (the group, fmuser in it and the administrator's rule stay): a
# fresh install under systemd. The postinst starts the precompile unit, which builds the
# module in the background: apt does not wait for it. A whole build under TCG takes more
# than 10 minutes and its pass 2 alone nearly 5 (the image's precompile builds the boot's
# module natively), so the build is followed until stap's pass 1 is over: stap checks the
# kernel's build tree before it, which the unit's sandbox must let it read (with
# ProtectKernelModules=yes it could not: /lib/modules is hidden); then the purge stops it
# mid-build, and nothing of it may stay.
pass1_seen() { journalctl -b -u filemond-precompile -o cat | grep -q '^Pass 1: parsed user script'; }
precompile_past_pass1() {
  pass1_seen && return 0
  precompile_settled || return 1
  # it ended before we saw pass 1: read the journal once more, it may have come last
  pass1_seen || fail "filemond-precompile ended before stap's pass 1: $(journalctl -b -u filemond-precompile --no-pager | tail -20)"
}
package_fresh_install() {
  local t0
  log "package: installed on the purged machine"
  t0=$(uptime_s)
  step reinstall-apt "${apt_get[@]}" install "$new_deb"
  echo "reinstall_seconds=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }')" >> "$res/timings"
  expect_installed_not_started "$new_version"
  if stap_buildable; then
    [ "$(unit_prop filemond-precompile ActiveState)" = active ] ||
      fail "the postinst did not start filemond-precompile in the background: $(systemctl status filemond-precompile --no-pager | tail -5)"
    wait_until "$HANG" precompile_past_pass1 || fail "filemond-precompile not past pass 1 after $HANG s"
    echo "fresh_precompile_pass1_seconds=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }')" >> "$res/timings"
  else
    precompile_ran
  fi
  user_prefix fmuser
  step reinstall-activation "${asu[@]}" filemonctl status
  [ "$(systemctl is-active filemond)" = active ] || fail "fmuser's filemonctl status did not activate the installed filemond"
  user_prefix root
}
