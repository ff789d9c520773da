"""The clinkbox application: game flows, menus, the referee, scenes, journal, CLI."""
