"""Load and fault tests: real servers as subprocesses (docs/testing-load.md)."""
