#!/usr/bin/env bash
# The spot scenario for a data-parallel job, with the real torchrun and a real S3-compatible
# server (s3_server_start.sh): a 2-worker job trains with --remote (rank 0 alone writes and uploads
# the job's checkpoints); SIGTERM to rank 1 (its instance's notice) stops both workers at one step,
# and rank 0's emergency checkpoint goes up before the job exits 3; the machine is lost (the home
# deleted); a new home pulls the run, and the same torchrun command resumes the job: its final
# params_sha256 equals an uninterrupted 2-worker job's.
#   test_spot_job.sh PATH/TO/savepoint-cli     exit 0 pass, 1 fail, 77 no server or no torchrun
set -uo pipefail
CLI=$(realpath "${1:?usage: test_spot_job.sh PATH/TO/savepoint-cli}")
HERE=$(cd "$(dirname "$0")" && pwd)
TORCHRUN=$(command -v torchrun) || { echo "SKIP: no torchrun on PATH (Debian: python3-torch)"; exit 77; }
. "$HERE/remote_test_lib.sh" spotjob
export TMPDIR=$T  # torchrun's own files
P="spotjob$$-$RANDOM"
R="s3://$SAVEPOINT_S3_BUCKET/$P"
# 2,000 steps of global batch 32: long enough that the notice lands mid-run.
ARGS=(--run job --data synthetic --model mlp --epochs 2 --steps-per-epoch 1000 --batch 16 --save-freq 250 --threads 1 --seed 9)
job() {  # LOG HOME [extra cli flags...]
  local log=$1 home=$2; shift 2
  "$TORCHRUN" --nnodes 1 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint "127.0.0.1:$((20000 + RANDOM % 20000))" \
    --redirects 1 --tee 1 --monitor_interval 0.2 --no_python "$CLI" train --home "$home" "${ARGS[@]}" "$@" >"$log" 2>&1
}
sha() { grep -o "\[default$2\]:params_sha256 [0-9a-f]*" "$1" | tail -1 | cut -d' ' -f2; }

job "$T/ref.log" "$T/ref"
U=$(sha "$T/ref.log" 0)

# Parts of 1 MiB: each ~4.9 MB checkpoint goes up as a multipart upload (its ETag ends in "-5").
SAVEPOINT_S3_PART_BYTES=1048576 job "$T/spot.log" "$T/spot" --remote "$R" --remote-grace-seconds 20 &
pid=$!
for i in $(seq 1 600); do grep -q "\[default0\]:saved checkpoint #1 " "$T/spot.log" 2>/dev/null && break; sleep 0.05; done
for p in $(pgrep -f -- "--home $T/spot "); do
  tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -qx RANK=1 && kill -TERM "$p"
done
wait $pid; rc=$?
emergency=$("$CLI" checkpoints --home "$T/spot" --run job --json | /usr/bin/python3 -c '
import json,sys; rows=json.load(sys.stdin)
e=[c for c in rows if c["kind"]=="emergency"]
r=(e[-1]["remote"] or {}) if e else {}
print("%s %s %s" % (e[-1]["id"], r.get("etag"), r.get("state")) if e else "none")')
up0=$(grep -c "\[default0\]:uploaded checkpoint" "$T/spot.log")
up1=$(grep -c "\[default1\]:uploaded checkpoint" "$T/spot.log")
at=$(grep -o "\[default0\]:preempted: emergency checkpoint at epoch [0-9]*, step [0-9]*" "$T/spot.log" | sed 's/.*checkpoint at //')
rm -rf "$T/spot"  # the instance is gone

"$CLI" pull --home "$T/new" --remote "$R" --run job >"$T/pull.log" 2>&1; rc_pull=$?
job "$T/resume.log" "$T/new" --remote "$R"; rc_resume=$?
S0=$(sha "$T/resume.log" 0) S1=$(sha "$T/resume.log" 1)
s3_cleanup "$P"
if grep -q "exitcode *: 3" "$T/spot.log" && ((rc_pull == 0 && rc_resume == 0 && up0 > 0 && up1 == 0)) &&
   [[ $emergency == *-5" uploaded" && -n $at && -n $U && $S0 == "$U" && $S1 == "$U" ]] &&
   grep -q "\[default0\]:resuming run 'job' from checkpoint #${emergency%% *} at $at" "$T/resume.log"; then
  echo "PASS  SIGTERM to rank 1 -> both stopped at $at; rank 0's emergency checkpoint #${emergency%% *} uploaded in 5 parts before exit 3 (rank 0 uploaded $up0 checkpoint(s), rank 1 none); home deleted; pulled; the same torchrun command resumed it: params_sha256 $U on both ranks, as the uninterrupted job"
  exit 0
fi
echo "FAIL  spot job: torchrun exit $rc (3 expected in its log), emergency '$emergency' (ID ETAG-5 uploaded) at '$at', uploads rank 0 $up0 rank 1 $up1 (>0, 0), pull $rc_pull, resume $rc_resume, params '$S0'/'$S1' vs '$U'"
grep -E "rror|exitcode|preempt|remote" "$T/spot.log" | tail -n 8
tail -n 5 "$T/pull.log" "$T/resume.log"
exit 1
