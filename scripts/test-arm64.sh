#!/usr/bin/env bash
# make test-arm64: the install and the whole suite on a Raspberry Pi's architecture (arm64),
# run here under emulation.
#
# 1. A Debian Bookworm arm64 root (debootstrap's minbase: less than Raspberry Pi OS Lite has)
#    is built once and kept in the cache folder; qemu-user-static and binfmt_misc run its
#    programs on this machine's CPU.
# 2. The checkout's files (tracked and new, not the ignored ones) are copied into it as
#    /home/pi/clinkbox, for the user pi (uid 1000, as on Raspberry Pi OS).
# 3. The install, as `make install` does it on a Pi: scripts/install.sh with --no-service
#    (a chroot has no systemd and no desktop: those steps are checked by the install's
#    --dry-run, which runs first) and --no-model (the Vosk model's host is not reachable
#    from every machine; the tests bring their own small models).
# 4. `make test` in the root, with pytest's per-test times (--durations).
#
# It needs root (debootstrap, chroot, mounts) and binfmt_misc with an arm64 interpreter; where
# either is missing it says so and exits with status 2. It installs this machine's packages
# for it (qemu-user-static, binfmt-support, debootstrap: the Makefile's ARM64_HOST_DEBS).
#
# Settings (environment):
#   CLINKBOX_ARM64_CACHE   the cache folder (default /var/cache/clinkbox-arm64); delete it to
#                          start from nothing
#   DEBIAN_MIRROR          default http://deb.debian.org/debian
#   PYTEST_ARGS            more arguments for pytest (e.g. "-k spotter")
# The log of the last run, and its phase times, are kept in the cache folder.
set -euo pipefail

CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${CLINKBOX_ARM64_CACHE:-/var/cache/clinkbox-arm64}"
ROOT="$CACHE/bookworm-arm64"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
BOX_USER=pi
BOX_HOME=/home/$BOX_USER
BOX_CHECKOUT=$BOX_HOME/clinkbox
TIMES="$CACHE/last-run-times.txt"

say() { printf '\n[test-arm64] %s\n' "$*"; }
stop() { printf 'test-arm64: %s\n' "$*" >&2; exit 2; }

# -- what this machine must offer -----------------------------------------------------------
[ "$(id -u)" -eq 0 ] || stop "needs root (debootstrap, chroot and mounts): run it as root, e.g. sudo make test-arm64"
if [ -n "${ARM64_HOST_DEBS:-}" ]; then
  # the Makefile's list: what this machine needs to build and run the root
  # shellcheck disable=SC2086
  bash "$CHECKOUT/scripts/debs.sh" $ARM64_HOST_DEBS || stop "could not install $ARM64_HOST_DEBS"
