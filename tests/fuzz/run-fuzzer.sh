#!/bin/sh
# run-fuzzer.sh FUZZER CORPUS SECONDS: fuzzes for SECONDS from the seed corpus, writing new
# inputs to a scratch corpus (the committed one only changes by hand). A crash fails the
# test and leaves the input in the build dir to be added to CORPUS as a regression case.
set -eu
fuzzer=$1 corpus=$2 seconds=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$PWD/$(basename "$fuzzer")-" "$scratch" "$corpus"
