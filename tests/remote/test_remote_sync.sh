#!/usr/bin/env bash
# Checkpoints in S3-compatible storage, against the real server that
# s3_server_start.sh runs on loopback (OpenStack Swift's S3 API):
#   test_remote_sync.sh PATH/TO/savepoint-cli [core|more|all]   exit 0 all pass, 1 a failure, 77 no server
# 1. bad input exits 2 before training, names what was expected and found, creates nothing, never prints a secret
#    (and at the end: no file the test made, registries included, holds the secret or the access key);
# 2. train --remote uploads each committed checkpoint (file, metrics, then its manifest), retention deletes
#    remote copies too, `checkpoints` shows each one's remote state;
# 3. preempted at a step, the home deleted, pull into a fresh home, resume: the uninterrupted run's params_sha256;
#    a home an earlier pull made gets only the newer checkpoints on a second pull; a home with other runs
#    takes a pulled run, renumbering what is taken (branches, sessions, checkpoint rows: not the files' ids);
# 4. an object changed on the server is refused by pull (SHA-256), which falls back to the checkpoint before it;
# 5. pull into a home that has the run is refused; a disk error during pull registers nothing;
# 6. kill -9 right after an object upload: no manifest ever names a missing or partial file, and the next
#    resume --remote uploads what was left pending;
# 7. the store goes away mid-run (a relay cuts every connection) and comes back: training goes on with the
#    same bits, the failures are said and retried, and once it is back every checkpoint is uploaded.
# Negative controls: SAVEPOINT_PLANT_BUG=pull-skip-sha256 fails check 4, remote-manifest-first fails check 6.
set -uo pipefail
CLI=$(realpath "${1:?usage: test_remote_sync.sh PATH/TO/savepoint-cli [core|more|all]}")
# core: the README suite's share (bad input, sync, spot, changed object, disk full, kill, secrets); more: the
# long suite's (a second pull, a busy run, homes with other runs, the store down), with what they stand on.
MODE=${2:-core}
only() { [[ $MODE == "$1" || $MODE == all ]]; }
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/remote_test_lib.sh" remote
P="t$$-$RANDOM"  # this test's prefix in the shared bucket
R="s3://$SAVEPOINT_S3_BUCKET/$P"
fails=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; fails=$((fails + 1)); }
ARGS=(--data synthetic --model mlp --epochs 2 --steps-per-epoch 100 --batch 16 --save-freq 25 --threads 1 --seed 11)

if only core; then
# 1. Bad input: exit 2 before training, nothing created, no secret printed.
bad() {  # name expected-text env... -- cli args...
  local name=$1 want=$2; shift 2
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  rm -rf "$T/bad"
  env "${envs[@]}" "$CLI" train --home "$T/bad" --run b "${ARGS[@]}" "$@" >"$T/bad.log" 2>&1; local rc=$?
  if ((rc == 2)) && grep -q -- "--remote: expected" "$T/bad.log" && grep -q -- "$want" "$T/bad.log" &&
     ! ls "$T/bad/registry.sqlite" >/dev/null 2>&1 && ! grep -q -e "$AWS_SECRET_ACCESS_KEY" -e 'wrong-secret' "$T/bad.log"; then
    pass "$name: exit 2, $(grep -m1 -o -- '--remote: .*' "$T/bad.log" | cut -c1-150)"
  else
    fail "$name: exit $rc (expected 2, '$want', no registry, no secret): $(cat "$T/bad.log" | tail -3)"
  fi
}
bad "a URI that is not s3://" "s3://BUCKET/PREFIX" -- --remote "http://$SAVEPOINT_S3_BUCKET/x"
bad "a bucket name with a capital" "the bucket name holds 'B'" -- --remote "s3://Bucket/x"
bad "no credentials" "credentials" -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY HOME="$T" -- --remote "$R/a"
bad "a wrong secret key" "SignatureDoesNotMatch" AWS_SECRET_ACCESS_KEY=wrong-secret -- --remote "$R/a"
bad "a missing bucket" "NoSuchBucket" -- --remote "s3://no-such-bucket-$$/x"
bad "an endpoint that does not answer" "no answer from http://127.0.0.1:1" AWS_ENDPOINT_URL=http://127.0.0.1:1 -- --remote "$R/a"

fi

