# viewer-lib.sh: shell helpers for the viewer's Xvfb tests (sourced, not run):
# a private X server, the viewer started as a given user, screenshots, and pixel checks.
#
# A screenshot proves rows are on screen by counting pixels in the red the theme gives
# failed calls, in the list area only: the header bar's Stop button is the same red (about
# 2000 pixels), so counting the whole screen passed with an empty list. The test captures
# contain failures; the status page and an empty list have no red. What the status bar
# says and how many rows the list holds come from the viewer's debug log
# (G_MESSAGES_DEBUG=filemon-viewer, which start_viewer sets).

: "${FILEMON_BUILD_DIR:?FILEMON_BUILD_DIR must point at the meson build directory}"
VIEWER=$FILEMON_BUILD_DIR/client-gtk/filemon-viewer
CONVERT=/usr/bin/convert      # /usr/local/bin/convert may be a stand-in
IMPORT=/usr/bin/import
VIEWER_G_DEBUG=fatal-criticals,fatal-warnings
# The rows, on the 1280x800 screen with the window at 0,0 (no window manager): below the
# column headers (y 123) and above the status bar (y 733), inside the window's border.
LIST_AREA=1268x606+6+124

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# start_xvfb DIR: a private X server (no access control, so a viewer dropped to another
# user can connect); sets DISPLAY and XVFB_PID. With -displayfd, Xvfb takes the first
# display whose abstract socket is free and writes no lock file: the abstract socket is
# what keeps two tests' servers apart (-nolisten local would let them share a display).
start_xvfb() {
  local dir=$1 i
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -ac 3>"$dir/display" 2>"$dir/xvfb.log" &
  XVFB_PID=$!
  # it writes the display once it accepts connections; only a hang takes 60 s
  for i in $(seq 1200); do
    [ -s "$dir/display" ] && break
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.05
  done
  [ -s "$dir/display" ] || fail "Xvfb did not start: $(cat "$dir/xvfb.log")"
  export DISPLAY=:$(cat "$dir/display")
}

# start_viewer DIR USER ARGS...: the viewer as USER (root or an unprivileged one) in its
# own session bus and process group; sets VIEWER_PID (the group), output in DIR/viewer.log.
# It draws with cairo unless VIEWER_GSK_RENDERER says otherwise ("" lets it choose).
# Any GLib critical or warning aborts it (G_DEBUG), so a test that logs one fails at
# the step that caused it, and not only when check_log_clean reads the log at the end.
start_viewer() {
  local dir=$1 user=$2 home
  shift 2
  home=$dir/home-$user
  mkdir -p "$home/runtime"
  chmod 700 "$home/runtime"
  local drop=()
  if [ "$user" != root ]; then
    chown -R "$user" "$home"
    drop=(setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups)
  fi
  setsid "${drop[@]}" env -u WAYLAND_DISPLAY HOME="$home" XDG_RUNTIME_DIR="$home/runtime" \
    XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" \
    GDK_BACKEND=x11 GSK_RENDERER="${VIEWER_GSK_RENDERER-cairo}" GTK_A11Y=none NO_AT_BRIDGE=1 G_MESSAGES_DEBUG=filemon-viewer \
    G_DEBUG="$VIEWER_G_DEBUG" \
    dbus-run-session -- "$VIEWER" "$@" >>"$dir/viewer.log" 2>&1 &
  VIEWER_PID=$!
}

# begin_file_test: for a test of the viewer without a daemon: a temp dir ($tmp, removed at
# exit along with the viewer and Xvfb), the screenshot directory ($out), and no system bus
# at all (the file view must not need one).
begin_file_test() {
  tmp=$(mktemp -d)
  out=$FILEMON_BUILD_DIR/tests/gui
  trap end_file_test EXIT
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$tmp/no-such-bus
}

