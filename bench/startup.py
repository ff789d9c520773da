"""Start to main menu: a fresh process, headless, until the main menu is drawn."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(repeats: int = 3) -> dict[str, float]:
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home, "SDL_VIDEODRIVER": "dummy"}
            t0 = time.monotonic()
            out = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                                  "--exit-after-menu"], capture_output=True, text=True, env=env, check=True)
            wall = time.monotonic() - t0
            inner = json.loads(out.stdout.strip().splitlines()[-1])["startup_s"]
            times.append(max(wall, inner))
    return {"startup_s": round(statistics.median(times), 3)}


if __name__ == "__main__":
    print(json.dumps(run()))