# 2. Sync while training, retention mirrored, states shown.
"$CLI" train --home "$T/u" --run r "${ARGS[@]}" >"$T/u.log" 2>&1
U=$(sha_of "$T/u.log")
"$CLI" train --home "$T/h" --run r "${ARGS[@]}" --keep 2 --remote "$R" >"$T/h.log" 2>&1; rc=$?
manifests=$(keys "$P/r/manifests/" | sort | tr '\n' ' ')
files=$(keys "$P/r/checkpoints/" | sort | tr '\n' ' ')
committed=$("$CLI" checkpoints --home "$T/h" --run r --json | /usr/bin/python3 -c '
import json,sys; rows=json.load(sys.stdin)
print(" ".join("%s:%s:%s" % (c["id"], c["state"], (c["remote"] or {}).get("state")) for c in rows))')
n_up=$(grep -o ':committed:uploaded' <<<"$committed" | wc -l)
n_committed=$(grep -o ':committed:' <<<"$committed" | wc -l)
n_deleted=$(grep -o ':deleted:deleted' <<<"$committed" | wc -l)
if ((rc == 0)) && [[ $(sha_of "$T/h.log") == "$U" ]] && ((n_up == n_committed && n_up >= 2 && n_deleted >= 1)) &&
   (($(wc -w <<<"$manifests") == n_committed)) && (($(wc -w <<<"$files") == n_committed)) &&
   keys "$P/r/metrics.json" | grep -q metrics.json; then
  pass "train --remote: same params as without ($U), $n_committed committed all uploaded, $n_deleted deleted by retention here and there; objects: $manifests"
else
  fail "train --remote: exit $rc, rows $committed; manifests '$manifests', files '$files' ($T/h.log)"
  tail -5 "$T/h.log"
fi
"$CLI" checkpoints --home "$T/h" --run r | grep -q "s3 uploaded" && pass "checkpoints table marks 's3 uploaded'" || fail "checkpoints table: no 's3 uploaded' mark"

# 3. Preempted, home lost, pulled, resumed: the uninterrupted run's bits.
"$CLI" train --home "$T/p" --run r "${ARGS[@]}" --preempt-at-step 130 --remote "$R/spot" >"$T/p.log" 2>&1; rc=$?
rm -rf "$T/p"
"$CLI" pull --home "$T/p2" --remote "$R/spot" >"$T/pull.log" 2>&1; rc_pull=$?
cp -a "$T/p2" "$T/p2old"  # a second machine that pulled then, and stopped there
"$CLI" resume --home "$T/p2" --run r --remote "$R/spot" >"$T/p2.log" 2>&1; rc_resume=$?
if ((rc == 3 && rc_pull == 0 && rc_resume == 0)) && [[ $(sha_of "$T/p2.log") == "$U" ]] &&
   grep -q "every SHA-256 checked" "$T/pull.log"; then
  pass "preempted (exit 3), home deleted, pulled ($(head -1 "$T/pull.log" | cut -c1-90)), resumed: params_sha256 $U as uninterrupted"
else
  fail "spot: train exit $rc, pull $rc_pull, resume $rc_resume, params $(sha_of "$T/p2.log") vs $U ($T/pull.log: $(tail -2 "$T/pull.log"))"
fi

if only more; then
# The second machine pulls again: only what is newer on the same lineage is added, and it ends as the first.
"$CLI" pull --home "$T/p2old" --remote "$R/spot" >"$T/pull2.log" 2>&1; rc_pull=$?
"$CLI" resume --home "$T/p2old" --run r >"$T/p2old.log" 2>&1; rc_resume=$?
if ((rc_pull == 0 && rc_resume == 0)) && grep -q "(newer checkpoints added)" "$T/pull2.log" && [[ $(sha_of "$T/p2old.log") == "$U" ]]; then
  pass "pull into a home an older pull made: $(head -1 "$T/pull2.log" | cut -c1-100); params $U"
else
  fail "pull of newer checkpoints: pull $rc_pull, resume $rc_resume, params $(sha_of "$T/p2old.log") ($(cat "$T/pull2.log"))"
fi

fi

if only core; then
# 4. An object changed on the server: refused by its SHA-256, the checkpoint before it is the head.
newest=$(keys "$P/spot/r/checkpoints/" | sort | tail -1)
head -c 4096 /dev/urandom >"$T/garbage"
s3 PUT "/$SAVEPOINT_S3_BUCKET/$newest" "$T/garbage" >/dev/null
"$CLI" pull --home "$T/p3" --remote "$R/spot" --run r >"$T/pull3.log" 2>&1; rc_pull=$?
"$CLI" checkpoints --home "$T/p3" --run r --json >"$T/p3.json" 2>&1
"$CLI" resume --home "$T/p3" --run r >"$T/p3.log" 2>&1; rc_resume=$?
if ((rc_pull == 0 && rc_resume == 0)) && grep -q "refused #" "$T/pull3.log" && grep -q "SHA-256" "$T/pull3.log" &&
   grep -q '"corrupt"' "$T/p3.json" && [[ $(sha_of "$T/p3.log") == "$U" ]]; then
  pass "changed object refused ($(grep -m1 -o 'refused #[0-9]*' "$T/pull3.log")), head fell back, resume still ends at $U"
else
  fail "changed object: pull exit $rc_pull, resume $rc_resume, params $(sha_of "$T/p3.log") ($T/pull3.log: $(cat "$T/pull3.log" | head -3))"
fi

# 5. A home that has the run refuses it; a full disk during pull registers nothing and leaves no file.
"$CLI" pull --home "$T/p2" --remote "$R/spot" >"$T/pull4.log" 2>&1; rc=$?
((rc == 2)) && grep -q -- "--run: expected a run this home does not have" "$T/pull4.log" &&
  pass "pull into a home that has the run: exit 2, $(grep -m1 -o -- '--run: .*' "$T/pull4.log" | cut -c1-120)" ||
  fail "pull into a home that has the run: exit $rc ($(cat "$T/pull4.log"))"
fi

if only more; then
# A run being trained in the home: its lock refuses the pull (exit 1, naming the holder), nothing changes.
"$CLI" train --home "$T/busy" --run r --data synthetic --epochs 1 --steps-per-epoch 3000 --save-freq 1000 --threads 1 >/dev/null 2>&1 &
busy=$!
for i in $(seq 1 200); do [[ -f $T/busy/registry.sqlite ]] && break; sleep 0.05; done
sleep 0.3
"$CLI" pull --home "$T/busy" --remote "$R/spot" >"$T/pull-busy.log" 2>&1; rc=$?
kill -TERM $busy; wait $busy 2>/dev/null
((rc == 1)) && grep -q "run 'r'" "$T/pull-busy.log" && [[ -z $(find "$T/busy/checkpoints/r" -name '*.tmp' 2>/dev/null) ]] &&
  pass "pull of a run a process is training here: exit 1, $(grep -m1 -o 'error: .*' "$T/pull-busy.log" | cut -c1-100)" ||
  fail "pull of a run being trained: exit $rc ($(cat "$T/pull-busy.log"))"

# A home with another run: its branch and session ids are taken, which a pull renumbers.
"$CLI" train --home "$T/o" --run other --data synthetic --epochs 1 --steps-per-epoch 20 --save-freq 100 --interrupt-at-step 2 >/dev/null 2>&1
"$CLI" pull --home "$T/o" --remote "$R/spot" >"$T/pull5.log" 2>&1; rc_pull=$?
"$CLI" resume --home "$T/o" --run r >"$T/o.log" 2>&1; rc_resume=$?
if ((rc_pull == 0 && rc_resume == 0)) && [[ $(sha_of "$T/o.log") == "$U" ]] && "$CLI" runs --home "$T/o" | grep -q other; then
  pass "pull into a home with another run (branch and session ids renumbered): resumed to $U"
else
  fail "pull into a home with another run: pull $rc_pull, resume $rc_resume ($(cat "$T/pull5.log" | tail -2))"
fi
# Its checkpoint ids taken by another run: the pulled checkpoints get new ids and keep the ones their files
# name; verify, resume and a later sync (under the files' ids) all work with them.
"$CLI" train --home "$T/o2" --run other --data synthetic --epochs 1 --steps-per-epoch 100 --save-freq 10 --keep 20 >/dev/null 2>&1
"$CLI" pull --home "$T/o2" --remote "$R" --run r >"$T/pull6.log" 2>&1; rc_pull=$?  # check 2's run, ids 7 and 8
"$CLI" verify --home "$T/o2" >"$T/verify6.log" 2>&1; rc_verify=$?
"$CLI" resume --home "$T/o2" --run r --remote "$R/moved" --checkpoint "$("$CLI" checkpoints --home "$T/o2" --run r --json |
  /usr/bin/python3 -c 'import json,sys; print([c["id"] for c in json.load(sys.stdin) if c["state"]=="committed"][0])')" \
  >"$T/o2.log" 2>&1; rc_resume=$?
