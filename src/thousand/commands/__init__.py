"""Subcommands of the ``thousand`` CLI, one module each (see ``thousand.cli``)."""
