# bench-lib.sh: helpers of the scripts that run inside tests/bus/with-bus.sh (sourced).

calc() { /usr/bin/python3 -c "print($1)"; }
# The value of KEY in a file of key=value lines.
kv() { sed -n "s/^$1=//p" "$2"; }

# A property of filemond, bare (no GVariant decoration).
prop() {
  gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
    --method org.freedesktop.DBus.Properties.Get org.filemond.Filemond1 "$1" |
    sed -e 's/^(<\(uint64 \)\?//' -e 's/>,)$//' -e "s/'//g"
}

# Waits until the daemon has taken in what the kernel had (EventCount stops growing),
# 30 s at most.
wait_drained() {
  local before after i
  before=$(prop EventCount)
  for ((i = 0; i < 120; i++)); do
    sleep 0.25
    after=$(prop EventCount)
    [ $((after - before)) -lt 200 ] && return 0
    before=$after
  done
}
