"""Schema revisions, oldest first: yacht_0001, yacht_0002."""
