"""The Raspberry Pi install: scripts/install.sh, its systemd unit and scripts/fetch-model.sh.

Nothing here installs anything: the install is run with ``--dry-run`` and
checked to print every step and to leave the machine as it was; the unit it
would write is checked by systemd's own ``systemd-analyze verify``; the model
fetch runs against zips made here, through ``file://`` URLs (no internet).
"""

from __future__ import annotations

import hashlib
import os
import pwd
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "scripts" / "install.sh"
FETCH = ROOT / "scripts" / "fetch-model.sh"
TEMPLATE = ROOT / "scripts" / "clinkbox.service"
MODEL = "vosk-model-small-en-us-0.15"
STEPS = ("Machine", "Debian packages", "Groups", "Python environment", "clinkbox into the venv",
         "Vosk speech model", "polkit rule", "Screen blanking off", "auto-login", "systemd service",
         "Done")
# every path the install may write to, outside the user's home
SYSTEM_PATHS = (Path("/etc/systemd/system/clinkbox.service"), Path("/etc/polkit-1/rules.d/50-clinkbox.rules"),
                Path("/var/lib/clinkbox-install"), ROOT / ".venv" / ".clinkbox-installed")


def desktop_user() -> pwd.struct_passwd:
    """An ordinary (non-system) user to install for, as the desktop user would be."""
    users = sorted((u for u in pwd.getpwall() if 1000 <= u.pw_uid < 60000), key=lambda u: u.pw_uid)
    if users:
        return users[0]
    if os.getuid() != 0:
        return pwd.getpwuid(os.getuid())
    pytest.skip("no ordinary user on this machine to install for")


def run_install(*args: str, home: Path, bin_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "LC_ALL": "C"}
    if bin_dir is not None:
        env["PATH"] = f"{bin_dir}:{env['PATH']}"
    return subprocess.run(["bash", str(INSTALL), *args], check=False, capture_output=True, text=True,
                          env=env, timeout=60)


def snapshot(paths: list[Path]) -> dict[str, object]:
    """Each path's existence, and for files their bytes; for directories their listing."""
    out: dict[str, object] = {}
    for p in paths:
        if p.is_file():
            out[str(p)] = p.read_bytes()
        elif p.is_dir():
            out[str(p)] = sorted(str(c) for c in p.rglob("*"))
        else:
            out[str(p)] = None
    return out


