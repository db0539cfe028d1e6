# viewer-lib.sh: shell helpers for the viewer's Xvfb tests (sourced, not run):
# a private X server, the viewer started as a given user, screenshots, and pixel checks.
#
# A screenshot proves rows are on screen by counting pixels in the red the theme gives
# failed calls: the test captures contain failures, and nothing else in the window is
# that red (the status page and an empty list have none).

: "${FILEMON_BUILD_DIR:?FILEMON_BUILD_DIR must point at the meson build directory}"
VIEWER=$FILEMON_BUILD_DIR/client-gtk/filemon-viewer
CONVERT=/usr/bin/convert      # /usr/local/bin/convert may be a stand-in
IMPORT=/usr/bin/import

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# start_xvfb DIR: a private X server (no access control, so a viewer dropped to another
# user can connect); sets DISPLAY and XVFB_PID.
start_xvfb() {
  local dir=$1 i
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -ac 3>"$dir/display" 2>"$dir/xvfb.log" &
  XVFB_PID=$!
  for i in $(seq 100); do
    [ -s "$dir/display" ] && break
    sleep 0.05
  done
  [ -s "$dir/display" ] || fail "Xvfb did not start: $(cat "$dir/xvfb.log")"
  export DISPLAY=:$(cat "$dir/display")
}

# start_viewer DIR USER ARGS...: the viewer as USER (root or an unprivileged one) in its
# own session bus and process group; sets VIEWER_PID (the group), output in DIR/viewer.log.
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
    XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" \
    GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
    dbus-run-session -- "$VIEWER" "$@" >>"$dir/viewer.log" 2>&1 &
  VIEWER_PID=$!
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

# Pixels close to the red of failed calls (GTK's Adwaita error color, text antialiased).
red_pixels() {
  "$CONVERT" "$1" -alpha off -fuzz 18% -fill black +opaque '#c01c28' -fill white -opaque '#c01c28' \
    -format '%[fx:round(mean*w*h)]' info:
}

# wait_for_red DIR MIN TIMEOUT NAME: screenshots until at least MIN red pixels show, or fails.
wait_for_red() {
  local dir=$1 min=$2 timeout=$3 name=$4 start=$SECONDS count=0
  while [ $((SECONDS - start)) -lt "$timeout" ]; do
    viewer_alive || { cat "$dir/viewer.log" >&2; fail "the viewer exited"; }
    screenshot "$dir/$name.png"
    count=$(red_pixels "$dir/$name.png")
    [ "$count" -ge "$min" ] && { echo "$name: $count red pixels"; return 0; }
    sleep 0.5
  done
  cat "$dir/viewer.log" >&2
  fail "$name: no failed calls on screen after ${timeout}s ($count red pixels, wanted $min)"
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
viewer_key() {
  local win
  win=$(xdotool search --sync --onlyvisible --name 'File Activity' | head -n 1)
  [ -n "$win" ] || fail "no viewer window to type into"
  xdotool windowfocus --sync "$win" key --clearmodifiers "$@"
}

# park_pointer: out of the window, so no tooltip covers the rows in screenshots.
park_pointer() {
  xdotool mousemove 1279 799
}
