# clinkbox: `make run` starts the box, `make test` runs the whole suite.
# Both set themselves up on a fresh Debian, Ubuntu or Raspberry Pi OS machine.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q

# On a Raspberry Pi the venv also sees Raspberry Pi OS's own lgpio and gpiozero (Pi 5 GPIO)
ON_PI := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo yes)
VENV_FLAGS := $(if $(ON_PI),--system-site-packages,)
PI_DEBS := $(if $(ON_PI),python3-lgpio python3-gpiozero,)

# The toast spotter's onnxruntime has no 32-bit build: only a 64-bit Python asks for it (a
# 32-bit Raspberry Pi OS on a 64-bit kernel says "aarch64" to pip all the same; see pyproject.toml)
comma := ,
PY64 := $(shell $(PYTHON) -c 'import struct; print("yes" if struct.calcsize("P") == 8 else "")' 2>/dev/null)
SPOTTER := $(if $(PY64),spotter,)

# Debian packages: what the box needs to run, and what the tests need on top (a minimal
# Debian or Raspberry Pi OS Lite lacks them: Vosk's libvosk.so needs libatomic1, make model unzip)
RUN_DEBS  := libportaudio2 libatomic1 unzip $(PI_DEBS)
# (gcc and python3-dev: the spotter's training builds SVOX Pico's synthesizer from source)
TEST_DEBS := libportaudio2 libatomic1 unzip espeak-ng flite sox chromium shellcheck gcc python3-dev
# make test-arm64: Debian Bookworm for arm64 in a chroot, run under emulation
ARM64_HOST_DEBS := qemu-user-static binfmt-support debootstrap
# the speech corpus uses every synthesizer Debian offers (the Hindi, Marathi and Telugu voices
# say nothing without their language's festival-hi, -mr, -te, which they only recommend), and
# the real people's letters and syllables of klettres-data and gcin-voice, and their words and
# sentences of ktuberling-data and Fish Fillets's Dutch and Czech dubs (bench/people.py)
BENCH_DEBS := $(TEST_DEBS) festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts \
	festvox-italp16k festvox-itapc16k festvox-hi-nsk festvox-mr-nsk festvox-te-nsk \
	festival-hi festival-mr festival-te klettres-data gcin-voice ktuberling-data \
	fillets-ng-data-nl fillets-ng-data-cs
# MBROLA's voices, cut from recordings of real speakers: only ever measured (bench/spotter_data.py),
# and in Debian's contrib and non-free sections, so make bench measures them only where installed
MBROLA_DEBS := mbrola mbrola-af1 mbrola-de1 mbrola-de2 mbrola-de4 mbrola-de6 mbrola-de7 mbrola-en1 \
	mbrola-es1 mbrola-es3 mbrola-fr1 mbrola-fr4 mbrola-fr6 mbrola-gr2 mbrola-hu1 mbrola-it3 \
	mbrola-it4 mbrola-jp2 mbrola-mx2 mbrola-nl2 mbrola-pl1 mbrola-pt1 mbrola-ro1 mbrola-sw1 \
	mbrola-sw2 mbrola-tr2 mbrola-us1 mbrola-us2 mbrola-us3

.PHONY: run test test-arm64 bench soak corpus spotter model mbrola-voices screenshots lint install uninstall doctor clean help

help:
	@echo "make run          start the box (GPIO on a Pi, the simulator window elsewhere)"
	@echo "make test         install what the tests need, then run the whole suite"
	@echo "make test-arm64   the Pi's install and the suite on arm64, emulated (root; slow: docs/raspberry-pi.md)"
	@echo "make bench        measure the targets into bench/results.json"
	@echo "make soak         kill live scripted games KILLS times each (default 100), resume, count what was lost"
	@echo "make model        download the Vosk English model (needs internet)"
	@echo "make mbrola-voices  MBROLA's voices, which make bench also measures the spotter on"
	@echo "make corpus       generate the synthetic toast corpus into corpus/"
	@echo "make spotter      retrain the toast spotter on synthetic and neural voices (about an hour)"
	@echo "make screenshots  draw the README's screens headless into docs/screens/"
	@echo "make lint         ruff on the code, mypy --strict on the rules, mypy on the rest"
	@echo "make doctor       check pins, buttons, LEDs, microphone, speech model, display, sound"
	@echo "make install      turn a Raspberry Pi into a clinkbox (systemd service)"
	@echo "make uninstall    undo exactly what make install changed"
	@echo "make clean        remove the venv and the build and test caches"

# Each stamp also depends on this Makefile: a Debian package added to a list above reaches a
# venv made before it (the install steps skip what is already there)
$(VENV)/.run-deps: pyproject.toml Makefile
	bash scripts/debs.sh $(RUN_DEBS)
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -e '.$(if $(SPOTTER),[$(SPOTTER)])'
	touch $@

$(VENV)/.test-deps: pyproject.toml Makefile $(VENV)/.run-deps
	bash scripts/debs.sh $(TEST_DEBS)
	$(PIP) install -e '.[dev,korean,train$(if $(SPOTTER),$(comma)$(SPOTTER))]'
	touch $@

run: $(VENV)/.run-deps
	$(VENV)/bin/clinkbox run

test: $(VENV)/.test-deps
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q $(PYTEST_ARGS)

# the install and the suite on a Raspberry Pi's architecture (scripts/test-arm64.sh says how)
test-arm64:
	ARM64_HOST_DEBS="$(ARM64_HOST_DEBS)" bash scripts/test-arm64.sh

lint: $(VENV)/.test-deps
	$(VENV)/bin/ruff check controller hardware models tests bench scripts
	$(VENV)/bin/mypy --strict models
	$(VENV)/bin/mypy controller hardware

$(VENV)/.bench-deps: Makefile $(VENV)/.test-deps
	bash scripts/debs.sh $(BENCH_DEBS)
	$(PIP) install -e '.[voices]'
	touch $@

bench: $(VENV)/.bench-deps
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m bench.run
	$(PY) -m bench.readme_table

KILLS ?= 100
soak: $(VENV)/.test-deps
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m bench.soak --kills $(KILLS) --out bench/soak.json

corpus: $(VENV)/.bench-deps
	$(PY) -m bench.corpus --out corpus

# the shipped spotter: bench.train_spotter's two networks, then the recipe's four averaged with them
spotter: $(VENV)/.bench-deps
	$(PY) -m bench.train_spotter
	$(PY) -m bench.fit_spotter --out hardware/speech/lexicons --report bench/fit.json

mbrola-voices:
	@bash scripts/debs.sh $(MBROLA_DEBS) || { echo "MBROLA's voices are in Debian's contrib and \
	non-free sections (Ubuntu's multiverse; Raspberry Pi OS has them): add those components to \
	your apt sources, then make mbrola-voices again" >&2; exit 1; }

model: $(VENV)/.run-deps
	bash scripts/fetch-model.sh

screenshots: $(VENV)/.test-deps
	SDL_VIDEODRIVER=dummy $(VENV)/bin/clinkbox screenshots --out docs/screens

doctor: $(VENV)/.run-deps
	$(VENV)/bin/clinkbox doctor

install:
	bash scripts/install.sh

uninstall:
	bash scripts/install.sh --uninstall

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
