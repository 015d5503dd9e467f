#!/usr/bin/env bash
# Checks that what points into the documentation still lands somewhere
# (docs/TESTING.md, "Document references" says the rules):
# - every doc path (docs/NAME.md, docs/SUB/NAME.md) named in the code, the build, the scripts and
#   CI (engine app ui tests tools packaging examples .ci, CMakeLists.txt, CMakePresets.json) is a
#   file; where ", " follows the path, the words after it, up to the first ) , ; : ] ` " \ or a
#   full stop, are a section, and the doc must have a heading (#..######, outside code blocks)
#   that contains them, ignoring case, backticks, asterisks and runs of spaces; a leading
#   "section" and quotes are dropped; a section cut by the end of a comment line goes on in the
#   next comment line;
# - every markdown link ([text](target), images too) in README.md, CONTRIBUTING.md and the .md
#   files under docs/, examples/ and tests/ names a file or folder that exists, and a #anchor
#   into a .md file is the GitHub anchor of one of its headings.
# A failure listed in tools/doc-references.expected ("FILE DOC, SECTION" a line) is reported
# but does not fail the check; a listed one that no longer fails does.
#
#   tools/check-doc-references.sh [SRC]              exit 0 when all resolve, 1 naming each that does not
#   tools/check-doc-references.sh [SRC] --self-test  negative control: a copy with planted bad ones must fail
set -uo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
SRC="" self_test=0
for a in "$@"; do
  case $a in
    --self-test) self_test=1 ;;
    -h | --help) sed -n '2,18p' "$self"; exit 0 ;;
    *) SRC=$a ;;
  esac
done
SRC=${SRC:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -d $SRC ]] || { echo "check-doc-references: no directory $SRC"; exit 2; }

