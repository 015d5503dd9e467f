# What the remote tests share (sourced, after HERE and CLI are set): the server's
# variables (or SKIP, exit 77, when s3_server_start.sh started none), a temporary
# directory removed at exit (KEEP_REMOTE_LOGS=1 keeps it), and small helpers.
S3DIR=${SAVEPOINT_S3_DIR:-/tmp/savepoint-s3-$(id -u)}
[[ -f $S3DIR/env ]] || { echo "SKIP: no S3 server (tests/remote/s3_server_start.sh did not start one: is Swift installed?)"; exit 77; }
. "$S3DIR/env"
T=$(mktemp -d "/tmp/savepoint-$1-XXXXXX")
trap '[[ -n ${KEEP_REMOTE_LOGS:-} ]] && echo "logs kept in $T" || rm -rf "$T"' EXIT
export S3REQ="$HERE/s3_request.py"
s3() { /usr/bin/python3 "$S3REQ" "$@"; }
keys() { s3 GET "/$SAVEPOINT_S3_BUCKET?list-type=2&prefix=$1" | grep -o '<Key>[^<]*</Key>' | sed 's/<[^>]*>//g'; }
s3_cleanup() { for k in $(keys "$1/"); do s3 DELETE "/$SAVEPOINT_S3_BUCKET/$k" >/dev/null; done; }
sha_of() { grep -o "params_sha256 [0-9a-f]*" "$1" | tail -1 | cut -d' ' -f2; }
