# Shared by the recovery benchmarks (sourced, not run): find one `./lazarus run`'s processes and follow its ranks'
# heartbeats. The caller sets $launched (the command's pid), $log (its output) and $np (the ranks); helpers read them.

descendants() { # PID -> every descendant's pid, one a line (one ps: cheap enough to poll)
  ps -e -o pid=,ppid= | awk -v root="$1" '{parent[$1] = $2} END {
    found[root] = 1
    do { more = 0; for (p in parent) if (!(p in found) && (parent[p] in found)) { found[p] = 1; print p; more = 1 } }
    while (more) }'
}

# A rank JVM, as dev.lazarus.mpi.launch.RankProcesses tells them: an Open MPI rank or MPJ's MulticoreStarter.
rank_jvms() {
  local pid cmd
  for pid in $(descendants "$1"); do
    [[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == */java ]] || continue
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
    if [[ "$cmd" == *MulticoreStarter* || ("$cmd" == *RankMain* && "$cmd" != *starter.jar*) ]]; then echo "$pid"; fi
  done
}

# status_dir: the running launch's status directory (dev.lazarus.mpi.launch.ExitStatusFiles), found in the
# environment of its launcher process; empty until the launch has one
status_dir() {
  local pid dir
  for pid in $(descendants "$launched"); do
    dir=$({ tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | sed -n 's/^LAZARUS_STATUS_DIR=//p') || true
    if [ -n "$dir" ]; then echo "$dir"; return; fi
  done
}

# heartbeat_field FILE OFFSET BYTES: an unsigned int (4) or long (8) at OFFSET in the newest complete copy of a
# heartbeat's page, 0 while there is none (dev.lazarus.mpi.launch.HeartbeatFile: two copies of 456 bytes written in
# turn, each with its sequence at 8; the newest has the higher even one). One od over the file: it is polled every
# 10 ms while the measured job runs.
heartbeat_field() {
  { od -An -v -t u4 -w4 "$1" 2>/dev/null || true; } | awk -v off="$2" -v n="$3" '{w[NR - 1] = $1}
    END {
      if (NR != 228) { print 0; exit }
      s0 = w[3] * 4294967296 + w[2]; s1 = w[117] * 4294967296 + w[116]
      i = (s1 % 2 == 0 && (s0 % 2 == 1 || s1 > s0) ? 114 : 0) + off / 4
      printf "%.0f\n", n == 8 ? w[i + 1] * 4294967296 + w[i] : w[i]
    }'
}

# heartbeat_int DIR OFFSET [RANK]: an int of a rank's heartbeat, rank 0's by default
# (24 the iteration begun, 32 the iterations); 0 while there is none
heartbeat_int() { heartbeat_field "$1/rank-${3:-0}.heartbeat" "$2" 4; }

# heartbeat_long DIR OFFSET [RANK]: a long of a rank's heartbeat (16 the last beat, epoch ms; 48 the set-up, 256 the
# restore, nanoseconds); 0 while there is none
heartbeat_long() { heartbeat_field "$1/rank-${3:-0}.heartbeat" "$2" 8; }

beats=""
at_iteration() { # waits until rank 0 begins iteration $1 of the launch, or the command ended
  until [ "$(heartbeat_int "$beats" 24)" -ge "$1" ] || ! kill -0 "$launched" 2>/dev/null; do sleep 0.01; done
}

iterations_of() { # finds the launch's status directory, waits for its main loop and prints its iteration count
  beats=""
  until [ -n "$beats" ] || ! kill -0 "$launched" 2>/dev/null; do beats=$(status_dir); sleep 0.05; done
  until [ "$(heartbeat_int "$beats" 32)" -gt 0 ] || ! kill -0 "$launched" 2>/dev/null; do sleep 0.05; done
  heartbeat_int "$beats" 32
}

finish() { # waits for the command; its status in $status
  status=0
  wait "$launched" || status=$?
  launched=""
}

verified() { [ "$status" = 0 ] && grep -q 'Verification *= *SUCCESSFUL' "$log"; }

# newest_complete VERSION_DIR...: the newest (last) of these version directories that holds every rank's manifest,
# or nothing
newest_complete() {
  local v newest=""
  for v in "$@"; do
    [ -d "$v" ] || continue
    [ "$(find "$v" -maxdepth 1 -name 'rank-*.manifest' | wc -l)" -ge "$np" ] && newest=$v
  done
  echo "$newest"
}

# parity_listed: whether every rank's heartbeat lists a version on L1 whose L2 parity its node has written (what the
# coordinator weighs after a node loss; HeartbeatFile: 268 the count of versions listed, 404 a parity bit for each)
parity_listed() {
  local r count bits
  for r in $(seq 0 $((np - 1))); do
    count=$(heartbeat_int "$beats" 268 "$r") bits=$(heartbeat_int "$beats" 404 "$r")
    [ $(( bits & ((1 << count) - 1) )) -ne 0 ] || return 1
  done
}