fi
[ "$(uname -m)" = aarch64 ] || [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || \
  [ -x /usr/bin/qemu-aarch64-static ] || stop "no qemu-user-static: apt-get install qemu-user-static binfmt-support debootstrap (make test-arm64 does)"
command -v debootstrap >/dev/null || stop "no debootstrap: apt-get install debootstrap (make test-arm64 does)"

if [ "$(uname -m)" != aarch64 ]; then
  # binfmt_misc lets the kernel hand arm64 programs to qemu; a container may not have it
  if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || \
      stop "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc failed): this machine cannot run arm64 programs; run make test-arm64 on a host (or a privileged container) that has binfmt_misc"
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    if command -v update-binfmts >/dev/null; then
      update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || \
    stop "binfmt_misc has no qemu-aarch64 entry (update-binfmts --enable qemu-aarch64 did not make one): this machine cannot run arm64 programs"
  grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 || \
    stop "binfmt_misc's qemu-aarch64 entry lacks the F flag, so programs inside a chroot cannot find qemu (Debian's qemu-user-static registers it with F)"
fi

started=$(date +%s)
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock -n 9 || stop "another make test-arm64 is running (it holds $CACHE/lock)"
: >"$TIMES"

phase_start=0
phase() { phase_start=$(date +%s); say "$*"; }
phase_end() {
  local secs=$(( $(date +%s) - phase_start ))
  printf '%-12s %5d s\n' "$1" "$secs" | tee -a "$TIMES"
}

# -- mounts, always undone -------------------------------------------------------------------
MOUNTED=()
mount_in() {  # mount_in TARGET ARGS...: mount, and remember to unmount
  local target="$1"; shift
  mount "$@" "$target"
  MOUNTED=("$target" "${MOUNTED[@]}")
}
unmount_all() {
  local m
  for m in "${MOUNTED[@]}"; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  MOUNTED=()
}
trap unmount_all EXIT
mounted_under_root() { findmnt -rn -o TARGET | grep -q "^$ROOT/"; }

# -- 1. the root, built once ----------------------------------------------------------------
if [ ! -f "$ROOT/.clinkbox-debootstrap-done" ]; then
  phase "debootstrap: Debian Bookworm arm64 (minbase) into $ROOT"
  if [ -e "$ROOT" ]; then
    mounted_under_root && stop "something is still mounted under $ROOT (a run cut short?): unmount it first (findmnt | grep $ROOT)"
    rm -rf "$ROOT"
  fi
  debootstrap --arch=arm64 --variant=minbase bookworm "$ROOT" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 || {
    tail -n 20 "$CACHE/debootstrap.log" >&2
    stop "debootstrap failed (log: $CACHE/debootstrap.log)"
  }
  cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
EOF
  touch "$ROOT/.clinkbox-debootstrap-done"
  phase_end debootstrap
else
  say "debootstrap: cached in $ROOT"
  printf '%-12s %5s\n' debootstrap cached >>"$TIMES"
fi

mounted_under_root && stop "something is still mounted under $ROOT (a run cut short?): unmount it first (findmnt | grep $ROOT)"
mount_in "$ROOT/proc" -t proc proc
mount_in "$ROOT/sys" --bind /sys
mount_in "$ROOT/dev" --bind /dev
mount_in "$ROOT/dev/pts" --bind /dev/pts
# onnxruntime reads /proc/cpuinfo at import (through the cpuinfo library) to learn the ARM
# CPU's features. Under qemu-user the kernel still shows this machine's own x86 cpuinfo, which
# onnxruntime's arm64 build cannot make sense of: it crashes (segmentation fault) on import.
# So the root sees a Raspberry Pi 4's cpuinfo (four Cortex-A72 cores) instead. Only the CPU
# part is given: without "Hardware", "Revision" and "Model" lines nothing takes the root for
# a Pi (the box itself looks at /proc/device-tree/model, which is absent here). A real Pi
# needs none of this.
PI4_CPUINFO="$CACHE/cpuinfo-pi4"
: >"$PI4_CPUINFO"
for n in 0 1 2 3; do
  cat >>"$PI4_CPUINFO" <<EOF
processor	: $n
BogoMIPS	: 108.00
Features	: fp asimd evtstrm crc32 cpuid
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x0
CPU part	: 0xd08
CPU revision	: 3

EOF
done
mount_in "$ROOT/proc/cpuinfo" --bind "$PI4_CPUINFO"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# the root trusts for HTTPS what this machine trusts: where the network inspects HTTPS, its
# certificate authority is in this machine's store and not in Debian's (pip would fail with
# "self-signed certificate in certificate chain")
CA_ENV=()
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$ROOT/etc/ssl"
  cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/host-ca-certificates.crt"
  CA_ENV=(PIP_CERT=/etc/ssl/host-ca-certificates.crt)
fi

# in the root: a clean environment, as a login on the Pi would have (none of this machine's
# pip or PATH settings)
# CLINKBOX_EMULATION tells the suite it runs emulated: the tests of the live box in real time
# (marked realtime) and the browser tests (Chromium's processes do not start under qemu-user)
# are skipped there, each saying why
EMU_ENV=()
[ "$(uname -m)" = aarch64 ] || EMU_ENV=(CLINKBOX_EMULATION=qemu-user)
in_root() {
  chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "${CA_ENV[@]}" "${EMU_ENV[@]}" "$@"
}
in_root /bin/true || stop "cannot run a program in the arm64 root (binfmt_misc and qemu)"
printf '[test-arm64] the root runs arm64 programs: uname -m says %s\n' "$(in_root uname -m)"

# -- 2. what the doc tells a user to install first; the user pi ------------------------------
phase "apt: the package lists, and git and make (docs/raspberry-pi.md's first step)"
in_root apt-get update -q >"$CACHE/apt.log" 2>&1 || { tail -n 20 "$CACHE/apt.log" >&2; stop "apt-get update failed in the root (log: $CACHE/apt.log)"; }
in_root apt-get install -y -q --no-install-recommends git make >>"$CACHE/apt.log" 2>&1 || {
  tail -n 20 "$CACHE/apt.log" >&2; stop "apt-get install git make failed in the root (log: $CACHE/apt.log)"; }
phase_end apt
if ! in_root getent passwd "$BOX_USER" >/dev/null; then
  in_root useradd -m -u 1000 -s /bin/bash "$BOX_USER"
fi

# -- the checkout: its tracked and new files; the venv and pip's cache stay from the last run --
say "copying the checkout into $BOX_CHECKOUT"
dest="$ROOT$BOX_CHECKOUT"
mkdir -p "$dest"
find "$dest" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
(cd "$CHECKOUT" && git ls-files -z --cached --others --exclude-standard | \
   while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done | \
   tar --null -T - -cf -) | tar -C "$dest" -xf -
in_root chown -R "$BOX_USER:$BOX_USER" "$BOX_HOME"

# -- 3. the install ------------------------------------------------------------------------
phase "install: scripts/install.sh --dry-run, then the install without the service steps"
in_root bash "$BOX_CHECKOUT/scripts/install.sh" --dry-run --force --no-model --user "$BOX_USER" \
  >"$CACHE/install-dry-run.log" 2>&1 || { cat "$CACHE/install-dry-run.log" >&2; stop "the install's dry run failed"; }
for step in "systemd service" "polkit rule" "Screen blanking" "auto-login"; do
  grep -q "$step" "$CACHE/install-dry-run.log" || stop "the install's dry run has no '$step' step"
done
echo "[test-arm64] the dry run lists every step (log: $CACHE/install-dry-run.log)"
in_root bash "$BOX_CHECKOUT/scripts/install.sh" --force --no-model --no-service --user "$BOX_USER" 2>&1 | \
  tee "$CACHE/install.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || stop "the install failed in the root (log: $CACHE/install.log)"
phase_end install

# -- 4. the suite ---------------------------------------------------------------------------
# the install made the run-time venv (with the system's packages, as on a Pi): make takes it
# as its own and adds what the tests need (Debian's test packages, the dev extras)
touch "$ROOT$BOX_CHECKOUT/.venv/.run-deps"
phase "test dependencies: make's .venv/.test-deps"
in_root make -C "$BOX_CHECKOUT" .venv/.test-deps 2>&1 | tee "$CACHE/test-deps.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || stop "installing the test dependencies failed (log: $CACHE/test-deps.log)"
in_root chown -R "$BOX_USER:$BOX_USER" "$BOX_CHECKOUT"
phase_end test-deps

phase "pytest (make test) as $BOX_USER, with per-test times"
set +e
in_root runuser -u "$BOX_USER" -- env HOME="$BOX_HOME" \
  make -C "$BOX_CHECKOUT" test PYTEST_ARGS="--durations=30 ${PYTEST_ARGS:-}" 2>&1 | tee "$CACHE/pytest.log"
status=${PIPESTATUS[0]}
set -e
phase_end pytest

printf '%-12s %5d s\n' total $(( $(date +%s) - started )) >>"$TIMES"
say "times (also in $TIMES)"
cat "$TIMES"
printf 'cache: %s in %s\n' "$(du -sh "$CACHE" 2>/dev/null | cut -f1)" "$CACHE"
summary="$(grep -E '(passed|failed|error).* in [0-9.]+s' "$CACHE/pytest.log" | tail -n 1 | tr -d '=' || true)"
if [ "$status" -ne 0 ]; then
  printf 'test-arm64: the suite FAILED on arm64 (%s); log: %s\n' "${summary:-no summary}" "$CACHE/pytest.log" >&2
  exit 1
fi
printf '[test-arm64] the suite passed on arm64: %s\n' "$summary"
