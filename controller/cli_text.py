"""Help texts shared by ``clinkbox`` and its speech tools' own parsers (one wording for both)."""

#: what ``clinkbox speech classify`` reads (:func:`hardware.speech.audio.read_wav`)
WAV_FILES_HELP = "WAV files: 8-32-bit integer or 32/64-bit float samples, any rate, mono or stereo"

#: ``clinkbox speech classify --enrol``
ENROL_HELP = ("a clip of this table's voice saying a toast (e.g. intro-3.wav=salud), as the "
              "introduction enrols it: the toast spotter then also hears that voice's way of saying it; "
              "repeat for each clip")
