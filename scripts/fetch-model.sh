#!/usr/bin/env bash
# Fetch the Vosk small English model once (make model), check it, unpack it into
#   ${XDG_DATA_HOME:-~/.local/share}/clinkbox/models/vosk-model-small-en-us-0.15/
# Safe to run again: a model already in place is left alone.
#
# Overrides (for mirrors and for the tests, which have no internet):
#   CLINKBOX_MODEL_URL     where to get the zip (https://, http:// or file://)
#   CLINKBOX_MODEL_SHA256  its SHA-256; pinned for the default URL, unchecked for another
#                          URL unless given
#   CLINKBOX_MODEL_SIZE    its size in bytes; same rule
#   CLINKBOX_MODEL_NAME    the folder inside the zip (default vosk-model-small-en-us-0.15)
#   CLINKBOX_DATA_DIR      the box's data folder (default $XDG_DATA_HOME/clinkbox)
set -euo pipefail

DEFAULT_URL=https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip
# The model page publishes no checksum: these are the archive's as downloaded, the same
# size and SHA-256 recorded independently by several projects that pin this file.
DEFAULT_SHA256=30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498
DEFAULT_SIZE=41205931

URL="${CLINKBOX_MODEL_URL:-$DEFAULT_URL}"
if [ "$URL" = "$DEFAULT_URL" ]; then
  SHA256="${CLINKBOX_MODEL_SHA256:-$DEFAULT_SHA256}"
  SIZE="${CLINKBOX_MODEL_SIZE:-$DEFAULT_SIZE}"
else
  SHA256="${CLINKBOX_MODEL_SHA256:-}"
  SIZE="${CLINKBOX_MODEL_SIZE:-}"
fi
NAME="${CLINKBOX_MODEL_NAME:-vosk-model-small-en-us-0.15}"
DATA_DIR="${CLINKBOX_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/clinkbox}"
MODELS="$DATA_DIR/models"
DEST="$MODELS/$NAME"
NEED_MB=150  # the zip, and the model unpacked next to it

say() { printf 'fetch-model: %s\n' "$*"; }
fail() { printf 'fetch-model: %s\n' "$*" >&2; exit 1; }

# the files every Vosk model needs; a model with neither graph is no model
model_complete() {
  [ -f "$1/am/final.mdl" ] && [ -f "$1/conf/model.conf" ] &&
    { [ -f "$1/graph/HCLG.fst" ] || { [ -f "$1/graph/HCLr.fst" ] && [ -f "$1/graph/Gr.fst" ]; }; }
}

if model_complete "$DEST"; then
  say "already there: $DEST"
  exit 0
fi
for tool in unzip sha256sum; do
  command -v "$tool" >/dev/null || fail "needs '$tool' (sudo apt install $tool)"
done

mkdir -p "$MODELS"
free_mb=$(df -Pm "$MODELS" | awk 'NR == 2 { print $4 }')
if [ "${free_mb:-0}" -lt "$NEED_MB" ]; then
  fail "only ${free_mb} MB free in $MODELS; the model needs about $NEED_MB MB"
fi

WORK="$(mktemp -d "$MODELS/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ZIP="$WORK/model.zip"

say "downloading $URL"
if command -v curl >/dev/null; then
  curl --fail --location --silent --show-error --retry 3 --output "$ZIP" "$URL" ||
    fail "could not download $URL (no internet? try again later, or set CLINKBOX_MODEL_URL)"
else
  python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
    "$URL" "$ZIP" || fail "could not download $URL"
fi

got_size=$(stat -c %s "$ZIP")
if [ -n "$SIZE" ] && [ "$got_size" != "$SIZE" ]; then
  fail "the download is $got_size bytes, not $SIZE: cut short or changed upstream; nothing installed"
fi
if [ -n "$SHA256" ]; then
  got_sha=$(sha256sum "$ZIP" | cut -d' ' -f1)
  [ "$got_sha" = "$SHA256" ] ||
    fail "the download's SHA-256 is $got_sha, not $SHA256; nothing installed"
  say "SHA-256 matches"
fi
unzip -tq "$ZIP" >/dev/null || fail "the zip is damaged (unzip -t failed); nothing installed"

# every entry must sit inside the model's folder: no absolute paths, no way out with ..
listing=$(unzip -Z1 "$ZIP")
while IFS= read -r entry; do
  case "$entry" in
    "$NAME"/*) ;;
    *) fail "unexpected entry '$entry' in the zip (expected everything under $NAME/)" ;;
  esac
  case "/$entry/" in
    */../*) fail "unsafe entry '$entry' in the zip" ;;
  esac
done <<<"$listing"

unzip -q "$ZIP" -d "$WORK/unpacked"
model_complete "$WORK/unpacked/$NAME" ||
  fail "the zip has no complete model (am/final.mdl, conf/model.conf, graph/...); nothing installed"

rm -rf "$DEST"
mv "$WORK/unpacked/$NAME" "$DEST"
say "installed $DEST ($(du -sm "$DEST" | cut -f1) MB)"
