#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS Bookworm (Pi 4 or Pi 5, desktop image) into a clinkbox.
#
#   bash scripts/install.sh             install (make install); safe to run again
#   bash scripts/install.sh --dry-run   print every step, change nothing
#   bash scripts/install.sh --uninstall undo what the install did (make uninstall)
#
# Every step checks first and says "already done" when there is nothing to do,
# so a second run changes nothing. See docs/raspberry-pi.md.
set -euo pipefail

CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$CHECKOUT/.venv"
TEMPLATE="$CHECKOUT/scripts/clinkbox.service"
UNIT=/etc/systemd/system/clinkbox.service
POLKIT_RULE=/etc/polkit-1/rules.d/50-clinkbox.rules
STATE_DIR=/var/lib/clinkbox-install
STATE="$STATE_DIR/changes"
MODEL_NAME=vosk-model-small-en-us-0.15

# what the box needs at run time (espeak-ng and the other test tools are not needed here)
# (libatomic1: Vosk's libvosk.so needs it on ARM, and Raspberry Pi OS Lite lacks it)
DEBS=(python3-venv python3-pip libportaudio2 libatomic1 libsdl2-2.0-0 libsdl2-ttf-2.0-0
      libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libfreetype6 fonts-dejavu-core
      curl unzip ca-certificates)
# from the Raspberry Pi OS archive: lgpio (the Pi 5's GPIO) and a gpiozero with the Pi 5 fixes
PI_DEBS=(python3-lgpio python3-gpiozero)
GROUPS_NEEDED=(gpio audio video input)

DRY_RUN=0
UNINSTALL=0
FORCE=0
NO_MODEL=0
NO_SERVICE=0
PRINT_UNIT=0
DESKTOP_USER=""

usage() {
  cat <<EOF
Usage: bash scripts/install.sh [--dry-run] [--uninstall] [--user NAME] [--no-model] [--force]
                               [--no-service] [--print-unit]

  --dry-run      print every step and what it would change; change nothing
  --uninstall    stop and remove the service and undo the system settings the install made
  --user NAME    the desktop user the box runs as (default: detected; see docs/raspberry-pi.md)
  --no-model     do not fetch the Vosk model (the box listens with the toast spotter)
  --force        install even on a machine that is not a Raspberry Pi
  --no-service   leave out the service, the polkit rule and the desktop settings (for a chroot
                 or container with no systemd and no desktop: make test-arm64)
  --print-unit   print the systemd unit as it would be written, then stop
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --force) FORCE=1 ;;
    --no-model) NO_MODEL=1 ;;
    --no-service) NO_SERVICE=1 ;;
    --print-unit) PRINT_UNIT=1 ;;
    --user)
      [ $# -ge 2 ] || { echo "install.sh: --user needs a user name" >&2; exit 2; }
      DESKTOP_USER="$2"; shift ;;
    --user=*) DESKTOP_USER="${1#--user=}" ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# -- output ---------------------------------------------------------------------------------
step() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
already() { printf '    already done: %s\n' "$*"; }
warn() { printf '    WARNING: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# -- running things -------------------------------------------------------------------------
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  SUDO=(sudo)
fi

# as root: "would run" in a dry run
as_root() {
  if [ "$DRY_RUN" -eq 1 ]; then
    note "would run: $*"
    return 0
  fi
  note "running: $*"
  "${SUDO[@]}" "$@"
}

# as the desktop user
as_user() {
  if [ "$DRY_RUN" -eq 1 ]; then
    note "would run as $DESKTOP_USER: $*"
    return 0
  fi
  note "running as $DESKTOP_USER: $*"
  if [ "$(id -un)" = "$DESKTOP_USER" ]; then
    "$@"
  elif [ "$(id -u)" -eq 0 ]; then
    runuser -u "$DESKTOP_USER" -- env HOME="$USER_HOME" "$@"
  else
    sudo -u "$DESKTOP_USER" env HOME="$USER_HOME" "$@"
  fi
}

# write_root_file PATH MODE CONTENT: write it only when it differs
write_root_file() {
  local path="$1" mode="$2" content="$3"
  if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
    already "$path is up to date"
    return 1
  fi
  if [ "$DRY_RUN" -eq 1 ]; then
    note "would write $path (mode $mode):"
    printf '%s\n' "$content" | sed 's/^/      | /'
    return 0
  fi
  note "writing $path"
  "${SUDO[@]}" mkdir -p "$(dirname "$path")"
  printf '%s\n' "$content" | "${SUDO[@]}" tee "$path" >/dev/null
  "${SUDO[@]}" chmod "$mode" "$path"
  return 0
}

# the install's own record of what it changed, so --uninstall undoes only that
remember() {
  if [ "$DRY_RUN" -eq 1 ]; then
    return 0
  fi
  if ! { [ -f "$STATE" ] && grep -qx "$1" "$STATE"; }; then
    "${SUDO[@]}" mkdir -p "$STATE_DIR"
    printf '%s\n' "$1" | "${SUDO[@]}" tee -a "$STATE" >/dev/null
  fi
}
remembered() { [ -f "$STATE" ] && grep -qx "$1" "$STATE"; }

# -- facts about this machine ----------------------------------------------------------------
pi_model() { if [ -r /proc/device-tree/model ]; then tr -d '\0' </proc/device-tree/model; fi; }
os_codename() { sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"' || true; }
deb_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
deb_known() { apt-cache show "$1" >/dev/null 2>&1; }
have() { command -v "$1" >/dev/null 2>&1; }
# 64 or 32: the system Python's pointer size, whatever the kernel says (a 32-bit Raspberry Pi OS
# on a Pi 4 or 5 runs a 64-bit kernel that says "aarch64")
python_bits() { python3 -c 'import struct; print(struct.calcsize("P") * 8)' 2>/dev/null || echo 64; }

detect_user() {
  if [ -z "$DESKTOP_USER" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    DESKTOP_USER="$SUDO_USER"
  fi
  if [ -z "$DESKTOP_USER" ] && [ "$(id -u)" -ne 0 ]; then
    DESKTOP_USER="$(id -un)"
  fi
  if [ -z "$DESKTOP_USER" ] && [ -f /etc/lightdm/lightdm.conf ]; then
    DESKTOP_USER="$(sed -n 's/^autologin-user=//p' /etc/lightdm/lightdm.conf | head -n 1)"
  fi
  if [ -z "$DESKTOP_USER" ]; then
    # Raspberry Pi OS's first user, made by the imager or the first-boot wizard
    DESKTOP_USER="$(getent passwd 1000 | cut -d: -f1)"
  fi
  [ -n "$DESKTOP_USER" ] || die "cannot tell who the desktop user is: give it with --user NAME"
  getent passwd "$DESKTOP_USER" >/dev/null || die "there is no user '$DESKTOP_USER' (see --user)"
  [ "$DESKTOP_USER" != root ] || die "the box must not run as root: give the desktop user with --user NAME"
  USER_UID="$(id -u "$DESKTOP_USER")"
  USER_HOME="$(getent passwd "$DESKTOP_USER" | cut -d: -f6)"
  DATA_DIR="$USER_HOME/.local/share/clinkbox"
}

render_unit() {
  sed -e "s|@USER@|$DESKTOP_USER|g" -e "s|@UID@|$USER_UID|g" \
      -e "s|@HOME@|$USER_HOME|g" -e "s|@CHECKOUT@|$CHECKOUT|g" "$TEMPLATE"
}

polkit_rule() {
  cat <<EOF
// clinkbox: let the box's user shut down and restart the Pi from the box's menu
polkit.addRule(function(action, subject) {
    if (subject.user == "$DESKTOP_USER" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions" ||
         action.id == "org.freedesktop.login1.reboot" ||
         action.id == "org.freedesktop.login1.reboot-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
EOF
}

# -- install steps ---------------------------------------------------------------------------
check_machine() {
  step "Machine"
  local model codename
  model="$(pi_model)"
  codename="$(os_codename)"
  codename="${codename:-unknown}"
  if [ -n "$model" ]; then
    note "board: $model"
  elif [ "$FORCE" -eq 1 ] || [ "$DRY_RUN" -eq 1 ]; then
    warn "this is not a Raspberry Pi: buttons will need the simulator (clinkbox run --simulate)"
  else
    die "this is not a Raspberry Pi (no /proc/device-tree/model); use --force to install anyway"
  fi
  note "system: $codename"
  if [ "$codename" != bookworm ]; then
    warn "made for Raspberry Pi OS Bookworm; this is '$codename' and may need changes"
  fi
  if [ "$(python_bits)" = 32 ]; then
    warn "32-bit Python: no onnxruntime for it, so no toast spotter; the box listens with PocketSphinx, or with Vosk after 'make model' (see docs/raspberry-pi.md)"
  else
    note "Python: 64-bit (the toast spotter's onnxruntime is installed)"
  fi
  note "checkout: $CHECKOUT"
  note "desktop user: $DESKTOP_USER (uid $USER_UID, home $USER_HOME)"
}

install_debs() {
  step "Debian packages"
  local missing=() pkg
  for pkg in "${DEBS[@]}"; do
    deb_installed "$pkg" || missing+=("$pkg")
  done
  for pkg in "${PI_DEBS[@]}"; do
    if [ -z "$(pi_model)" ]; then
      note "$pkg: skipped (not a Raspberry Pi)"
    elif deb_installed "$pkg"; then
      continue
    elif deb_known "$pkg"; then
      missing+=("$pkg")
    else
      warn "$pkg is not in this system's archives (it comes from the Raspberry Pi OS archive)"
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    already "all installed: ${DEBS[*]}"
    return
  fi
  note "missing: ${missing[*]}"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

user_groups() {
  step "Groups (GPIO, sound, display, input devices)"
  local group
  for group in "${GROUPS_NEEDED[@]}"; do
    if ! getent group "$group" >/dev/null; then
      note "no group '$group' on this system: skipped"
    elif id -nG "$DESKTOP_USER" | tr ' ' '\n' | grep -qx "$group"; then
      already "$DESKTOP_USER is in $group"
    else
      as_root usermod -aG "$group" "$DESKTOP_USER"
      remember "group:$group"
    fi
  done
}

make_venv() {
  step "Python environment ($VENV)"
  if [ ! -w "$CHECKOUT" ] && [ "$(id -u)" -ne 0 ]; then
    die "$CHECKOUT is not writable: clone clinkbox as $DESKTOP_USER, into their home"
  fi
  if [ -x "$VENV/bin/python" ]; then
    if grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
      already "the venv exists and sees the system's lgpio and gpiozero"
    else
      note "the venv exists but cannot see the system's lgpio: letting it"
      if [ "$DRY_RUN" -eq 1 ]; then
        note "would set include-system-site-packages = true in $VENV/pyvenv.cfg"
      else
        as_user sed -i 's/^include-system-site-packages = .*/include-system-site-packages = true/' \
          "$VENV/pyvenv.cfg"
      fi
    fi
  else
    # system site packages: apt's python3-lgpio and python3-gpiozero (with the Pi 5 fixes)
    as_user python3 -m venv --system-site-packages "$VENV"
    remember venv
  fi
}

install_clinkbox() {
  step "clinkbox into the venv"
  local stamp="$VENV/.clinkbox-installed" want
  want="$(sha256sum "$CHECKOUT/pyproject.toml" | cut -d' ' -f1)"
  if [ -x "$VENV/bin/clinkbox" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    already "clinkbox is installed (pyproject.toml unchanged since)"
    return
  fi
  as_user "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade pip
  local spec="${CHECKOUT}[spotter]"
  [ "$(python_bits)" = 64 ] || spec="$CHECKOUT"  # no onnxruntime for a 32-bit Python
  as_user "$VENV/bin/python" -m pip install --disable-pip-version-check -q -e "$spec"
  if [ "$DRY_RUN" -eq 1 ]; then
    note "would write $stamp"
  else
    printf '%s\n' "$want" >"$stamp"
    [ "$(id -u)" -ne 0 ] || chown "$DESKTOP_USER:" "$stamp"
  fi
}

fetch_model() {
  step "Vosk speech model ($MODEL_NAME)"
  if [ "$NO_MODEL" -eq 1 ]; then
    note "skipped (--no-model): the box listens with the toast spotter"
    return
  fi
  if [ -f "$DATA_DIR/models/$MODEL_NAME/am/final.mdl" ]; then
    already "$DATA_DIR/models/$MODEL_NAME"
    return
  fi
  if ! as_user env XDG_DATA_HOME="$USER_HOME/.local/share" bash "$CHECKOUT/scripts/fetch-model.sh"; then
    warn "the Vosk model could not be fetched: the box listens with the toast spotter until 'make model' works"
  fi
}

install_unit() {
  step "systemd service ($UNIT)"
  local changed=0
  if write_root_file "$UNIT" 0644 "$(render_unit)"; then
    changed=1
    as_root systemctl daemon-reload
  fi
  if systemctl is-enabled --quiet clinkbox 2>/dev/null; then
    already "clinkbox.service is enabled"
  else
    as_root systemctl enable clinkbox.service
  fi
  if [ "$changed" -eq 0 ] && systemctl is-active --quiet clinkbox 2>/dev/null; then
    already "clinkbox.service is running"
  else
    as_root systemctl restart clinkbox.service
  fi
}

install_polkit() {
  step "Shut down and restart from the box's menu (polkit rule)"
  if [ ! -d /etc/polkit-1 ]; then
    note "no polkit on this system: the menu's Shut down needs 'sudo poweroff' rights instead"
    return
  fi
  write_root_file "$POLKIT_RULE" 0644 "$(polkit_rule)" || true
}

no_blanking() {
  step "Screen blanking off"
  if ! have raspi-config; then
    warn "no raspi-config: turn screen blanking off in the desktop's own settings"
    return
  fi
  if [ "$(SUDO_USER="$DESKTOP_USER" raspi-config nonint get_blanking)" = 1 ]; then
    already "screen blanking is off"
    return
  fi
  as_root env SUDO_USER="$DESKTOP_USER" raspi-config nonint do_blanking 1
  remember blanking
}

desktop_autologin() {
  step "Desktop session with auto-login as $DESKTOP_USER"
  if ! have raspi-config; then
    warn "no raspi-config: set the desktop to log $DESKTOP_USER in automatically"
    return
  fi
  if [ "$(raspi-config nonint get_boot_cli)" = 1 ] && \
     grep -qx "autologin-user=$DESKTOP_USER" /etc/lightdm/lightdm.conf 2>/dev/null; then
    already "the Pi boots to the desktop, logged in as $DESKTOP_USER"
    return
  fi
  as_root env SUDO_USER="$DESKTOP_USER" raspi-config nonint do_boot_behaviour B4
  remember autologin
  note "takes effect at the next boot: sudo reboot"
}

# -- uninstall -------------------------------------------------------------------------------
uninstall() {
  step "Stop and remove the service"
  if [ -f "$UNIT" ]; then
    as_root systemctl disable --now clinkbox.service
    as_root rm -f "$UNIT"
    as_root systemctl daemon-reload
  else
    already "no $UNIT"
  fi
  step "Polkit rule"
  if [ -f "$POLKIT_RULE" ]; then
    as_root rm -f "$POLKIT_RULE"
  else
    already "no $POLKIT_RULE"
  fi
  step "System settings the install changed"
  if remembered blanking; then
    as_root env SUDO_USER="$DESKTOP_USER" raspi-config nonint do_blanking 0
  else
    already "screen blanking was not changed by the install"
  fi
  if remembered autologin; then
    as_root env SUDO_USER="$DESKTOP_USER" raspi-config nonint do_boot_behaviour B3
  else
    already "the boot behaviour was not changed by the install"
  fi
  local group
  for group in "${GROUPS_NEEDED[@]}"; do
    if remembered "group:$group"; then
      as_root gpasswd -d "$DESKTOP_USER" "$group"
    fi
  done
  step "Python environment"
  if remembered venv && [ -d "$VENV" ]; then
    as_root rm -rf "$VENV"
  else
    already "the venv was not made by the install (or is gone): left alone"
  fi
  if [ -f "$STATE" ]; then
    as_root rm -rf "$STATE_DIR"
  fi
  step "Kept"
  note "the journal, settings and speech model in $DATA_DIR (delete them by hand if wanted)"
  note "the Debian packages (other programs may use them)"
}

# -- main ------------------------------------------------------------------------------------
detect_user
if [ "$PRINT_UNIT" -eq 1 ]; then
  render_unit
  exit 0
fi
if [ "$DRY_RUN" -eq 1 ]; then
  echo "clinkbox install: DRY RUN, nothing will be changed"
fi
if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ] && ! have sudo; then
  die "run this as root, or install sudo"
fi
if [ "$UNINSTALL" -eq 1 ]; then
  uninstall
  step "Done: clinkbox is uninstalled"
  exit 0
fi
check_machine
install_debs
user_groups
make_venv
install_clinkbox
fetch_model
if [ "$NO_SERVICE" -eq 1 ]; then
  step "Service, polkit rule, screen blanking, auto-login"
  note "skipped (--no-service): see them with --dry-run"
else
  install_polkit
  no_blanking
  desktop_autologin
  install_unit
fi
step "Done"
note "logs: journalctl -u clinkbox -f      check the box: $VENV/bin/clinkbox doctor"
