#!/usr/bin/env bash
# Data-parallel training under torchrun: real 2-worker jobs on localhost (Gloo).
#   test_data_parallel.sh PATH/TO/savepoint-cli      exit 0 all pass, 1 a failure, 77 no torchrun
# 1. a 2-rank run is reproducible bit for bit, and both ranks end with the same parameters;
# 2. kill -9 of rank 1, then of rank 0, under --max_restarts: torchrun restarts the job, it resumes
#    from its last checkpoint with no flag and ends with the uninterrupted run's parameters, every
#    checkpoint verifying; rank 0 killed halfway through a checkpoint's file (a storage fault
#    point) resumes from the one before; a second job on the same run is refused by the run lock;
#    SAVEPOINT_DP_KILLS=20 makes it the long suite's storm (20 kills, and nothing else);
# 3. SIGTERM to one worker: every rank stops at the same step, one emergency checkpoint, exit 3; the
#    same command resumes it, and so does a job of one worker (warned, recorded, other bits);
# 4. bad input exits 2 with a clear error and creates nothing.
# Negative controls: SAVEPOINT_PLANT_BUG=skip-gradient-allreduce must fail check 1, and
# follower-opens-home (rank 1 opens a registry in its home) the check that rank 1 writes nothing.
set -uo pipefail
CLI=${1:?usage: test_data_parallel.sh PATH/TO/savepoint-cli}
TORCHRUN=$(command -v torchrun) || { echo "SKIP: no torchrun on PATH (Debian: python3-torch)"; exit 77; }
T=$(mktemp -d /tmp/savepoint-dp-XXXXXX)
trap '[[ -n ${KEEP_DP_LOGS:-} ]] && echo "logs kept in $T" || rm -rf "$T"' EXIT
# torchrun's own files go to TMPDIR: here, in $T.
export TMPDIR=$T
fails=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; fails=$((fails + 1)); }

# One run's settings: long enough (a few seconds) that a worker can be killed mid-run.
ARGS=(--run dp --data synthetic --model mlp --epochs 3 --steps-per-epoch 100 --batch 16 --save-freq 25 --threads 1 --seed 7)
# The storm (long suite): 10 times the steps and a save every 5, enough for every kill.
kills=${SAVEPOINT_DP_KILLS:-2}
steps=300
((kills > 2)) && ARGS=(--run dp --data synthetic --model mlp --epochs 3 --steps-per-epoch 1000 --batch 16 --save-freq 5 --threads 1 --seed 7) && steps=3000

