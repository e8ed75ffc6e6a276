#!/usr/bin/env bash
# The nightly job under a real Slurm scheduler on this one machine (ctest label `slurm`):
#   - installs Debian's slurmctld, slurmd, slurm-client and munge where missing;
#   - starts a private munged (as the munge user, its own key and socket), slurmctld and slurmd
#     with a one-node slurm.conf under a temporary folder (SLURM_CONF), on free local ports;
#   - runs a "previous night" of the sweep directly, then submits scripts/nightly.sbatch as
#     `sbatch --array=0-3` (kbench run --shard $SLURM_ARRAY_TASK_ID/4 on the host plugins, one CSV),
#     cancels task 1 mid-way (scancel) and requeues it (scontrol requeue: --resume completes it);
#   - checks that the merged CSV holds exactly the unsharded plan, each case once, and runs the
#     regression gate (kbench compare) against the previous night;
#   - stops its daemons. Exit 77 (ctest: skipped), with one line saying why, when no scheduler can
#     be started here.
#
# Usage: slurm_test.sh KBENCH_EXE SOURCE_DIR   (KBENCH_SLURM_KEEP=1 keeps the folder)
set -euo pipefail
kbench=$(realpath "$1")  # the tasks start in another folder
source_dir=$(realpath "$2")

skip() { echo "SKIP: the Slurm test cannot run here: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "slurmd and munged must be started as root"
work=$(mktemp -d /tmp/kbench-slurm.XXXXXX)
chmod 755 "$work"  # munged, as the munge user, reaches its socket folder through it

packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing ${missing[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$work/apt.log" 2>&1 ||
    skip "apt-get could not install ${missing[*]}: $(tail -n 1 "$work/apt.log")"
fi

export SLURM_CONF=$work/slurm.conf
started=()  # pid files of the daemons this test started
cleanup() {
  if [ -f "$SLURM_CONF" ] && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    scancel --user=root 2>/dev/null || true
    for _ in $(seq 20); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  for pid_file in "${started[@]}"; do
    [ -f "$pid_file" ] || continue
    pid=$(cat "$pid_file")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  [ -n "${KBENCH_SLURM_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap "exit 143" TERM INT HUP  # so that the EXIT trap stops the daemons

# --- munge: its own key and socket, so that nothing of the machine's is used or stopped ---------
mkdir -p "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$work/munge"
chmod 755 "$work/munge"
chmod 600 "$work/munge/munge.key"
socket=$work/munge/munge.socket
runuser -u munge -- munged --socket="$socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" ||
  skip "munged did not start: $(tail -n 1 "$work/munge/munged.log" 2>/dev/null)"
started+=("$work/munge/munged.pid")
munge -n --socket="$socket" | unmunge --socket="$socket" >/dev/null ||
  skip "munged does not answer on $socket"

# --- Slurm: one node, no accounting, state and spool in the folder, two free local ports ----------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 50); do
  port=$((20000 + RANDOM % 20000))
  port_free "$port" && port_free $((port + 1)) && break
done
mkdir -p "$work/state" "$work/spool" "$work/log"
cat >"$SLURM_CONF" <<EOF
ClusterName=kbench
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued task waits for the credential of its first start to expire: 10 s, not 120.
AuthInfo=socket=$socket,cred_expire=10
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=10
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=nightly Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c || skip "slurmctld did not start: $(tail -n 1 "$work/log/slurmctld.log" 2>/dev/null)"
started+=("$work/slurmctld.pid")
slurmd -N localhost || skip "slurmd did not start: $(tail -n 1 "$work/log/slurmd.log" 2>/dev/null)"
started+=("$work/slurmd.pid")
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
  skip "the node did not come up: $(sinfo -h -o '%T %E' 2>&1 | head -n 1)"
echo "slurm up: slurmctld on 127.0.0.1:$port, SLURM_CONF=$SLURM_CONF"

# --- The sweep: host plugins, every case at least 0.2 s, two repetitions ------------------------
sweep=(--plugin transpose/cpu --plugin reduce/cpu --sizes 64,256,1024,4096 --dtypes int32,float32
       --min-time 0.2 --max-time 0.3 --repetitions 2)
"$kbench" run "${sweep[@]}" --run-id night-1 --output "$work/previous.csv" >"$work/previous.log" 2>&1 ||
  fail "the previous night's run failed: $(tail -n 3 "$work/previous.log")"

export KBENCH=$kbench KBENCH_OUTPUT=$work/nightly.csv KBENCH_ARGS="${sweep[*]}"
# The script asks for a GPU per task; this node has none to give.
job=$(sbatch --parsable --gres=none --chdir="$work" --output="$work/task-%a.log" \
  "$source_dir/scripts/nightly.sbatch") || fail "sbatch refused the job array"
echo "submitted array job $job"

state_of() { squeue -h -t all -j "$1" -o %T 2>/dev/null | head -n 1; }
wait_for() {  # wait_for SECONDS WHAT COMMAND...: until the command succeeds
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq $((seconds * 5))); do "$@" && return 0; sleep 0.2; done
  fail "waited $seconds s for $what; tasks: $(squeue -h -t all -j "$job" -o '%i %T' | tr '\n' ' ')"
}
progress() {
  case $(state_of "${job}_1") in FAILED | COMPLETED | CANCELLED) fail "task 1 ended too soon: $(tail -n 2 "$work/task-1.log")" ;; esac
  local lines
  lines=$(grep -c '^\[[0-9]*/' "$work/task-1.log" 2>/dev/null) || true
  [ "${lines:-0}" -ge 2 ]
}
wait_for 120 "task 1 to finish two cases" progress
[ "$(state_of "${job}_1")" = RUNNING ] || fail "task 1 is $(state_of "${job}_1") before it could be cancelled"
scancel "${job}_1"
cancelled() { [ "$(state_of "${job}_1")" = CANCELLED ]; }
wait_for 30 "task 1 to be cancelled" cancelled
echo "task 1 cancelled mid-way; requeued"
scontrol requeue "${job}_1"
all_done() { [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; }
wait_for 240 "every task to end" all_done

states=$(squeue -h -t all -j "$job" -o '%i %T' | sort)
echo "$states" | sed 's/^/  /'
[ "$(echo "$states" | grep -c COMPLETED)" -eq 4 ] || fail "not every task completed"
scontrol show job "${job}_1" | grep -q "Restarts=1" || fail "task 1 was not restarted once"
grep -q "kbench: interrupted" "$work/task-1.log" || fail "task 1's first start was not interrupted"
grep -q "already in the CSV (resumed)" "$work/task-1.log" || fail "task 1's second start resumed nothing"

# --- The merged CSV: exactly the unsharded plan, each case once ----------------------------------
python3 - "$work/previous.csv" night-1 "$work/nightly.csv" "nightly-$job" <<'PY' || fail "the merged CSV is not the plan"
import collections, csv, sys
def cases(path, run):
    keys = ("plugin", "dtype", "op", "shape", "block", "repetition")
    with open(path, newline="") as f:
        return collections.Counter(tuple(r[k] for k in keys) for r in csv.DictReader(f) if r["run_id"] == run)
planned, merged = cases(sys.argv[1], sys.argv[2]), cases(sys.argv[3], sys.argv[4])
twice = [c for c, n in merged.items() if n > 1]
print(f"  plan: {sum(planned.values())} rows (cases x repetitions); merged CSV: {sum(merged.values())} rows, "
      f"{len(twice)} twice, {len(planned - merged)} missing, {len(merged - planned)} not planned")
sys.exit(0 if merged == planned and not twice else 1)
PY

# --- The regression gate against the previous night ----------------------------------------------
# Host timings on a shared machine move by more than any threshold a GPU gate would use: the gate
# here must find every case, none broken, and name its verdicts in JUnit; --fail-slower 1000 lets
# timing noise pass.
set +e
"$kbench" compare "$work/previous.csv" "$work/nightly.csv" --fail-slower 1000 \
  --junit "$work/gate.xml" >"$work/gate.md"
gate=$?
set -e
grep -E "^(PASS|FAIL):" "$work/gate.md" | sed 's/^/  gate: /'
[ "$gate" -eq 0 ] || fail "the gate failed (exit $gate): $(grep -E '\*\*' "$work/gate.md" | head -n 3)"
cases=$(grep -c "<testcase " "$work/gate.xml")
[ "$cases" -eq 24 ] || fail "the JUnit file holds $cases test cases, not the plan's 24"
"$kbench" compare "$work/previous.csv" "$work/nightly.csv" >/dev/null && strict=0 || strict=$?
[ "$strict" -le 1 ] || fail "the default gate did not run (exit $strict)"
echo "PASS: 4 shards under Slurm, one cancelled and requeued, merged into the plan once; the gate" \
     "matched all $cases cases (default threshold: exit $strict)"
