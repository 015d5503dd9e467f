#!/usr/bin/env bash
# Starts a real S3-compatible server on loopback for the remote tests: OpenStack
# Swift from Debian (account, container and object servers, and the proxy with
# its s3api and tempauth middleware), one device in a temporary directory, and
# creates the bucket. Writes $SAVEPOINT_S3_DIR/env (the AWS_* variables the
# tests source). Without Swift installed it says SKIP and writes no env file, so
# that the tests skip (ctest runs this as a FIXTURES_SETUP).
#
#   tests/remote/s3_server_start.sh        # then: . /tmp/savepoint-s3/env
#   tests/remote/s3_server_stop.sh
set -euo pipefail
dir=${SAVEPOINT_S3_DIR:-/tmp/savepoint-s3-$(id -u)}
port=${SAVEPOINT_S3_PORT:-auto}
if [[ $port == auto ]]; then
  # Four free ports in a row (the proxy's and three servers'), so that two builds' tests can run at once.
  port=$(/usr/bin/python3 -c '
import random, socket
for _ in range(200):
    base = random.randrange(20000, 40000, 4)
    try:
        socks = [socket.socket() for _ in range(4)]
        for i, s in enumerate(socks): s.bind(("127.0.0.1", base + i))
        print(base); break
    except OSError: pass
    finally:
        for s in socks: s.close()')
fi
bucket=${SAVEPOINT_S3_BUCKET:-savepoint-test}
for b in swift-proxy-server swift-account-server swift-container-server swift-object-server swift-ring-builder curl; do
  command -v "$b" >/dev/null || { echo "SKIP: $b is not installed (packaging/setup-debian.sh --tests installs Swift)"; exit 0; }
done
[[ -r /etc/swift/swift.conf ]] || { echo "SKIP: /etc/swift/swift.conf is missing (Debian's swift package writes it)"; exit 0; }

"$(dirname "$0")/s3_server_stop.sh" >/dev/null 2>&1 || true
rm -rf "$dir"
mkdir -p "$dir/etc" "$dir/srv/d1" "$dir/log"
t0=$(date +%s)

# Ports: the proxy's, then object, container, account servers' just above it.
declare -A ports=([object]=$((port + 1)) [container]=$((port + 2)) [account]=$((port + 3)))
for kind in object container account; do
  swift-ring-builder "$dir/etc/$kind.builder" create 0 1 1 >/dev/null
  swift-ring-builder "$dir/etc/$kind.builder" add "r1z1-127.0.0.1:${ports[$kind]}/d1" 1 >/dev/null
  swift-ring-builder "$dir/etc/$kind.builder" rebalance >/dev/null 2>&1 || true
  cat >"$dir/etc/$kind-server.conf" <<CONF
[DEFAULT]
devices = $dir/srv
mount_check = false
disable_fallocate = true
bind_ip = 127.0.0.1
bind_port = ${ports[$kind]}
workers = 0
swift_dir = $dir/etc
log_udp_host = 127.0.0.1
log_udp_port = 9

[pipeline:main]
pipeline = $kind-server

[app:$kind-server]
use = egg:swift#$kind
CONF
done

cat >"$dir/etc/proxy-server.conf" <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $port
workers = 0
swift_dir = $dir/etc
log_udp_host = 127.0.0.1
log_udp_port = 9

[pipeline:main]
pipeline = catch_errors gatekeeper proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:1
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
[filter:s3api]
use = egg:swift#s3api
location = us-east-1
# The tests upload in small parts; AWS's minimum is 5 MiB.
min_segment_size = 1
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = sp-secret-5e2c9 .admin
CONF

for kind in account container object; do
  nohup "swift-$kind-server" "$dir/etc/$kind-server.conf" >"$dir/log/$kind.log" 2>&1 &
  echo $! >"$dir/$kind.pid"
done
nohup swift-proxy-server "$dir/etc/proxy-server.conf" >"$dir/log/proxy.log" 2>&1 &
echo $! >"$dir/proxy.pid"

cat >"$dir/env" <<ENV
export AWS_ACCESS_KEY_ID=test:tester
export AWS_SECRET_ACCESS_KEY=sp-secret-5e2c9
export AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$port
export SAVEPOINT_S3_BUCKET=$bucket
ENV
# The bucket is created once the proxy and the servers behind it answer.
. "$dir/env"
req="/usr/bin/python3 $(cd "$(dirname "$0")" && pwd)/s3_request.py"
for i in $(seq 1 240); do
  if $req PUT "/$bucket" >"$dir/log/bucket.txt" 2>&1 || grep -q BucketAlreadyExists "$dir/log/bucket.txt"; then
    if $req GET "/$bucket?list-type=2" >/dev/null 2>&1; then
      echo "Swift's S3 API is up on 127.0.0.1:$port (bucket $bucket) after $(( $(date +%s) - t0 )) s; env: $dir/env"
      exit 0
    fi
  fi
  sleep 0.25
done
echo "FAIL: Swift did not answer within 60 s; logs in $dir/log" >&2
tail -n 5 "$dir"/log/*.log "$dir/log/bucket.txt" >&2
rm -f "$dir/env"
exit 1
