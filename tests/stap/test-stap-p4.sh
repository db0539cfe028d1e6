#!/bin/bash
# test-stap-p4.sh PRINT-SCRIPT ROOTFS [CACHE]: every script of test-stap-p1.sh (each
# combination of Start options, tests/stap/option-sets.sh) goes through SystemTap's
# passes 1-4 against a real kernel: the kernel module filemond would load is built, with
# the very command line filemond uses (PRINT-SCRIPT --command). A script depends on the
# syscalls alone (the filters are module parameters): each distinct script is built once
# and its verdict is that of every option set that gives it.
#
# PRINT-SCRIPT  the build's tests/stap/fm-stap-print-script (runs here, on the host).
# ROOTFS        a root file system holding systemtap, a kernel's build tree
#               (/lib/modules/KVER/build, the linux-headers package) and its debuginfo
#               (the -dbg package), e.g. `mmdebstrap --variant=minbase
#               --include=systemtap,linux-image-cloud-amd64,linux-headers-cloud-amd64,
#               linux-image-cloud-amd64-dbg,gcc,make,kmod trixie ROOTFS`. stap runs inside
#               it (unshare --mount, chroot), with its own /proc, /sys and /dev mounted
#               privately: nothing is mounted on the host, nothing is written outside
#               ROOTFS. KVER is the one release in ROOTFS/lib/modules with a build tree,
#               or $FILEMON_STAP_KVER.
# CACHE         SystemTap's cache directory inside ROOTFS (SYSTEMTAP_DIR), kept between
#               runs; default /var/cache/filemon-stap-p4. A cold run compiles one module
#               per option set (tens of seconds each, natively); a script that built
#               before, with the same command in the same tree, is not built again (its
#               verdict is kept in CACHE/filemon-p4-built).
#
# Output is TAP; the exit status is 0 when every module was built. Needs root.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 PRINT-SCRIPT ROOTFS [CACHE]" >&2; exit 2; }
print_script=$1
rootfs=$(realpath "$2")
cache=${3:-/var/cache/filemon-stap-p4}

kver=${FILEMON_STAP_KVER:-}
if [ -z "$kver" ]; then
  for d in "$rootfs"/lib/modules/*/build; do
    [ -d "$d" ] || continue
    [ -z "$kver" ] || { echo "Bail out! several kernels in $rootfs: set FILEMON_STAP_KVER"; exit 1; }
    kver=$(basename "$(dirname "$d")")
  done
fi
[ -n "$kver" ] || { echo "Bail out! no kernel build tree in $rootfs/lib/modules"; exit 1; }
[ -x "$rootfs/usr/bin/stap" ] || { echo "Bail out! no stap in $rootfs"; exit 1; }

work=$(mktemp -d "$rootfs/var/tmp/filemon-p4.XXXXXX")
trap 'rm -rf "$work"' EXIT
inside=${work#"$rootfs"}

# the scripts, generated here; the list names each distinct script with the first options
# that give it, "sets" each option set with its script's number
n=0 scripts=0
declare -A script_of
generate() {
  local sum
  n=$((n + 1))
  "$print_script" "$1" > "$work/script"
  sum=$(sha256sum < "$work/script" | cut -c1-64)
  if [ -z "${script_of[$sum]:-}" ]; then
    scripts=$((scripts + 1))
    script_of[$sum]=$scripts
    mv "$work/script" "$work/$scripts.stp"
    printf '%s\t%s\n' "$scripts" "$1" >> "$work/list"
  fi
  printf '%s\t%s\n' "${script_of[$sum]}" "$1" >> "$work/sets"
}
. "$(dirname "$0")/option-sets.sh"
for_each_options generate
"$print_script" --command > "$work/command"

# inside ROOTFS: each script through stap -p4, two at a time (two cores are common and
# pass 4 is one gcc at a time); one TAP line per script, in order
cat > "$work/run.sh" <<'EOF'
#!/bin/bash
# run.sh DIR KVER [I]: builds script I, or all of them
set -u
dir=$1 kver=$2
if [ $# -eq 2 ]; then
  # the tree's identity for the verdicts below; none where there is no dpkg database
  dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' > "$dir/packages" 2>/dev/null \
    || rm -f "$dir/packages"
  # the first alone: it fills SystemTap's caches for the kernel (stapconf, the kernel's
  # configuration probed through kbuild: most of a cold run's first build, 769 s at load
  # 13), which two builds started together would both compute
  "$0" "$dir" "$kver" "$(head -1 "$dir/list" | cut -f1)"
  tail -n +2 "$dir/list" | cut -f1 | xargs -P 2 -I{} "$0" "$dir" "$kver" {}
  exit 0
fi
i=$3 start=$SECONDS
# A script that built before with the same command, kernel and tree (every package at the
# same version) builds again: that verdict is kept beside SystemTap's cache and read
# instead of running stap, whose own cache skips passes 3-4 but not passes 1-2 (tens of
# seconds a script on a loaded machine).
built=
if [ -s "$dir/packages" ]; then
  key=$({ cat "$dir/$i.stp" "$dir/command" "$dir/packages"; echo "$kver"; } | sha256sum | cut -c1-64)
  built=$SYSTEMTAP_DIR/filemon-p4-built/$key
fi
if [ -n "$built" ] && [ -e "$built" ]; then
  echo "ok 0 before" > "$dir/$i.result"
  exit 0
fi
mapfile -t command < "$dir/command"
# the command ends with "-" (the script on stdin): the script's file instead
if timeout 1800 stap -r "$kver" "${command[@]:0:${#command[@]}-1}" "$dir/$i.stp" \
     > "$dir/$i.out" 2>&1; then
  echo "ok $((SECONDS - start))" > "$dir/$i.result"
  [ -z "$built" ] || { mkdir -p "${built%/*}" && touch "$built"; }
else
  echo "not_ok $((SECONDS - start))" > "$dir/$i.result"
fi
EOF
chmod +x "$work/run.sh"
mkdir -p "$rootfs$cache"
start=$SECONDS
unshare --mount --propagation private -- bash -c '
  set -e
  r=$1; shift
  mount -t proc proc "$r/proc"
  mount -t sysfs sysfs "$r/sys"
  mount --rbind /dev "$r/dev"
  exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root SYSTEMTAP_DIR="$1" "$2/run.sh" "$2" "$3"
' - "$rootfs" "$cache" "$inside" "$kver"

failed=0 t=0
while IFS=$'\t' read -r i options; do
  t=$((t + 1))
  read -r verdict seconds before < <(cat "$work/$i.result" 2>/dev/null || echo "not_ok 0")
  if [ "$verdict" = ok ] && [ -n "$before" ]; then
    echo "ok $t - stap -p4 ($kver, script $i built before: same script, command and tree) options $options"
  elif [ "$verdict" = ok ]; then
    echo "ok $t - stap -p4 ($kver, script $i, ${seconds}s) options $options"
  else
    echo "not ok $t - stap -p4 ($kver, script $i) options $options"
    grep -v '^$' "$work/$i.out" 2>/dev/null | tail -20 | sed 's/^/# /'
    failed=$((failed + 1))
  fi
done < "$work/sets"
echo "# $scripts scripts for $n option sets in $((SECONDS - start))s"
echo "1..$n"
[ "$failed" = 0 ]
