"""Sub-command modules of `yacht`, found automatically (see :mod:`yacht.cli`)."""
