"""The display: a scene (widgets) drawn with pygame-ce, in a window, full screen, or headless PNG."""
