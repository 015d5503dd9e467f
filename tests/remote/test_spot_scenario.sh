#!/usr/bin/env bash
# The spot scenario of SageMaker's managed spot training, end to end with the real CLI and a real
# S3-compatible server (s3_server_start.sh): train --remote; SIGTERM mid-run (the spot notice): an
# emergency checkpoint, uploaded before exit within --remote-grace-seconds, exit 3; the machine is
# lost (the home deleted); a new home pulls the run and resumes it: the final params_sha256 equals
# an uninterrupted run's.
#   test_spot_scenario.sh PATH/TO/savepoint-cli     exit 0 pass, 1 fail, 77 no server
set -uo pipefail
CLI=$(realpath "${1:?usage: test_spot_scenario.sh PATH/TO/savepoint-cli}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/remote_test_lib.sh" spot
P="spot$$-$RANDOM"
R="s3://$SAVEPOINT_S3_BUCKET/$P"
# 6,000 steps (4 s at ~1,400 steps/s here): the notice lands mid-run however fast the uploads go.
ARGS=(--run spot --data synthetic --model mlp --epochs 3 --steps-per-epoch 2000 --batch 16 --save-freq 500 --threads 1 --seed 5)

"$CLI" train --home "$T/ref" "${ARGS[@]}" >"$T/ref.log" 2>&1
U=$(sha_of "$T/ref.log")

# Parts of 1 MiB: each ~4.9 MB checkpoint goes up as a multipart upload (its ETag ends in "-5").
SAVEPOINT_S3_PART_BYTES=1048576 "$CLI" train --home "$T/spot" "${ARGS[@]}" --remote "$R" --remote-grace-seconds 60 >"$T/spot.log" 2>&1 &
pid=$!
# The notice comes once a checkpoint is committed, mid-run (waiting for its upload raced the end
# of the run: uploads compete with training for the 2 cores).
for i in $(seq 1 600); do grep -q "^saved checkpoint #1 " "$T/spot.log" && break; sleep 0.05; done
kill -TERM $pid
wait $pid; rc=$?
emergency=$("$CLI" checkpoints --home "$T/spot" --run spot --json | /usr/bin/python3 -c '
import json,sys; rows=json.load(sys.stdin)
e=[c for c in rows if c["kind"]=="emergency"]
r=(e[-1]["remote"] or {}) if e else {}
print("%s %s %s" % (e[-1]["id"], r.get("etag"), r.get("state")) if e else "none")')
step=$(grep -o "global step [0-9]*" "$T/spot.log" | tail -1)
rm -rf "$T/spot"  # the instance is gone

"$CLI" pull --home "$T/new" --remote "$R" --run spot >"$T/pull.log" 2>&1; rc_pull=$?
"$CLI" resume --home "$T/new" --run spot --remote "$R" >"$T/resume.log" 2>&1; rc_resume=$?
S=$(sha_of "$T/resume.log")
s3_cleanup "$P"
finished=$(grep -c "^finished:" "$T/spot.log")
if ((rc == 3 && finished == 0 && rc_pull == 0 && rc_resume == 0)) && [[ $emergency == *-5" uploaded" && -n $U && $S == "$U" ]]; then
  echo "PASS  SIGTERM -> emergency checkpoint #${emergency%% *} ($step) uploaded in 5 parts (ETag $(cut -d' ' -f2 <<<"$emergency")) before exit 3; home deleted; pulled; resumed: params_sha256 $S, as uninterrupted"
  exit 0
fi
echo "FAIL  spot: train exit $rc (3), emergency '$emergency' (ID ETAG-5 uploaded), pull $rc_pull, resume $rc_resume, params '$S' vs '$U'"
tail -n 5 "$T/spot.log" "$T/pull.log" "$T/resume.log"
exit 1
