"""The screens: setup, the table, the end of a game, and the dialogs."""
