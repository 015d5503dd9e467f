#!/usr/bin/python3
"""One signed S3 request (AWS SigV4, Python's standard library only), for the
remote tests' setup and for changing objects behind Savepoint's back. curl's
own --aws-sigv4 cannot be used here: tempauth's access keys hold a colon,
where curl's --user splits the key from the secret.

  s3_request.py METHOD /BUCKET[/KEY] [FILE]     # credentials from AWS_* (env)
Prints the answer's body (GET) and exits 0 on 2xx, 1 otherwise."""
import datetime, hashlib, hmac, os, sys, urllib.parse, urllib.request

method, path = sys.argv[1], sys.argv[2]
body = open(sys.argv[3], "rb").read() if len(sys.argv) > 3 else b""
endpoint = os.environ["AWS_ENDPOINT_URL"].rstrip("/")
region = os.environ.get("AWS_REGION", "us-east-1")
key, secret = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
host = urllib.parse.urlparse(endpoint).netloc
now = datetime.datetime.utcnow()
amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
path_only, _, query = path.partition("?")
# SigV4 wants each name and value %-encoded (a '/' too), and sorted.
pairs = sorted((urllib.parse.unquote(n), urllib.parse.unquote(v)) for n, _, v in
               (q.partition("=") for q in query.split("&") if q))
canonical_query = "&".join(urllib.parse.quote(n, safe="-_.~") + "=" + urllib.parse.quote(v, safe="-_.~") for n, v in pairs)
headers = {"host": host, "x-amz-content-sha256": "UNSIGNED-PAYLOAD", "x-amz-date": amz_date}
signed = ";".join(sorted(headers))
canonical = "\n".join([method, urllib.parse.quote(path_only), canonical_query,
                       "".join(f"{k}:{headers[k]}\n" for k in sorted(headers)), signed, "UNSIGNED-PAYLOAD"])
scope = f"{day}/{region}/s3/aws4_request"
to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
k = ("AWS4" + secret).encode()
for part in (day, region, "s3", "aws4_request"):
    k = hmac.new(k, part.encode(), hashlib.sha256).digest()
signature = hmac.new(k, to_sign.encode(), hashlib.sha256).hexdigest()
headers["Authorization"] = (f"AWS4-HMAC-SHA256 Credential={key}/{scope}, SignedHeaders={signed}, "
                            f"Signature={signature}")
req = urllib.request.Request(endpoint + urllib.parse.quote(path_only) + ("?" + canonical_query if query else ""), data=body if method in ("PUT", "POST") else None,
                             method=method, headers={k: v for k, v in headers.items() if k != "host"})
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        sys.stdout.buffer.write(r.read())
        sys.exit(0)
except urllib.error.HTTPError as e:
    sys.stdout.buffer.write(e.read())
    sys.exit(1)
except OSError as e:
    print(e, file=sys.stderr)
    sys.exit(1)
