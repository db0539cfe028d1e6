#!/bin/bash
# vm-stap-p4.sh PRINT-SCRIPT SRCDIR: SystemTap's passes 1-4 for every option set of the stap
# tier (tests/stap/test-stap-p4.sh), in a chroot of the trixie guest's package layer: the
# SystemTap, kernel, headers and debuginfo the stap scenario boots with.
set -euo pipefail
print_script=$1 srcdir=$2
p4=$srcdir/tests/stap/test-stap-p4.sh
if [ ! -x "$p4" ]; then
  echo "not ok 1 - $p4 is not in this tree: passes 1-4 against the guest's kernel cannot run"
  echo "1..1"
  exit 1
fi
rootfs=$("$(dirname "$0")/vm-image.sh" --rootfs trixie "$srcdir")
exec "$p4" "$print_script" "$rootfs"
