#!/bin/bash
# workload.sh NAME DIR: one of the oracle tier's workloads, run in DIR (created). Each is a
# real program doing what it usually does, small enough that strace and the capture stay
# bounded (a few thousand calls).
set -euo pipefail
name=$1
dir=$2
here=$(cd "$(dirname "$(realpath "$0")")" && pwd)
mkdir -p "$dir"
cd "$dir"

tree() {
  mkdir -p src/a/b src/c
  for i in $(seq 20); do echo "file $i" > "src/a/f$i"; done
  echo data > src/a/b/deep
  ln -s ../a/f1 src/c/link
  chmod 0600 src/a/f2
}

case "$name" in
  pyimport)
    python3 -c 'import json, csv, email.mime.text, sqlite3, tarfile; open("out.json", "w").write(json.dumps([1]))'
    ;;
  git)
    export HOME=$dir GIT_CONFIG_NOSYSTEM=1
    git init -q repo
    cd repo
    git config user.email oracle@example.org
    git config user.name oracle
    echo one > one.txt
    mkdir sub
    echo two > sub/two.txt
    git add .
    git commit -q -m first
    echo more >> one.txt
    git status --short > /dev/null
    ;;
  tar)
    tree
    tar czf src.tar.gz src
    mkdir out
    tar xzf src.tar.gz -C out
    ;;
  cp)
    tree
    cp -a src copy
    ;;
  shloop)
    echo hello > in
    for _ in $(seq 200); do cat in > /dev/null; done
    ;;
  sqlite)
    sqlite3 db.sqlite 'create table t (a, b); insert into t values (1, "x"); insert into t values (2, "y");' \
      'select count(*) from t;' > /dev/null
    ;;
  scripts)
    # scripts run by the kernel's #! handling: an interpreter that is there, and one that
    # is not (execve says ENOENT on the script's own name)
    printf '#!/bin/sh\nexit 0\n' > present.sh
    printf '#!/nonexistent/interpreter -x\nexit 0\n' > missing.sh
    chmod 0755 present.sh missing.sh
    ./present.sh
    ./missing.sh 2> /dev/null || true
    ;;
  syscalls)
    # the C workload (built by meson; its path comes in $ORACLE_SYSCALLS)
    "${ORACLE_SYSCALLS:?}" "$dir/run"
    ;;
  *)
    echo "workload.sh: unknown workload $name" >&2
    exit 2
    ;;
esac
