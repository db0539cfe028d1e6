#!/bin/bash
# test-stap-p4.sh PRINT-SCRIPT ROOTFS [CACHE]: every script of test-stap-p1.sh (each
# combination of Start options, tests/stap/option-sets.sh) goes through SystemTap's
# passes 1-4 against a real kernel: the kernel module filemond would load is built, with
# the very command line filemond uses (PRINT-SCRIPT --command).
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
#               per option set (tens of seconds each, natively); a run with every module
#               cached takes a few seconds per set (passes 1-2 still run to find them).
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

# the scripts, generated here; the list names each with its options
n=0
generate() {
  n=$((n + 1))
  "$print_script" "$1" > "$work/$n.stp"
  printf '%s\t%s\n' "$n" "$1" >> "$work/list"
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
  cut -f1 "$dir/list" | xargs -P 2 -I{} "$0" "$dir" "$kver" {}
  exit 0
fi
i=$3 start=$SECONDS
mapfile -t command < "$dir/command"
# the command ends with "-" (the script on stdin): the script's file instead
if timeout 1800 stap -r "$kver" "${command[@]:0:${#command[@]}-1}" "$dir/$i.stp" \
     > "$dir/$i.out" 2>&1; then
  echo "ok $((SECONDS - start))" > "$dir/$i.result"
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

failed=0
while IFS=$'\t' read -r i options; do
  read -r verdict seconds < <(cat "$work/$i.result" 2>/dev/null || echo "not_ok 0")
  if [ "$verdict" = ok ]; then
    echo "ok $i - stap -p4 ($kver, ${seconds}s) options $options"
  else
    echo "not ok $i - stap -p4 ($kver) options $options"
    grep -v '^$' "$work/$i.out" 2>/dev/null | tail -20 | sed 's/^/# /'
    failed=$((failed + 1))
  fi
done < "$work/list"
echo "# $n scripts in $((SECONDS - start))s"
echo "1..$n"
[ "$failed" = 0 ]