# The awk programs: one shared normalisation, then what each pass prints (tab-separated).
read -r -d '' AWK_LIB <<'EOF'
function norm(s) {  # what "contains" compares: no backticks or asterisks, single spaces, lower case
  gsub(/[`*]/, "", s); gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
  return tolower(s)
}
function slug(s,   t) {  # GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen
  t = tolower(s); gsub(/[`*]/, "", t); sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t)
  gsub(/[!-,.\/:-@[-^`{-~]/, "", t)   # every ASCII punctuation mark but - and _,
  gsub(/–|—|·|…|×|±|≤|≥|→|←|‘|’|“|”|°/, "", t)   # and the typographic ones these docs use
  gsub(/[ \t]/, "-", t)
  return t
}
function heading_text(line) {  # "## Text ##" -> "Text", "" when the line is no heading
  if (line !~ /^#+[ \t]/ || line ~ /^#######/) return ""
  sub(/^#+[ \t]+/, "", line); sub(/[ \t]+#+[ \t]*$/, "", line); sub(/[ \t]+$/, "", line)
  return line
}
function fence(line) { return line ~ /^[ \t]*(```|~~~)/ }
EOF

# Headings: H <tab> file <tab> normalised text <tab> anchor, for every .md file given.
read -r -d '' AWK_HEADINGS <<'EOF'
FNR == 1 { infence = 0; delete seen }
fence($0) { infence = !infence; next }
infence { next }
{
  h = heading_text($0); if (h == "") next
  a = slug(h); n = seen[a]++; if (n) a = a "-" n
  print "H\t" FILENAME "\t" norm(h) "\t" a
}
EOF

# References in code: R <tab> file <tab> line <tab> doc <tab> section (empty: the file alone).
read -r -d '' AWK_REFS <<'EOF'
function lead(s) {  # "section \"Words\"" -> "Words\"": a leading "section" and quote dropped
  sub(/^[ \t]+/, "", s); sub(/^[Ss]ection[ \t]+/, "", s); sub(/^\\?["`]/, "", s)
  return s
}
function take(s,   i, c, n, out) {  # the words up to a terminator; term: whether one was found
  term = 0; out = ""; n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (index(")],;:`\"\\", c)) { term = 1; break }
    if (c == "." && (i == n || substr(s, i + 1, 1) ~ /[ \t]/)) { term = 1; break }
    out = out c
  }
  return out
}
function comment_text(s) {  # a comment line's text without its marker, or "" (term) when it is none
  sub(/^[ \t]+/, "", s)
  if (s ~ /^\/\/+/) { sub(/^\/\/+[ \t]*/, "", s); return s }
  if (s ~ /^#+([ \t]|$)/) { sub(/^#+[ \t]*/, "", s); return s }
  if (s ~ /^\*+([ \t]|$)/) { sub(/^\*+[ \t]*/, "", s); return s }
  if (s ~ /^--+([ \t]|$)/) { sub(/^--+[ \t]*/, "", s); return s }
  return "\001"
}
function emit(file, line, doc, sec) { print "R\t" file "\t" line "\t" doc "\t" sec }
function flush() { if (pend) emit(pfile, pline, pdoc, psec); pend = 0 }
FNR == 1 { flush() }
{
  text = $0
  if (pend) {  # the section of the previous line's last reference goes on here
    c = comment_text(text)
    if (c == "\001") flush()
    else {
      part = (psec == "" ? take(lead(c)) : take(c)); psec = (psec == "" ? part : psec " " part)
      if (term || ++pcont >= 2) flush()
    }
  }
  rest = text
  while (match(rest, /docs\/[A-Za-z0-9_\/-]+\.md/)) {
    doc = substr(rest, RSTART, RLENGTH); after = substr(rest, RSTART + RLENGTH); rest = after
    if (after !~ /^,([ \t]|$)/) { emit(FILENAME, FNR, doc, ""); continue }
    sub(/^,/, "", after)
    if (after ~ /^[ \t]*$/) { flush(); pend = 1; pfile = FILENAME; pline = FNR; pdoc = doc; psec = ""; pcont = 0; break }
    sec = take(lead(after))
    if (term || match(rest, /docs\/[A-Za-z0-9_\/-]+\.md/)) { emit(FILENAME, FNR, doc, sec); continue }
    flush(); pend = 1; pfile = FILENAME; pline = FNR; pdoc = doc; psec = sec; pcont = 0
  }
}
END { flush() }
EOF

# Links in markdown: L <tab> file <tab> line <tab> target as written <tab> path from SRC <tab> anchor.
read -r -d '' AWK_LINKS <<'EOF'
function resolve(base, target,   n, i, parts, out, k, m) {  # base dir + relative target, . and .. folded
  n = split((base == "" ? "" : base "/") target, parts, "/"); k = 0
  for (i = 1; i <= n; i++) {
    if (parts[i] == "" || parts[i] == ".") continue
    if (parts[i] == "..") { if (k == 0) return "../" target; k--; continue }
    out[++k] = parts[i]
  }
  m = ""; for (i = 1; i <= k; i++) m = m (i > 1 ? "/" : "") out[i]
  return m
}
FNR == 1 { infence = 0; base = FILENAME; if (!sub(/\/[^\/]*$/, "", base)) base = "" }
fence($0) { infence = !infence; next }
infence { next }
{
  s = $0; gsub(/`[^`]*`/, "", s)   # inline code is no link
  while (match(s, /\]\([^)]*\)/)) {
    t = substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
    sub(/^[ \t]*</, "", t); sub(/>[ \t]*$/, "", t); sub(/[ \t]+"[^"]*"[ \t]*$/, "", t); sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t)
    if (t == "" || t ~ /^[A-Za-z][A-Za-z0-9+.-]*:/) continue   # http:, https:, mailto: ...
    anchor = ""; p = t
    if (i = index(p, "#")) { anchor = substr(p, i + 1); p = substr(p, 1, i - 1) }
    path = (p == "" ? FILENAME : resolve(base, p))
    print "L\t" FILENAME "\t" FNR "\t" t "\t" path "\t" anchor
  }
}
EOF

# The final pass: every R and L record against the headings and the files that exist.
read -r -d '' AWK_CHECK <<'EOF'
BEGIN { FS = "\t" }
$1 == "H" { heads[$2] = heads[$2] "\n" $3; anchors[$2 "#" $4] = 1; next }
$1 == "F" { exists[$2] = 1; next }
$1 == "X" { xkey[$2] = $3; next }
$1 == "R" {
  nrefs++; if ($5 != "") nsec++
  if (!($4 in exists)) { fail($2 ":" $3 ": " $4 ": no such file", $2 "|" $4 "|" norm($5)); next }
  if ($5 == "") next
  sec = norm($5)
  if (sec == "") { fail($2 ":" $3 ": " $4 ", (no words after the comma): name a section, or drop the comma", $2 "|" $4 "|"); next }
  if (index(heads[$4], sec) == 0) fail($2 ":" $3 ": " $4 " has no heading containing \"" sec "\"", $2 "|" $4 "|" sec)
  next
}
$1 == "L" {
  nlinks++; files[$2] = 1
  if (!($5 in exists)) { fail($2 ":" $3 ": link (" $4 "): no such file or folder " $5, ""); next }
  if ($6 != "" && $5 ~ /\.md$/ && !(($5 "#" $6) in anchors))
    fail($2 ":" $3 ": link (" $4 "): " $5 " has no heading whose anchor is #" $6, "")
  next
}
function fail(msg, key) {
  if (key != "" && (key in xkey)) { expected[key] = msg; return }
  print msg; bad++
}
END {
  for (k in xkey) if (!(k in expected)) {
    print xkey[k] ": listed in tools/doc-references.expected, but it resolves now (or its file is gone): remove the line"; bad++
  }
  nx = 0; for (k in expected) { nx++; print "expected failure (tools/doc-references.expected): " expected[k] }
  nf = 0; for (f in files) nf++
  if (bad) { print "check-doc-references: " bad " reference(s) or link(s) that do not resolve (docs/TESTING.md, document references)"; exit 1 }
  printf "check-doc-references: %d doc references in code (%d with a section) and %d links in %d markdown files resolve%s\n", \
    nrefs, nsec, nlinks, nf, (nx ? " (" nx " expected failure(s) listed)" : "")
}
EOF

check() {  # SRC: prints each problem, exit status 1 when there is one
  local src=$1 w code_files md_files
  cd "$src" || return 2
  w=$(mktemp -d) || return 2
  mapfile -t code_files < <(grep -rlIE 'docs/[A-Za-z0-9_/-]+\.md' engine app ui tests tools packaging examples .ci \
    CMakeLists.txt CMakePresets.json 2>/dev/null | grep -vE '^tools/(check-doc-references\.sh|doc-references\.expected)$' | sort)
  mapfile -t md_files < <({ ls README.md CONTRIBUTING.md 2>/dev/null; find docs examples tests -name '*.md' -type f 2>/dev/null; } | sort -u)
  : >"$w/links"
  if ((${#md_files[@]})); then
    awk "$AWK_LIB $AWK_HEADINGS" "${md_files[@]}" >"$w/heads"
    awk "$AWK_LIB $AWK_LINKS" "${md_files[@]}" >"$w/links"
  fi
  {
    cat "$w/heads" 2>/dev/null
    find docs -name '*.md' -type f 2>/dev/null | sed 's/^/F\t/'
    cut -f5 "$w/links" | sort -u | while IFS= read -r p; do [[ -n $p && $p != ../* && -e $p ]] && printf 'F\t%s\n' "$p"; done
    [[ -f tools/doc-references.expected ]] &&
      awk "$AWK_LIB"' !/^[ \t]*(#|$)/ { f = $1; d = $2; sub(/,$/, "", d); s = $0; sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]*/, "", s)
             print "X\t" f "|" d "|" norm(s) "\t" f ": " d ", " s }' tools/doc-references.expected
    ((${#code_files[@]})) && awk "$AWK_LIB $AWK_REFS" "${code_files[@]}"
    cat "$w/links"
  } | awk "$AWK_LIB $AWK_CHECK"
  local rc=${PIPESTATUS[1]}
  rm -rf "$w"
  return "$rc"
}

if ((self_test == 0)); then
  check "$SRC"
  exit $?
fi

# --self-test: a copy of docs/ with planted bad references and links must fail, naming each,
# and must not name the good ones planted beside them; an expected failure must pass, a stale one fail.
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cp -r "$SRC/docs" "$t/docs"
mkdir -p "$t/engine/x" "$t/tools"
cat >"$t/engine/x/planted.h" <<'EOF'
// good: the file alone (docs/PERFORMANCE.md), a section (docs/PERFORMANCE.md, capture mode).
// bad 1: a doc that is not there (docs/NO-SUCH-DOC.md, anything).
// bad 2: a section no heading has (docs/PERFORMANCE.md, planted missing section).
// bad 3, across two lines: see docs/CUDA.md,
// planted wrapped section). good: docs/CUDA.md, section "The GPU check".
// expected: (docs/REMOTE.md, planted expected section).
EOF
cat >"$t/docs/PLANTED.md" <<'EOF'
# Planted

A good link: [the GPU check](CUDA.md#the-gpu-check); bad 4: [gone](NO-SUCH-FILE.md); bad 5:
[no anchor](CUDA.md#planted-no-such-anchor). Not a link: `[x](NOT-CHECKED.md)`.
EOF
cat >"$t/tools/doc-references.expected" <<'EOF'
# planted: one that still fails, one that no longer does
engine/x/planted.h docs/REMOTE.md, planted expected section
engine/x/planted.h docs/PERFORMANCE.md, capture mode
EOF
out=$(check "$t"); rc=$?
bad=0
say() { echo "self-test: $*"; bad=1; }
((rc == 1)) || say "expected exit 1 from the planted copy, got $rc"
for want in 'planted.h:2: docs/NO-SUCH-DOC.md: no such file' \
  'planted.h:3: docs/PERFORMANCE.md has no heading containing "planted missing section"' \
  'planted.h:4: docs/CUDA.md has no heading containing "planted wrapped section"' \
  'docs/PLANTED.md:3: link (NO-SUCH-FILE.md): no such file' \
  'docs/PLANTED.md:4: link (CUDA.md#planted-no-such-anchor): docs/CUDA.md has no heading whose anchor' \
  'engine/x/planted.h: docs/PERFORMANCE.md, capture mode: listed in tools/doc-references.expected, but it resolves now' \
  'expected failure (tools/doc-references.expected): engine/x/planted.h:6: docs/REMOTE.md has no heading containing "planted expected section"'; do
  grep -qF -- "$want" <<<"$out" || say "not reported: $want"
done
for unwanted in 'planted.h:1:' 'planted.h:5:' 'the-gpu-check' 'NOT-CHECKED' ; do
  grep -qF -- "$unwanted" <<<"$out" && say "a good one reported ($unwanted)"
done
if ((bad)); then
  echo "self-test: the checker's output on the planted copy was:"; sed 's/^/  /' <<<"$out"; exit 1
fi
echo "self-test: ok: 3 bad references, 2 bad links and a stale expected failure fail, each named; the good ones and an expected failure pass"
