#!/bin/bash
# vm-run.sh IMAGE BACKENDS SRCDIR: one boot of the vm tier. Makes (or reuses) the guest
# image IMAGE (vm-image.sh), boots it under qemu (TCG: nested KVM fails on these machines)
# with systemd as PID 1 and filemon.backend=BACKENDS (comma-separated, run in that order) on
# its command line, so that the image's scenario unit runs guest/fm-vm-scenario.sh (the
# package upgraded, the captures, the package removed, purged, installed again) and powers
# off; then reads the results from the second disk and checks each capture against the
# workload (check-dump.py), and with both stap and bpf, the two backends against each other.
# A guest that does not power off within FILEMON_VM_TIMEOUT seconds is killed (default 3600,
# a bound only a hang reaches: on a loaded 2-core host a guest took 240 s to reach its
# scenario, its bpf program over 60 s to load, and a stap boot was still in its second
# capture after 900 s; the trixie boot makes four); any failure prints the guest's console
# log.
set -euo pipefail
image=$1 backends=$2 srcdir=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
guest_timeout=${FILEMON_VM_TIMEOUT:-3600}
storm=${FILEMON_VM_STORM:-20000}

for tool in qemu-system-x86_64 mmdebstrap mkfs.ext4; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (build-aux/debian-packages.txt)"; exit 1; }
done

t0=$(date +%s.%N)
imgdir=$("$here/vm-image.sh" "$image" "$srcdir")
t1=$(date +%s.%N)

work=$(mktemp -d --tmpdir filemon-vm.XXXXXX)
trap 'rm -f "$work/results.img"; [ -e "$work/keep" ] || rm -rf "$work"' EXIT
mkdir "$work/results"
truncate -s 256M "$work/results.img"

console() {
  echo "---- guest console ($work/console.log) ----"
  cat "$work/console.log" 2>/dev/null || echo "(none)"
  echo "---- end of guest console ----"
}
fail() {
  echo "FAIL: $*"
  touch "$work/keep"
  echo "the guest's results are kept in $work/results"
  console
  for f in "$work"/results/*.out "$work"/results/*.err "$work/results/scenario.log"; do
    [ -e "$f" ] && { echo "---- $(basename "$f") ----"; tail -40 "$f"; }
  done
  exit 1
}

# The root image stays pristine (snapshot=on: the guest's writes go to a temporary file);
# the results disk is written for real. One vCPU: with two, a guest kernel once died at
# boot on an int3 left behind by its own live patching (a static key flipped when the
# random pool became ready; "Oops: int3" in get_random_u16): TCG let the other vCPU run
# a stale translation. The kernel patches text again whenever stap or bpf attach probes.
set +e
timeout --signal=KILL "$guest_timeout" qemu-system-x86_64 \
  -accel tcg -smp 1 -m 3072 \
  -nodefaults -display none -no-reboot -nic none \
  -serial "file:$work/console.log" \
  -kernel "$imgdir/vmlinuz" -initrd "$imgdir/initrd.img" \
  -append "console=ttyS0 root=/dev/vda rw panic=-1 systemd.show_status=1 filemon.backend=$backends filemon.storm=$storm" \
  -drive "file=$imgdir/root.img,if=virtio,format=raw,snapshot=on" \
  -drive "file=$work/results.img,if=virtio,format=raw"
rc=$?
set -e
t2=$(date +%s.%N)
[ $rc = 137 ] && fail "the guest did not power off within $guest_timeout s: killed"
[ $rc = 0 ] || fail "qemu exited with status $rc"
tar -C "$work/results" -xf "$work/results.img" 2>/dev/null \
  || fail "the guest wrote no results on its second disk"
[ "$(cat "$work/results/rc" 2>/dev/null)" = 0 ] || fail "the scenario in the guest failed"

status=0
for expected in "$work"/results/expected-*.jsonl; do
  label=${expected##*/expected-}
  label=${label%.jsonl}
  echo "== $image: capture $label"
  python3 "$here/check-dump.py" "$expected" "$work/results/dump-$label.jsonl" \
    "$srcdir/common/fm-syscalls.c" "$work/results/status-stopped-$label.out" || status=1
done
if [ -e "$work/results/dump-root-stap.jsonl" ] && [ -e "$work/results/dump-root-bpf.jsonl" ]; then
  # the same workload in the same guest through both backends, field by field
  echo "== $image: stap (a) and bpf (b), the root workload compared"
  python3 "$here/compare-backends.py" "$here/backend-differences.ini" \
    "$work/results/expected-root-stap.jsonl" "$work/results/dump-root-stap.jsonl" \
    "$work/results/expected-root-bpf.jsonl" "$work/results/dump-root-bpf.jsonl" || status=1
fi
echo "== $image: the package, built and checked in a clean $image chroot"
echo "lintian --fail-on error,warning: $(grep -c . "$imgdir/lintian.txt") findings"
sed 's/^/  /' "$imgdir/lintian.txt"
echo "dpkg -L filemon, once upgraded in the guest: $(grep -c . "$work/results/dpkg-L-filemon.txt") paths"
sed 's/^/  /' "$work/results/dpkg-L-filemon.txt"
echo "files named for filemon while installed (none of them after each purge):" \
  "$(grep -c . "$work/results/filemon-files-installed.txt")"
echo "== timings"
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "image ready: %.1f s, guest from qemu start to power-off: %.1f s\n", b - a, c - b }'
cat "$work/results/timings"
head -12 "$work/results/boot.txt" 2>/dev/null
[ $status = 0 ] || fail "the captures do not match the workload"
echo "vm $image $backends: ok"