"$CLI" pull --home "$T/o3" --remote "$R/moved" >"$T/pull7.log" 2>&1; rc_pull2=$?
"$CLI" verify --home "$T/o3" >"$T/verify7.log" 2>&1; rc_verify2=$?
ids=$("$CLI" checkpoints --home "$T/o2" --run r --json | /usr/bin/python3 -c 'import json,sys; print(" ".join(str(c["id"]) for c in json.load(sys.stdin)))')
if ((rc_pull == 0 && rc_verify == 0 && rc_resume == 0 && rc_pull2 == 0 && rc_verify2 == 0)) && [[ $(sha_of "$T/o2.log") == "$U" ]]; then
  pass "pull into a home whose checkpoint ids another run took: new ids ($ids), verify passes, a rollback-resume ends at $U, its sync pulls into a third home that verifies"
else
  fail "pull with ids taken: pull $rc_pull, verify $rc_verify, resume $rc_resume, second pull $rc_pull2, verify $rc_verify2 ($(tail -n 2 "$T/pull6.log" "$T/verify6.log" "$T/o2.log" "$T/pull7.log" "$T/verify7.log"))"
fi
fi

if only core; then
SAVEPOINT_FAULT_TRACE="$T/trace" "$CLI" pull --home "$T/trace-home" --remote "$R/spot" >/dev/null 2>&1
k=$(grep -n '\.svpt' "$T/trace" | head -1 | cut -d: -f1)
SAVEPOINT_FAULT_AT=$k SAVEPOINT_FAULT_ERRNO=ENOSPC SAVEPOINT_FAULT_PERSIST=1 \
  "$CLI" pull --home "$T/full" --remote "$R/spot" >"$T/full.log" 2>&1; rc=$?