# begin_bus_test: for a test run by tests/bus/with-bus.sh: a temp dir in the harness's
# ($tmp), the screenshot directory ($out), the viewer and Xvfb stopped at exit, the viewer's
# debug log on.
begin_bus_test() {
  tmp=$FILEMON_TEST_TMP/gui
  out=$FILEMON_BUILD_DIR/tests/gui
  mkdir -p -m 0755 "$tmp"
  trap end_bus_test EXIT
  export G_MESSAGES_DEBUG=filemon-viewer
}

end_bus_test() {
  stop_viewer
  stop_xvfb
}

# open_generated_capture N NAME: a capture of N test events in $tmp/capture.jsonl, open
# in the viewer under a new Xvfb, all rows taken in and drawn (screenshot $tmp/NAME.png).
open_generated_capture() {
  local n=$1 name=$2
  "$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" "$n" "$tmp/capture.jsonl" || fail "cannot make a capture"
  start_xvfb "$tmp"
  VIEWER_TITLE=capture.jsonl
  start_viewer "$tmp" root "$tmp/capture.jsonl"
  wait_for_log "$tmp" "list shows $n of $n events" 60
  park_pointer
  wait_for_window "$tmp" "$name" 60
}

# open_fixture NAME N: tests/gui/fixtures/NAME (a capture of N events) open in the viewer
# under a new Xvfb, all rows taken in and drawn (screenshot $tmp/main.png).
open_fixture() {
  local name=$1 n=$2
  cp "$FILEMON_SOURCE_DIR/tests/gui/fixtures/$name" "$tmp/$name"
  start_xvfb "$tmp"
  VIEWER_TITLE=$name
  start_viewer "$tmp" root "$tmp/$name"
  wait_for_log "$tmp" "list shows $n of $n events" 60
  park_pointer
  wait_for_window "$tmp" main 60
}

