"""Operational failures (issue 39): shutdown, a full disk, the database failing over."""