runs=$("$CLI" runs --home "$T/full" --json 2>/dev/null | tr -d ' \n')
if ((rc == 1)) && grep -q "No space left" "$T/full.log" && [[ $runs == "[]" ]] &&
   [[ -z $(find "$T/full" -name '*.svpt*' 2>/dev/null) ]]; then
  pass "disk full during pull (operation $k): exit 1, $(grep -m1 -o 'error: .*' "$T/full.log" | cut -c1-100), no run, no file"
else
  fail "disk full during pull (operation $k): exit $rc, runs '$runs', files $(find "$T/full" -name '*.svpt*' | wc -l): $(tail -2 "$T/full.log")"
fi

# 6. Killed right after an upload: a manifest never names a missing or partial file; the next start redoes it.
# manifest_names_files PREFIX: every manifest's file is there, with the manifest's size.
manifest_names_files() {
  local listing
  listing=$(s3 GET "/$SAVEPOINT_S3_BUCKET?list-type=2&prefix=$1/")
  /usr/bin/python3 - "$listing" "$1" <<'PY'
import re, sys, json, subprocess, os
listing, prefix = sys.argv[1], sys.argv[2]
objs = {k: int(s) for k, s in re.findall(r"<Key>([^<]*)</Key>.*?<Size>(\d+)</Size>", listing)}
bad = 0
for key in objs:
    if "/manifests/" not in key: continue
    m = json.loads(subprocess.run(["/usr/bin/python3", os.environ["S3REQ"], "GET", "/" + os.environ["SAVEPOINT_S3_BUCKET"] + "/" + key],
                                  capture_output=True).stdout)
    f = key.replace("/manifests/", "/checkpoints/").replace(".json", ".svpt")
    if objs.get(f) != m["checkpoint"]["bytes"]:
        print(f"{key} names {f}: expected {m['checkpoint']['bytes']} bytes, found {objs.get(f)}"); bad = 1
sys.exit(bad)
PY
}
SAVEPOINT_REMOTE_CRASH_AFTER=2 "$CLI" train --home "$T/k" --run r "${ARGS[@]}" --remote "$R/kill" >"$T/k.log" 2>&1; rc=$?
why=$(manifest_names_files "$P/kill"); ok=$?
before=$(keys "$P/kill/r/manifests/" | wc -l)
# A resume without --remote trains on and says what is still owed; the one with it (nothing left to train) uploads it.
"$CLI" resume --home "$T/k" --run r >"$T/k1.log" 2>&1; rc1=$?
grep -q "not yet in $R/kill; resume with --remote $R/kill" "$T/k1.log" || fail "resume without --remote: no note of the uploads still owed ($(head -3 "$T/k1.log"))"
"$CLI" resume --home "$T/k" --run r --remote "$R/kill" >"$T/k2.log" 2>&1; rc2=$?
why2=$(manifest_names_files "$P/kill"); ok2=$?
pending=$("$CLI" checkpoints --home "$T/k" --run r --json | grep -c '"state": "pending"')
after=$(keys "$P/kill/r/manifests/" | wc -l)
if ((rc == 137 && ok == 0 && rc1 == 0 && rc2 == 0 && ok2 == 0 && pending == 0 && after > before)); then
  pass "killed after its 2nd object upload (exit 137): $before manifest(s), each naming a whole file; resume without --remote says what is owed, then resume --remote: $after, none pending"
