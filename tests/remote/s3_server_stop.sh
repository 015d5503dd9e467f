#!/usr/bin/env bash
# Stops what s3_server_start.sh started (by the pids it wrote) and removes its directory.
dir=${SAVEPOINT_S3_DIR:-/tmp/savepoint-s3-$(id -u)}
for f in "$dir"/*.pid; do
  [[ -f $f ]] || continue
  kill "$(cat "$f")" 2>/dev/null
done
for f in "$dir"/*.pid; do
  [[ -f $f ]] || continue
  for i in $(seq 1 50); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$(cat "$f")" 2>/dev/null
done
rm -rf "$dir"
exit 0
