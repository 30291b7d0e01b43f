#!/bin/bash
# solve.sh FILE CPU SOLVER... : each solver of pyqbf's build on the QDIMACS FILE, niced, under
# a CPU limit of CPU seconds (prlimit; the kernel stops it: exit 137), one line per solver:
# exit code (10 true, 20 false), user and system CPU s and peak KB, wall s, 1-minute load.
bin=$(python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/cmeel.prefix/bin
f=$1; cpu=$2; shift 2
for s in "$@"; do
  case $s in
    depqbf) cmd="$bin/pyqbf_depqbf --qdo --no-dynamic-nenofex";;
    caqe) cmd="$bin/pyqbf_caqe --qdo";;
    *) cmd="$bin/pyqbf_$s";;
  esac
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o /tmp/solve.time.$$ nice -n 10 prlimit --cpu=$cpu --as=6000000000 $cmd $f > /dev/null 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "$(basename $f) $s rc=$rc cpu_user_sys_maxkb=$(tail -1 /tmp/solve.time.$$) wall=$(echo "$end - $start" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
done