else
  fail "kill during upload: exit $rc/$rc1/$rc2, manifests $before -> $after, pending $pending: ${why}${why2}"
fi

fi

if only more; then
# 7. The store down for a while, then back.
LONG=(--data synthetic --model mlp --epochs 3 --steps-per-epoch 300 --batch 16 --save-freq 50 --threads 1 --seed 11)
"$CLI" train --home "$T/u7" --run r "${LONG[@]}" >"$T/u7.log" 2>&1
/usr/bin/python3 "$HERE/tcp_relay.py" 0 "${AWS_ENDPOINT_URL##*:}" "$T/down" >"$T/relay.port" &
relay=$!
for i in $(seq 1 100); do [[ -s $T/relay.port ]] && break; sleep 0.05; done
relay_port=$(head -1 "$T/relay.port")
AWS_ENDPOINT_URL=http://127.0.0.1:$relay_port "$CLI" train --home "$T/d" --run r "${LONG[@]}" --remote "$R/down" \
  --remote-grace-seconds 60 >"$T/d.log" 2>&1 &
pid=$!
for i in $(seq 1 300); do grep -q "^uploaded checkpoint" "$T/d.log" && break; sleep 0.05; done
touch "$T/down"  # the store goes away
for i in $(seq 1 100); do grep -q "failed (retrying" "$T/d.log" && break; sleep 0.05; done
sleep 1
rm -f "$T/down"  # and comes back
wait $pid; rc=$?
kill $relay 2>/dev/null; wait $relay 2>/dev/null
left=$("$CLI" checkpoints --home "$T/d" --run r --json | grep -c -e '"state": "pending"' -e '"state": "failed"')
committed=$("$CLI" checkpoints --home "$T/d" --run r --json | grep -c '"state": "committed"')
up=$(keys "$P/down/r/manifests/" | wc -l)
if ((rc == 0 && left == 0 && up == committed)) && [[ $(sha_of "$T/d.log") == "$(sha_of "$T/u7.log")" ]] &&
   grep -q "failed (retrying in" "$T/d.log" && ! grep -q "not uploaded yet" "$T/d.log"; then
  pass "store down mid-run: training went on (params as without), $(grep -c 'failed (retrying' "$T/d.log") failed upload(s) said and retried, all $committed committed uploaded once it came back"
else
  fail "store down mid-run: exit $rc, $left pending or failed, $up of $committed manifests, params $(sha_of "$T/d.log") vs $(sha_of "$T/u7.log"): $(grep -m2 -e 'failed' -e 'remote:' "$T/d.log")"
fi

fi

# No secret anywhere: not in any output, registry (and its WAL), checkpoint or manifest this test made.
if leaks=$(grep -rl -e "$AWS_SECRET_ACCESS_KEY" -e "$AWS_ACCESS_KEY_ID" "$T" 2>/dev/null); then
  fail "credentials found in: $leaks"
else
  pass "neither the secret nor the access key is in any of the $(find "$T" -type f | wc -l) files this test made (outputs, registries, checkpoints)"
fi

s3_cleanup "$P"
echo "$fails failure(s)"
exit $((fails > 0))
