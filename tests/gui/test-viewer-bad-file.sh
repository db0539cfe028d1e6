#!/bin/bash
# test-viewer-bad-file.sh: under Xvfb, a file that gives no events shows a page saying
# why, naming the file, in words a person understands: empty, a folder, unreadable with
# the user's rights, a raw event stream of another format version, a binary file, and
# text that is no capture (the line and byte offset where reading failed). A capture cut
# short in its last event lists the events before it and says what was lost, and where.
# The viewer runs as an unprivileged user, so that "permission denied" is real; each file
# opens in a window of its own, as the command line asks.
#   test-viewer-bad-file.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
chmod 755 "$tmp"
d=$tmp/files
mkdir -m 755 "$d"

: >"$d/empty.jsonl"
mkdir "$d/folder.jsonl"
"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 50 "$d/secret.jsonl" || fail "cannot make a capture"
chmod 600 "$d/secret.jsonl"
printf 'FMSTREAM\002\000\000\000\020\000\000\000' >"$d/stream-v2.bin"
head -c 4096 "$FILEMON_BUILD_DIR/client-gtk/filemon-viewer" >"$d/program.bin"
printf 'Shopping list\nmilk\n' >"$d/notes.txt"
"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 50 "$d/full.jsonl" || fail "cannot make a capture"
size=$(stat -c %s "$d/full.jsonl")
head -c $((size - 40)) "$d/full.jsonl" >"$d/cut.jsonl"
last_line=$(tail -n 1 "$d/full.jsonl" | wc -c)
chmod 644 "$d"/*.jsonl "$d"/*.bin "$d"/*.txt
chmod 600 "$d/secret.jsonl"

start_xvfb "$tmp"
start_viewer "$tmp" nobody "$d/empty.jsonl" "$d/folder.jsonl" "$d/secret.jsonl" "$d/stream-v2.bin" \
  "$d/program.bin" "$d/cut.jsonl" "$d/notes.txt"

# page_says NAME TEXT: the page of NAME's window gives TEXT (a grep pattern) as the reason.
page_says() {
  wait_for_log "$tmp" "status page: Cannot Open “$1”: “$d/$1” $2" 60
}
page_says empty.jsonl 'is empty (0 bytes): it holds no events'
page_says folder.jsonl 'is a folder, not a capture file'
page_says secret.jsonl 'cannot be read with your rights (permission denied)'
page_says stream-v2.bin 'is a raw filemon event stream of format version 2, which this viewer does not know'
page_says program.bin 'is not a text file, so it is not a filemon capture'
page_says notes.txt 'is not a filemon capture: none of its 2 lines is an event in JSON Lines format. The first fails at line 1 (byte offset 0), column 1: '

# the cut one: its 49 whole events, and what was lost said with the line and offset
wait_for_log "$tmp" "partial load: One line of “cut.jsonl” could not be read and is left out: line 50, the last: the file ends in the middle of an event, at byte offset $((size - 40))" 60
wait_for_log "$tmp" 'list shows 49 of 49 events' 60
grep -q "status page: Cannot Open “cut.jsonl”" "$tmp/viewer.log" && fail "the cut capture got a page instead of its events"
[ "$last_line" -gt 40 ] || fail "the fixture's last line is too short to cut"

# The last window opened is on top (no window manager): notes.txt's page.
park_pointer
wait_for_window "$tmp" bad-file 60
cp "$tmp/bad-file.png" "$out/viewer-bad-file.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