# Two machines, as far as the homes go: rank 0's is HOME, the others' HOME-rankN (which must stay
# absent); each rank's storage operations traced (engine/storage/fault_injection.h) to ops-rankN.txt.
cat >"$T/two-homes.sh" <<EOF
#!/usr/bin/env bash
args=("\$@")
[[ \$RANK != 0 ]] && args[2]+="-rank\$RANK"
export SAVEPOINT_FAULT_TRACE=$T/ops-rank\$RANK.txt
exec "$(realpath "$CLI")" "\${args[@]}"
EOF
# Rank 0 of the job's first attempt dies (_exit(137), as kill -9) at storage operation FAULT_AT.
cat >"$T/die-once.sh" <<EOF
#!/usr/bin/env bash
[[ \$RANK == 0 && \$TORCHELASTIC_RESTART_COUNT == 0 ]] && export SAVEPOINT_FAULT_AT=\$FAULT_AT SAVEPOINT_FAULT_MODE=crash
exec "$(realpath "$CLI")" "\$@"
EOF
chmod +x "$T/two-homes.sh" "$T/die-once.sh"
PROG=$CLI
# job LOG HOME [torchrun flags...] -- [extra cli flags...]: a 2-worker job on its own rendezvous port.
job() {
  local log=$1 home=$2; shift 2
  local tr=() cli=()
  while (($#)) && [[ $1 != -- ]]; do tr+=("$1"); shift; done
  (($#)) && shift
  cli=("$@")
  "$TORCHRUN" --nnodes 1 --nproc_per_node "${NPROC:-2}" --rdzv_backend c10d --rdzv_endpoint "127.0.0.1:$((20000 + RANDOM % 20000))" \
    --redirects 1 --tee 1 --monitor_interval 0.2 "${tr[@]}" --no_python "$PROG" train --home "$home" "${ARGS[@]}" "${cli[@]}" \
    >"$log" 2>&1
}
sha_of() { grep -o "\[default$2\]:params_sha256 [0-9a-f]*" "$1" | tail -1 | cut -d' ' -f2; }

# 1. Reproducible, ranks in sync.
PROG=$T/two-homes.sh job "$T/a.log" "$T/a"; rc_a=$?
job "$T/b.log" "$T/b"; rc_b=$?
a0=$(sha_of "$T/a.log" 0) a1=$(sha_of "$T/a.log" 1) b0=$(sha_of "$T/b.log" 0)
if ((rc_a == 0 && rc_b == 0)) && [[ -n $a0 && $a0 == "$a1" && $a0 == "$b0" ]]; then
  pass "2-rank run twice: exit 0 both, params_sha256 $a0 on both ranks and both runs"
else
  fail "2-rank run twice: exit $rc_a/$rc_b, rank 0 $a0, rank 1 $a1, second run $b0 (rank 1 must equal rank 0, and run 2 run 1; $T/a.log)"
  sed -n '1,40p' "$T/a.log"
fi
# The autograd path (cnn) with SGD, beside the linear-stack step and fused Adam above: both all-reduce.
mlp_args=("${ARGS[@]}")
ARGS=(--run dp --data synthetic --model cnn --optimizer sgd --epochs 1 --steps-per-epoch 20 --batch 16 --save-freq 10 --threads 1 --seed 7)
job "$T/c.log" "$T/c"; rc_c=$?
ARGS=("${mlp_args[@]}")
c0=$(sha_of "$T/c.log" 0) c1=$(sha_of "$T/c.log" 1)
if ((rc_c == 0)) && [[ -n $c0 && $c0 == "$c1" ]]; then
  pass "cnn with sgd (autograd): exit 0, params_sha256 $c0 on both ranks"
else
  fail "cnn with sgd (autograd): exit $rc_c, rank 0 $c0, rank 1 $c1 ($T/c.log)"
fi
# The job's loss is both ranks' mean: the single-process run with the same per-rank batch differs.
"$CLI" train --home "$T/single" "${ARGS[@]}" >"$T/single.log" 2>&1
single=$(grep -o "params_sha256 [0-9a-f]*" "$T/single.log" | cut -d' ' -f2)
[[ -n $single && $single != "$a0" ]] && pass "a 1-process run ends elsewhere ($single)" || fail "1-process run: '$single' vs 2-rank '$a0'"
# Only rank 0 keeps a registry; the job's world size is recorded.
# sql HOME QUERY: rows as "a|b|c" (a test may read the registry's tables; the front ends may not).
sql() { /usr/bin/python3 -c "import sqlite3,sys; print('\n'.join('|'.join(str(v) for v in r) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])))" "$1/registry.sqlite" "$2"; }
sessions=$(sql "$T/a" "select world_size, restart_count, workers from sessions")
if "$CLI" runs --home "$T/a" --json | grep -q '"dp"' && [[ $(sql "$T/a" "select message from events") == *"2 data-parallel workers"* ]] &&
   [[ $sessions == "2|0|"*'"rank":0'*'"rank":1'* ]] && (($(wc -l <<<"$sessions") == 1)); then
  pass "rank 0's registry: run dp, one session of world size 2 naming both workers' host and pid, its event says 2 data-parallel workers"
else
  fail "rank 0's registry: sessions '$sessions' (expected one: 2|0|[rank 0, rank 1])"
fi
# Rank 1 opened nothing, anywhere; what only it knows reached rank 0's registry through the store.
report=$("$CLI" runs --home "$T/a" --json | /usr/bin/python3 -c '
import json,sys; w=json.load(sys.stdin)[0]["sessions"][-1]["workers"]; r=[x for x in w if x["rank"]==1][0].get("report") or {}
print("%s %s %d" % (r.get("steps"), r.get("ended"), r.get("allreduce_seconds",0) > 0))')
stray=$(find "$T" -mindepth 1 -maxdepth 1 \( -name 'a-rank*' -o -name 'savepoint-*' -o -name 'ops-rank1.txt' \) | tr '\n' ' ')
if [[ -z $stray && -s $T/ops-rank0.txt && $report == "$steps finished 1" ]] && grep -q "\[default0\]:worker 1 (.*pid [0-9]*): $steps steps, .* in the all-reduce, finished" "$T/a.log"; then
  pass "rank 1, its home elsewhere: created nothing there nor in TMPDIR, made no storage operation ($(wc -l <"$T/ops-rank0.txt") for rank 0); its report ($steps steps, finished, its all-reduce time) is in rank 0's session (runs --json) and log"
else
  fail "rank 1: created '$stray' (expected nothing), its report in rank 0's registry: '$report' (expected $steps finished 1) ($T/a.log)"
fi

[[ -n ${SAVEPOINT_PLANT_BUG:-} ]] && { echo "$fails failure(s)"; exit $((fails > 0)); }

# 2. kill -9 under --max_restarts: torchrun restarts both workers, rank 0 resumes the run.
# storm LOG HOME KILLS: kills rank 1, then rank 0, then 1... each one a random 0-0.2 s after rank 0
# commits a checkpoint in the attempt torchrun restarted after the kill before (with saves every few
# milliseconds, often while the next is written: a kill that found a .tmp file says so in `during_write`).
# A checkpoint counted before the restart's own resume line may be the dying attempt's: a kill
# then lands while the new attempt starts, before its session exists.
attempt_saved() {  # LOG: rank 0 of the current attempt has committed a checkpoint
  local from=1
  if ((killed > 0)); then
    from=$(grep -n "\[default0\]:[a-z0-9 ]* was lost and torchrun restarted the job: .*(torchrun restart $killed)" "$1" | tail -n 1 | cut -d: -f1)
    [[ -n $from ]] || return 1
  fi
  tail -n +"$from" "$1" | grep -q "\[default0\]:saved checkpoint #"
}
storm() {
  local log=$1 home=$2 kills=$3 rank p
  killed=0 during_write=0
  job "$log" "$home" --max_restarts "$kills" &
  local jobpid=$!
  while ((killed < kills)) && kill -0 $jobpid 2>/dev/null; do
    # After a kill, the next one waits for torchrun's restart and a checkpoint of the new attempt.
    if attempt_saved "$log"; then
      sleep "0.$((RANDOM % 3))$((RANDOM % 10))"
      rank=$(((killed + 1) % 2))
      for p in $(pgrep -f -- "--home $home "); do
        tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -qx "RANK=$rank" || continue
        [[ -n $(find "$home" -name '*.tmp' 2>/dev/null) ]] && during_write=$((during_write + 1))
        kill -9 "$p" && killed=$((killed + 1))
        break
      done
    fi
    sleep 0.02
  done
  wait $jobpid
}
# registry_ok HOME: every checkpoint file verifies, and the run's sessions say how it went.
registry_ok() { "$CLI" verify --home "$1" >"$1.verify" 2>&1; }

storm "$T/k.log" "$T/k" "$kills"; rc_k=$?
k0=$(sha_of "$T/k.log" 0)
restarts=$(sql "$T/k" "select world_size || ' workers, restart ' || restart_count || ', ' || kind || ' ended ' || ended_by from sessions" | tr '\n' ';')
last="2 workers, restart $kills, resume ended finished;"
# Each restart is recorded as one (the window marks it "worker lost"), not as a plain resume.
restart_events=$(sql "$T/k" "select count(*) from events where kind = 'restart'")
# ...naming the worker killed: 1, 0, 1... (rank 0 saw its peer fail; or its own session was left open).
named=$(sql "$T/k" "select substr(message, 1, 8) from events where kind = 'restart' order by id" | tr '\n' ',')
# ...and in its fields, which the window words (no reading of the English message).
field_named=$(sql "$T/k" "select json_extract(fields, '$.lost_worker') from events where kind = 'restart' order by id" | tr '\n' ',')
want_named="" want_fields=""
for ((i = 1; i <= kills; i++)); do want_named+="worker $((i % 2)),"; want_fields+="$((i % 2)),"; done
if ((killed == kills && rc_k == 0)) && [[ $k0 == "$a0" && $restarts == *"$last" && $restart_events == "$kills" && $named == "$want_named" && $field_named == "$want_fields" ]] &&
   registry_ok "$T/k"; then
  pass "$killed kill(s) -9 alternating rank 1 and rank 0 ($during_write during a save): restarted and resumed each time, each restart naming the worker lost, params_sha256 equals the uninterrupted run's, verify exit 0; sessions: ${restarts:0:200}"
else
  fail "kill -9: $killed of $kills kills, exit $rc_k, final $k0 vs uninterrupted $a0, sessions '$restarts', $restart_events restart event(s) naming '$named' (expected '$want_named'), fields '$field_named', verify: $(tail -2 "$T/k.verify" 2>/dev/null) ($T/k.log)"
  # The attempt before each restart that named the wrong worker: how its rank 0 ended (or did not).
  IFS=, read -ra got_names <<<"$named"
  for ((i = 1; i <= kills; i++)); do
    [[ ${got_names[i - 1]:-} == "worker $((i % 2))" ]] && continue
    echo "--- attempt $((i - 1)), before restart $i (named '${got_names[i - 1]:-}'), without its progress lines:"
    awk -v from="(torchrun restart $((i - 1)))" -v to="(torchrun restart $i)" '
      /was lost and torchrun restarted the job/ && index($0, to) { exit }
      (from == "(torchrun restart 0)" && NR == 1) || (/was lost and torchrun restarted the job/ && index($0, from)) { on = 1 }
      on && !/steps\/s/' "$T/k.log" | tail -n 25
  done
fi
((kills > 2)) && { echo "$fails failure(s)"; exit $((fails > 0)); }

# Killed during a checkpoint write, for certain: rank 0 dies halfway through checkpoint #3's file
# (its 4th write, as job 1 traced it); torchrun restarts the job, which resumes from #2.
at=$(grep " write .*/ckpt-00000003.svpt.tmp$" "$T/ops-rank0.txt" | sed -n 4p | cut -d' ' -f1)
FAULT_AT=$at PROG=$T/die-once.sh job "$T/w.log" "$T/w" --max_restarts 1; rc_w=$?
w0=$(sha_of "$T/w.log" 0)
wnamed=$(sql "$T/w" "select substr(message, 1, 8) || ' #' || checkpoint_id from events where kind = 'restart'")
if ((rc_w == 0)) && [[ -n $at && $w0 == "$a0" && $wnamed == "worker 0 #2" && -z $(find "$T/w" -name '*.tmp') ]] && registry_ok "$T/w"; then
  pass "rank 0 killed during checkpoint #3's write (storage operation $at): restarted from #2 ('$wnamed'), no .tmp left, verify exit 0, params_sha256 equals the uninterrupted run's"
else
  fail "killed during a write (operation '$at'): exit $rc_w, final '$w0' vs $a0, restart '$wnamed' (expected 'worker 0 #2'), .tmp: $(find "$T/w" -name '*.tmp') ($T/w.log)"
fi

# Two jobs, one run: a second job (of one worker) on the run a job trains is refused by the run lock.
job "$T/two.log" "$T/two" &
jobpid=$!
for _ in $(seq 1 300); do grep -q "\[default0\]:saved checkpoint #1" "$T/two.log" 2>/dev/null && break; sleep 0.02; done
out=$(env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$((40000 + RANDOM % 20000)) "$CLI" train --home "$T/two" "${ARGS[@]}" 2>&1); rc=$?
wait $jobpid; rc_two=$?
if ((rc == 1 && rc_two == 0)) && [[ $out == *"run 'dp' is in use by another Savepoint process"* ]] && [[ $(sha_of "$T/two.log" 0) == "$a0" ]]; then
  pass "a second job on run dp while one trains it: exit 1, 'run 'dp' is in use by another Savepoint process'; the first job ends unharmed"
else
  fail "second job on one run: exit $rc (first job $rc_two), said: $out"
fi

# 3. SIGTERM to rank 1 once training runs: all ranks stop at one step, one emergency checkpoint, exit 3.
job "$T/t.log" "$T/t" &
jobpid=$!
for _ in $(seq 1 300); do
  grep -q "\[default0\]:saved checkpoint #1" "$T/t.log" 2>/dev/null && break
  sleep 0.05
done
for p in $(pgrep -f -- "--home $T/t"); do
  tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -qx RANK=1 && kill -TERM "$p"
done
wait $jobpid
s0=$(grep -c "\[default0\]:preempted: emergency checkpoint at" "$T/t.log")
s1=$(grep -c "\[default1\]:preempted: preempted at .*; rank 0 writes the job's emergency checkpoint" "$T/t.log")
at0=$(grep -o "\[default0\]:preempted: emergency checkpoint at epoch [0-9]*, step [0-9]*" "$T/t.log" | sed 's/.*checkpoint at //')
at1=$(grep -o "\[default1\]:preempted: preempted at epoch [0-9]*, step [0-9]*" "$T/t.log" | sed 's/.*preempted at //')
emergency=$("$CLI" checkpoints --home "$T/t" --run dp --json | grep -o '"kind": *"emergency"' | wc -l)
if ((s0 == 1 && s1 == 1)) && [[ -n $at0 && $at0 == "$at1" ]] && ((emergency == 1)) && grep -q "exitcode: 3\|exitcode  *: 3" "$T/t.log" &&
   grep -q "\[default0\]:preemption_notice: preemption notice at .*; sent to worker 1 of 2;" "$T/t.log"; then
  pass "SIGTERM to rank 1: both ranks stopped at $at0, rank 0 says the notice was sent to worker 1 of 2, one emergency checkpoint in the registry, exit 3"
else
  fail "SIGTERM: rank 0 '$at0' ($s0), rank 1 '$at1' ($s1), $emergency emergency checkpoint(s) ($T/t.log)"
  tail -20 "$T/t.log"
fi
# The same command again resumes from the emergency checkpoint (every rank's RNG state in it) to the same end.
cp -a "$T/t" "$T/t1"  # for the resume with one worker, below
job "$T/t2.log" "$T/t"; rc_t2=$?
if ((rc_t2 == 0)) && grep -q "\[default0\]:resuming run 'dp' from checkpoint #[0-9]* at $at0" "$T/t2.log" && [[ $(sha_of "$T/t2.log" 1) == "$a0" ]]; then
  pass "the same command again: resumed from the emergency checkpoint at $at0, params_sha256 equals the uninterrupted run's"
else
  fail "resume after SIGTERM: exit $rc_t2, final $(sha_of "$T/t2.log" 1) vs $a0 ($T/t2.log)"
fi
# With one worker instead: allowed, said, recorded; the data position kept, the bits not.
NPROC=1 job "$T/t3.log" "$T/t1"; rc_t3=$?
sizes=$(sql "$T/t1" "select world_size from sessions order by id" | tr '\n' ',')
t3=$(sha_of "$T/t3.log" 0)
if ((rc_t3 == 0)) && grep -q "\[default0\]:warning: run 'dp' was trained by 2 worker(s) and resumes with 1: the data position is kept" "$T/t3.log" &&
   grep -q "\[default0\]:resuming run 'dp' from checkpoint #[0-9]* at $at0" "$T/t3.log" && [[ $sizes == "2,1," && -n $t3 && $t3 != "$a0" ]]; then
  pass "the job resumed with 1 worker instead of 2: warned, from the emergency checkpoint at $at0, sessions of world size $sizes, params differ from the 2-worker run's (as said)"
else
  fail "resume with another world size: exit $rc_t3, sessions '$sizes' (2,1,), final '$t3' (must differ from $a0) ($T/t3.log)"
fi

# 4. Bad input: exit 2, the variable named, nothing created.
bad() {  # name, expected text, env assignments...
  local name=$1 text=$2; shift 2
  local home="$T/bad-$RANDOM" out rc
  out=$(env "$@" SAVEPOINT_STORE_TIMEOUT=2 timeout 60 "$CLI" train --home "$home" "${ARGS[@]}" 2>&1); rc=$?
  if ((rc == 2)) && [[ $out == *"$text"* ]] && [[ ! -e $home ]]; then
    pass "$name: exit 2, '$text', nothing created"
  else
    fail "$name: exit $rc, created: $([[ -e $home ]] && echo yes || echo no), said: $out"
  fi
}
bad "WORLD_SIZE=0" "WORLD_SIZE: expected a number of workers, 1 or more, found 0" RANK=0 WORLD_SIZE=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=29999
bad "RANK >= WORLD_SIZE" "RANK: expected a rank from 0 to 1 (WORLD_SIZE is 2), found 2" RANK=2 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29999
bad "unresolvable MASTER_ADDR" "MASTER_ADDR and MASTER_PORT: expected rank 0's store at no-such-host.invalid:29999, found nothing reachable there within 2 s" RANK=1 WORLD_SIZE=2 MASTER_ADDR=no-such-host.invalid MASTER_PORT=29999
port0=$((40000 + RANDOM % 20000))
bad "nobody at MASTER_PORT" "MASTER_ADDR and MASTER_PORT: expected rank 0's store at 127.0.0.1:$port0, found nothing reachable there within 2 s" RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port0
out=$(env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29999 "$CLI" resume --home "$T/a" --run dp 2>&1); rc=$?
if ((rc == 2)) && [[ $out == *"RANK: expected it unset for savepoint-cli resume, found 0 (under torchrun, savepoint-cli train resumes"* ]]; then
  pass "resume under torchrun: exit 2, 'train resumes an interrupted run by itself'"
else
  fail "resume under torchrun: exit $rc, said: $out"
fi
home="$T/bad-policy"
out=$(env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$((40000 + RANDOM % 20000)) "$CLI" train --home "$home" "${ARGS[@]}" --async-policy skip 2>&1); rc=$?
if ((rc == 2)) && [[ $out == *"--async-policy: expected 'wait' when training under torchrun, found 'skip'"* && ! -e $home ]]; then
  pass "--async-policy skip under torchrun: exit 2, nothing created"
else
  fail "--async-policy skip under torchrun: exit $rc, created: $([[ -e $home ]] && echo yes || echo no), said: $out"
fi
# A CUDA job needs NCCL, which Debian's LibTorch lacks: refused before the job is joined.
home="$T/bad-cuda"
out=$(env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$((40000 + RANDOM % 20000)) "$CLI" train --home "$home" "${ARGS[@]}" --device cuda 2>&1); rc=$?
if ((rc == 2)) && [[ $out == *"device"*"cpu for a data-parallel job with this build (its LibTorch has no NCCL)"*"cuda"* && ! -e $home ]]; then
  pass "--device cuda under torchrun without NCCL: exit 2, names the device, nothing created"
else
  fail "--device cuda under torchrun without NCCL: exit $rc, created: $([[ -e $home ]] && echo yes || echo no), said: $out"
fi
# A port in use: a listener of our own holds it.
port=$((40000 + RANDOM % 20000))
/usr/bin/python3 -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',$port)); s.listen(); time.sleep(30)" &
holder=$!
sleep 0.5
bad "port in use" "MASTER_PORT: expected a free port for rank 0's store, found $port in use" RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port
kill $holder 2>/dev/null
# Different configs: rank 1 is given another learning rate.
port=$((40000 + RANDOM % 20000))
home0="$T/cfg0"
env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SAVEPOINT_STORE_TIMEOUT=20 "$CLI" train --home "$T/cfg1" "${ARGS[@]}" --lr 0.01 >"$T/cfg1.log" 2>&1 &
r1=$!
out0=$(env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SAVEPOINT_STORE_TIMEOUT=20 "$CLI" train --home "$home0" "${ARGS[@]}" 2>&1); rc0=$?
wait $r1; rc1=$?
if ((rc0 == 2 && rc1 == 2)) && [[ $out0 == *"expected the same settings on every worker, found config hash"* ]] &&
   grep -q "expected the same settings on every worker" "$T/cfg1.log" && [[ ! -e $home0 ]]; then
  pass "different configs: both ranks exit 2 naming both hashes, nothing created ($(echo "$out0" | grep -o 'found config hash.*' | cut -c1-90))"
else
  fail "different configs: exit $rc0/$rc1; rank 0 said: $out0; rank 1 said: $(cat "$T/cfg1.log")"
fi

echo "$fails failure(s)"
exit $((fails > 0))