# KEEP_TMP=1 keeps $tmp (the viewer's log, screenshots) to look at after a failure.
end_file_test() {
  stop_viewer
  stop_xvfb
  [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}

stop_viewer() {
  [ -n "${VIEWER_PID:-}" ] || return 0
  kill -TERM -- "-$VIEWER_PID" 2>/dev/null
  wait "$VIEWER_PID" 2>/dev/null
  VIEWER_PID=
}

stop_xvfb() {
  [ -n "${XVFB_PID:-}" ] || return 0
  kill -TERM "$XVFB_PID" 2>/dev/null
  wait "$XVFB_PID" 2>/dev/null
  XVFB_PID=
}

viewer_alive() {
  kill -0 "$VIEWER_PID" 2>/dev/null
}

screenshot() {
  "$IMPORT" -window root "$1" 2>/dev/null
}

# Standard deviation of the image: 0 for a blank screen.
image_stddev() {
  "$CONVERT" "$1" -format '%[fx:standard_deviation]' info:
}

# colour_pixels PNG COLOUR [FUZZ]: pixels in the list area close to COLOUR.
colour_pixels() {
  "$CONVERT" "$1" -crop "$LIST_AREA" +repage -alpha off \
    -fuzz "${3:-18%}" -fill black +opaque "$2" -fill white -opaque "$2" \
    -format '%[fx:round(mean*w*h)]' info:
}

# Pixels in the list area close to the red of failed calls (GTK's Adwaita error color,
# text antialiased).
red_pixels() {
  colour_pixels "$1" '#c01c28'
}

# wait_for_red DIR MIN TIMEOUT NAME: screenshots until at least MIN red pixels show, or fails.
wait_for_red() {
  local dir=$1 min=$2 timeout=$3 name=$4 start=$SECONDS count=0
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || viewer_exited "$dir"
    screenshot "$dir/$name.png"
    count=$(red_pixels "$dir/$name.png")
    [ "$count" -ge "$min" ] && { echo "$name: $count red pixels"; return 0; }
    sleep 0.5
  done
  cat "$dir/viewer.log" >&2
  fail "$name: no failed calls on screen after ${timeout}s ($count red pixels, wanted $min)"
}

# wait_for_colour DIR COLOUR MIN MAX TIMEOUT NAME: screenshots until the list area has
# between MIN and MAX pixels of COLOUR (2% fuzz: a flat background), or fails.
wait_for_colour() {
  local dir=$1 colour=$2 min=$3 max=$4 timeout=$5 name=$6 start=$SECONDS count=0
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || viewer_exited "$dir"
    screenshot "$dir/$name.png"
    count=$(colour_pixels "$dir/$name.png" "$colour" 2%)
    [ "$count" -ge "$min" ] && [ "$count" -le "$max" ] && { echo "$name: $count pixels of $colour"; return 0; }
    sleep 0.5
  done
  fail "$name: $count pixels of $colour in the list after ${timeout}s, wanted $min to $max"
}

# viewer_exited DIR: fails with what the viewer and the X server said.
viewer_exited() {
  cat "$1/viewer.log" >&2
  if kill -0 "${XVFB_PID:-0}" 2>/dev/null; then
    echo "Xvfb ($DISPLAY) still runs" >&2
  else
    echo "Xvfb ($DISPLAY) is gone: $(cat "$1/xvfb.log")" >&2
  fi
  fail "the viewer exited"
}

# check_log_clean DIR: fails when the viewer logged a warning or a critical.
check_log_clean() {
  if grep -E 'CRITICAL|WARNING' "$1/viewer.log"; then
    fail "the viewer logged warnings"
  fi
}

# wait_for_log DIR PATTERN TIMEOUT: until the viewer's debug log has a line matching the
# grep PATTERN, or fails.
wait_for_log() {
  local dir=$1 pattern=$2 timeout=$3 start=$SECONDS
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || viewer_exited "$dir"
    grep -q -- "$pattern" "$dir/viewer.log" && return 0
    sleep 0.2
  done
  cat "$dir/viewer.log" >&2
  fail "the viewer's log has no '$pattern' after ${timeout}s"
}

# start_fixture_capture TIMES PROPERTY: filemond (with-bus.sh's fake stap) captures the
# failures fixture's 240 events TIMES over and then hangs as a live capture does; waits
# (bounded) until the daemon's PROPERTY (EventCount, BufferedCount) counts them all.
start_fixture_capture() {
  local times=$1 property=$2 want=$(($1 * 240)) start i
  for i in $(seq "$times"); do cat "$FILEMON_SOURCE_DIR/tests/gui/fixtures/failures.out"; done >"$tmp/fixture.out"
  cat > "$FILEMON_FAKE_STAP_ENV" <<ENV
export FILEMON_FAKE_STAP_FIXTURE=$tmp/fixture.out
export FILEMON_FAKE_STAP_AFTER=hang
ENV
  "$FILEMON_BUILD_DIR/client-cli/filemonctl" start >"$tmp/start.log" 2>&1 ||
    fail "filemonctl start: $(cat "$tmp/start.log")"
  start=$SECONDS
  until [ "$(daemon_property "$property")" = "uint64 $want" ]; do
    [ $((SECONDS - start)) -lt 120 ] || fail "filemond's $property is $(daemon_property "$property"), not $want"
    sleep 0.2
  done
}

# type_find TEXT: types TEXT into the open Find entry until the entry holds it. Under load
# the first keys xdotool sends to a just-focused entry are sometimes lost before GTK sees
# them (the entry had the keyboard; its text began at the second or third key): once the
# last key has arrived (the text ends with TEXT's last character, which must occur once),
# a wrong text is selected and typed again, at most 5 times.
type_find() {
  local text=$1 last=${1: -1} got i start
  [ "${text//[^$last]/}" = "$last" ] || fail "type_find: '$text' ends with a repeated character"
  for i in 1 2 3 4 5; do
    xdotool type --delay 10 "$text"
    start=$SECONDS
    while :; do
      viewer_alive || viewer_exited "$tmp"
      got=$(sed -n 's/.*find: text “\(.*\)”$/\1/p' "$tmp/viewer.log" | tail -n 1)
      [ "${got: -1}" = "$last" ] && break
      [ $((SECONDS - start)) -lt 60 ] || fail "the Find entry never got '$last' (it has '$got')"
      sleep 0.2
    done
    [ "$got" = "$text" ] && return 0
    echo "type_find: the entry got '$got' for '$text'; typing it again" >&2
    viewer_key ctrl+a
  done
  fail "the Find entry did not get '$text' in 5 tries"
}

# wait_for_line FILE LINE TIMEOUT: until FILE has the line LINE, or fails.
wait_for_line() {
  local file=$1 line=$2 timeout=$3 start=$SECONDS
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    grep -qxF -- "$line" "$file" 2>/dev/null && return 0
    sleep 0.2
  done
  fail "$file has no line '$line' after ${timeout}s"
}

# wait_for_log_count DIR PATTERN N TIMEOUT: until the viewer's debug log has N lines
# matching the grep PATTERN (the Nth time something happened), or fails.
wait_for_log_count() {
  local dir=$1 pattern=$2 n=$3 timeout=$4 start=$SECONDS
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || viewer_exited "$dir"
    [ "$(grep -c -- "$pattern" "$dir/viewer.log")" -ge "$n" ] && return 0
    sleep 0.2
  done
  cat "$dir/viewer.log" >&2
  fail "the viewer's log has fewer than $n '$pattern' after ${timeout}s"
}

# wait_for_window DIR NAME TIMEOUT: screenshots until the screen is not blank (the window
# is drawn), or fails; the last one is DIR/NAME.png.
wait_for_window() {
  local dir=$1 name=$2 timeout=$3 start=$SECONDS sd=0
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || viewer_exited "$dir"
    screenshot "$dir/$name.png"
    sd=$(image_stddev "$dir/$name.png")
    awk -v sd="$sd" 'BEGIN { exit !(sd > 0.02) }' && return 0
    sleep 0.2
  done
  fail "$name: the screen is still blank after ${timeout}s (standard deviation $sd)"
}

# wait_for_change DIR NAME TIMEOUT: screenshots until the screen differs from DIR/NAME.png
# (a menu opened, a page slid in), or fails; DIR/NAME.png is then the new screen.
wait_for_change() {
  local dir=$1 name=$2 timeout=$3 start=$SECONDS diff
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    screenshot "$dir/$name-new.png"
    diff=$(/usr/bin/compare -metric AE "$dir/$name.png" "$dir/$name-new.png" null: 2>&1)
    if [ "${diff%% *}" != 0 ]; then
      mv "$dir/$name-new.png" "$dir/$name.png"
      return 0
    fi
    sleep 0.2
  done
  fail "$name: the screen did not change in ${timeout}s"
}

# last_status DIR: the status bar's last text ("240 events", "Showing 3 of 240 events").
last_status() {
  sed -n 's/.*filemon-viewer-DEBUG: [0-9:.]*: status bar: //p' "$1/viewer.log" | tail -n 1
}

# wait_for_status DIR TEXT TIMEOUT: until the status bar says TEXT, or fails.
wait_for_status() {
  local dir=$1 want=$2 timeout=$3 start=$SECONDS
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    [ "$(last_status "$dir")" = "$want" ] && return 0
    sleep 0.2
  done
  cat "$dir/viewer.log" >&2
  fail "the status bar says '$(last_status "$dir")', not '$want', after ${timeout}s"
}

# check_list_shows DIR N: the list holds N rows of N (no filter hides any), and the status
# bar never claimed that a filter hid rows.
check_list_shows() {
  local dir=$1 n=$2 last
  last=$(sed -n 's/.*filemon-viewer-DEBUG: [0-9:.]*: list shows //p' "$dir/viewer.log" | tail -n 1)
  [ "$last" = "$n of $n events" ] || fail "the list shows ${last:-nothing}, not $n of $n events"
  if grep 'status bar: Showing' "$dir/viewer.log"; then
    fail "the status bar said rows were filtered out, with no filter"
  fi
}

# check_not_blank PNG
check_not_blank() {
  local sd
  sd=$(image_stddev "$1")
  echo "$(basename "$1"): standard deviation $sd"
  awk -v sd="$sd" 'BEGIN { exit !(sd > 0.02) }' || fail "$1 is blank (standard deviation $sd)"
}

# --- with the bus harness (tests/bus/with-bus.sh) -----------------------------------------

# daemon_property NAME: a property of filemond, asked as root ("'running'", "uint64 12").
daemon_property() {
  gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
    --method org.freedesktop.DBus.Properties.Get org.filemond.Filemond1 "$1" 2>/dev/null |
    sed -e 's/^(<\(.*\)>,)$/\1/'
}

# start_fixture_daemon DIR: filemond on the harness's bus (with-bus.sh --no-daemon), its
# fake stap replaying the failures fixture and then hanging, output in DIR/filemond.log;
# sets daemon_pid and returns once filemond owns its name.
start_fixture_daemon() {
  FILEMON_FAKE_STAP_FIXTURE=$FILEMON_SOURCE_DIR/tests/gui/fixtures/failures.out \
  FILEMON_FAKE_STAP_AFTER=hang \
    setpriv --pdeathsig TERM -- "$FILEMON_BUILD_DIR/daemon/filemond" --config="$FILEMOND_CONFIG" \
    >>"$1/filemond.log" 2>&1 &
  daemon_pid=$!
  gdbus wait --system --timeout 20 org.filemond.Filemond1 || { cat "$1/filemond.log"; fail "filemond did not start"; }
}

# start_capture: filemond's Start, until it runs.
start_capture() {
  gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
    --method org.filemond.Filemond1.Start '{}' >/dev/null || fail "Start failed"
  wait_state running 60
}

# wait_state STATE TIMEOUT: until filemond's State is STATE.
wait_state() {
  local want=$1 timeout=$2 start=$SECONDS state=
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    state=$(daemon_property State)
    [ "$state" = "'$want'" ] && return 0
    sleep 0.2
  done
  fail "filemond's State is $state, not '$want', after ${timeout}s"
}

# viewer_key KEYS: a key press into the viewer's window (no window manager: focus it first).
# The window is found by its title: VIEWER_TITLE, "filemon Viewer" for a live window (a
# window showing a capture file is titled with the file's name).
viewer_key() {
  local win
  win=$(xdotool search --sync --onlyvisible --name "${VIEWER_TITLE:-filemon Viewer}" | head -n 1)
  [ -n "$win" ] || fail "no viewer window to type into"
  xdotool windowfocus --sync "$win" key --clearmodifiers "$@"
}

# click_until X Y PATTERN TIMEOUT: clicks at (X, Y) until the viewer's debug log has a
# line matching PATTERN, or fails: a window that has just been filled may not have laid
# out the row under the pointer yet, so a click that finds nothing there is made again.
click_until() {
  local x=$1 y=$2 pattern=$3 timeout=$4 start=$SECONDS i
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    xdotool mousemove "$x" "$y" click 1
    for i in $(seq 10); do
      viewer_alive || viewer_exited "$tmp"
      grep -q -- "$pattern" "$tmp/viewer.log" && return 0
      sleep 0.2
    done
  done
  cat "$tmp/viewer.log" >&2
  fail "clicking at $x,$y did not bring '$pattern' in ${timeout}s"
}

# park_pointer: out of the window, so no tooltip covers the rows in screenshots.
park_pointer() {
  xdotool mousemove 1279 799
}

# save_through_chooser KEYS TITLE PATH: opens a save dialog with KEYS (ctrl+s: Save All
# Events; shift+ctrl+s: Save the Events Shown), types PATH into its name and saves.
save_through_chooser() {
  local keys=$1 title=$2 path=$3 win
  viewer_key "$keys"
  win=$(timeout 60 xdotool search --sync --onlyvisible --name "$title" | head -n 1)
  [ -n "$win" ] || fail "no '$title' dialog"
  xdotool windowfocus --sync "$win" key --clearmodifiers ctrl+a
  xdotool type --delay 10 "$path"
  xdotool key --clearmodifiers Return
}