@pytest.mark.parametrize("script", [INSTALL, FETCH, ROOT / "scripts" / "test-arm64.sh"], ids=lambda p: p.name)
def test_the_scripts_are_shellcheck_clean(script: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt install shellcheck)")
    out = subprocess.run(["shellcheck", "--severity=style", str(script)], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    watched = [*SYSTEM_PATHS, ROOT / ".venv" / "pyvenv.cfg", home]
    before = snapshot(watched)
    out = run_install("--dry-run", "--user", desktop_user().pw_name, home=home)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("clinkbox install: DRY RUN, nothing will be changed")
    headers = [line[4:] for line in out.stdout.splitlines() if line.startswith("==> ")]
    for step in STEPS:
        assert any(step in h for h in headers), f"step {step!r} not printed: {headers}"
    assert "running:" not in out.stdout, "a dry run must only say what it would run"
    assert "would write /etc/systemd/system/clinkbox.service" in out.stdout or \
        "already done: /etc/systemd/system/clinkbox.service" in out.stdout
    assert snapshot(watched) == before


# `python3 -c CODE` run with 4-byte pointers as far as struct.calcsize("P") tells CODE
PYTHON_32_BIT = """#!/bin/sh
if [ "$1" = -c ]; then
  code="import struct; _size = struct.calcsize; struct.calcsize = lambda f: 4 if f == 'P' else _size(f)
$2"
  shift 2
  exec REAL -c "$code" "$@"
fi
exec REAL "$@"
"""


def python_32_bit(tmp_path: Path) -> Path:
    """A folder with a ``python3`` that answers the pointer-size question as a 32-bit Python
    does (32-bit Raspberry Pi OS on a Pi 4 or 5, whose kernel says "aarch64"), and is this
    machine's Python for everything else: a 32-bit Python cannot run here."""
    bin_dir = tmp_path / "bin32"
    bin_dir.mkdir()
    real = shutil.which("python3")
    assert real is not None
    wrapper = bin_dir / "python3"
    wrapper.write_text(PYTHON_32_BIT.replace("REAL", real))
    wrapper.chmod(0o755)
    return bin_dir


def pip_installs(out: str) -> list[str]:
    return [line for line in out.splitlines() if "pip install" in line and " -e " in line]


def test_a_64_bit_python_installs_the_toast_spotter(tmp_path: Path) -> None:
    out = run_install("--dry-run", "--user", desktop_user().pw_name, home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Python: 64-bit (the toast spotter's onnxruntime is installed)" in out.stdout
    assert all(line.endswith(f"{ROOT}[spotter]") for line in pip_installs(out.stdout))


def test_a_32_bit_python_installs_clinkbox_without_onnxruntime_whatever_the_kernel_says(
        tmp_path: Path) -> None:
    out = run_install("--dry-run", "--user", desktop_user().pw_name, home=tmp_path,
                      bin_dir=python_32_bit(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "32-bit Python: no onnxruntime for it, so no toast spotter" in out.stdout
    assert "[spotter]" not in out.stdout
    assert all(line.endswith(f"-e {ROOT}") for line in pip_installs(out.stdout))


def test_make_asks_for_the_toast_spotter_from_a_64_bit_python_only(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")

    def planned(*args: str) -> list[str]:
        out = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), ".venv/.run-deps", ".venv/.test-deps", *args],
                             check=True, capture_output=True, text=True)
        return [line for line in out.stdout.splitlines() if "pip" in line and "install -e" in line]

    assert [line.split("install -e ")[1] for line in planned()] == \
        ["'.[spotter]'", "'.[dev,korean,train,spotter]'"]
    assert [line.split("install -e ")[1] for line in planned(f"PYTHON={python_32_bit(tmp_path)}/python3")] == \
        ["'.'", "'.[dev,korean,train]'"]


def test_a_dry_run_of_the_uninstall_changes_nothing(tmp_path: Path) -> None:
    before = snapshot(list(SYSTEM_PATHS))
    out = run_install("--uninstall", "--dry-run", "--user", desktop_user().pw_name, home=tmp_path)
    assert out.returncode == 0, out.stderr
    for step in ("Stop and remove the service", "Polkit rule", "System settings", "Kept"):
        assert f"==> {step}" in out.stdout
    assert "journal, settings and speech model" in out.stdout, "the party's data is kept, and it says so"
    assert snapshot(list(SYSTEM_PATHS)) == before


def test_an_unknown_option_is_refused_by_name(tmp_path: Path) -> None:
    out = run_install("--dryrun", home=tmp_path)
    assert out.returncode == 2
    assert "unknown option '--dryrun'" in out.stderr


def test_the_box_never_runs_as_root(tmp_path: Path) -> None:
    out = run_install("--dry-run", "--user", "root", home=tmp_path)
    assert out.returncode != 0 and "must not run as root" in out.stderr


def test_an_unknown_user_is_named(tmp_path: Path) -> None:
    out = run_install("--dry-run", "--user", "no-such-party-guest", home=tmp_path)
    assert out.returncode != 0 and "no user 'no-such-party-guest'" in out.stderr


def rendered_unit(tmp_path: Path) -> str:
    out = run_install("--print-unit", "--user", desktop_user().pw_name, home=tmp_path)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_unit_runs_the_box_in_the_desktop_session_and_never_waits_on_the_network(tmp_path: Path) -> None:
    unit = rendered_unit(tmp_path)
    user = desktop_user()
    uid = user.pw_uid
    assert "@" not in unit, "every placeholder is filled in"
    lines = set(unit.splitlines())
    assert {f"User={user.pw_name}", f"Environment=HOME={user.pw_dir}", "Restart=always",
            f"Environment=XDG_RUNTIME_DIR=/run/user/{uid}",
            "Environment=DISPLAY=:0", "Environment=WAYLAND_DISPLAY=wayland-0",
            f"Environment=PIPEWIRE_RUNTIME_DIR=/run/user/{uid}", "WantedBy=graphical.target",
            f"ExecStart={ROOT}/.venv/bin/clinkbox run"} <= lines
    settings = [line for line in unit.splitlines() if not line.startswith("#")]
    assert not [line for line in settings if "network" in line.lower()]


def test_systemd_analyze_verify_passes_on_the_unit(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    if not (ROOT / ".venv" / "bin" / "clinkbox").exists():
        pytest.skip("the venv's clinkbox command is not installed (make run)")
    path = tmp_path / "clinkbox.service"
    path.write_text(rendered_unit(tmp_path))
    out = subprocess.run(["systemd-analyze", "verify", str(path)], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "clinkbox.service" not in out.stderr, f"systemd has remarks on the unit: {out.stderr}"


# -- scripts/fetch-model.sh ---------------------------------------------------------------------

def model_zip(path: Path, files: dict[str, bytes] | None = None) -> Path:
    """A zip laid out like the Vosk model's (tiny stand-in files)."""
    files = files if files is not None else {
        f"{MODEL}/am/final.mdl": b"acoustic model", f"{MODEL}/conf/model.conf": b"--sample-frequency=16000\n",
        f"{MODEL}/graph/HCLr.fst": b"hclr", f"{MODEL}/graph/Gr.fst": b"gr", f"{MODEL}/README": b"readme"}
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def fetch(tmp_path: Path, url: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share"),
            "CLINKBOX_MODEL_URL": url, **env}
    full.pop("CLINKBOX_DATA_DIR", None)
    return subprocess.run(["bash", str(FETCH)], check=False, capture_output=True, text=True, env=full,
                          timeout=60)


def models_dir(tmp_path: Path) -> Path:
    return tmp_path / "share" / "clinkbox" / "models"


def test_the_model_is_fetched_checked_and_unpacked_once(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip")
    sha = hashlib.sha256(z.read_bytes()).hexdigest()
    out = fetch(tmp_path, z.as_uri(), CLINKBOX_MODEL_SHA256=sha, CLINKBOX_MODEL_SIZE=str(z.stat().st_size))
    assert out.returncode == 0, out.stderr
    assert "SHA-256 matches" in out.stdout
    dest = models_dir(tmp_path) / MODEL
    assert (dest / "am" / "final.mdl").read_bytes() == b"acoustic model"
    assert sorted(p.name for p in models_dir(tmp_path).iterdir()) == [MODEL], "no leftovers"
    again = fetch(tmp_path, z.as_uri())
    assert again.returncode == 0 and "already there" in again.stdout
    assert "downloading" not in again.stdout


def test_a_wrong_checksum_installs_nothing(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip")
    out = fetch(tmp_path, z.as_uri(), CLINKBOX_MODEL_SHA256="0" * 64)
    assert out.returncode == 1
    assert "SHA-256 is" in out.stderr and "nothing installed" in out.stderr
    assert list(models_dir(tmp_path).iterdir()) == []


def test_a_short_download_installs_nothing(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip")
    out = fetch(tmp_path, z.as_uri(), CLINKBOX_MODEL_SIZE=str(z.stat().st_size + 1))
    assert out.returncode == 1 and "cut short" in out.stderr
    assert list(models_dir(tmp_path).iterdir()) == []


def test_a_zip_without_the_acoustic_model_is_refused(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip", {f"{MODEL}/conf/model.conf": b"x", f"{MODEL}/graph/HCLG.fst": b"x"})
    out = fetch(tmp_path, z.as_uri())
    assert out.returncode == 1 and "no complete model" in out.stderr
    assert list(models_dir(tmp_path).iterdir()) == []


def test_a_zip_reaching_outside_the_model_folder_is_refused(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip", {f"{MODEL}/am/final.mdl": b"x", f"{MODEL}/../../evil": b"x"})
    out = fetch(tmp_path, z.as_uri())
    assert out.returncode == 1 and "unsafe entry" in out.stderr
    assert not (tmp_path / "share" / "evil").exists()


def test_a_damaged_zip_is_refused(tmp_path: Path) -> None:
    z = model_zip(tmp_path / "m.zip")
    data = bytearray(z.read_bytes())
    data[40:60] = b"\xff" * 20  # inside the first file's data
    z.write_bytes(bytes(data))
    out = fetch(tmp_path, z.as_uri())
    assert out.returncode == 1 and "damaged" in out.stderr


def test_no_internet_is_a_clear_error(tmp_path: Path) -> None:
    out = fetch(tmp_path, (tmp_path / "absent.zip").as_uri())
    assert out.returncode == 1 and "could not download" in out.stderr


def test_a_package_added_to_the_makefile_reaches_a_venv_made_before(tmp_path: Path) -> None:
    """A venv whose stamps are newer than pyproject.toml is set up again once the Makefile (its
    lists of Debian packages) changes: `make bench` then installs a voice added since."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"
    venv.mkdir()
    for stamp in (".run-deps", ".test-deps", ".bench-deps"):
        (venv / stamp).touch()

    def planned(*args: str) -> str:
        return subprocess.run(["make", "-n", "-C", str(ROOT), f"VENV={venv}", f"{venv}/.bench-deps", *args],
                              check=True, capture_output=True, text=True).stdout

    assert "debs.sh" not in planned(), "stamps newer than everything: nothing to do"
    again = planned("-W", "Makefile")
    assert "festival-hi" in again and again.count("debs.sh") == 3
