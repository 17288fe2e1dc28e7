"""Rating systems as pure functions over frozen dataclasses.

Nothing in this package imports FastAPI, SQLAlchemy, Pydantic or any other part of ``app``;
``tests/test_engine_isolation.py`` enforces it. How a system module is built, and the
checklist for adding one: docs/systems/README.md.
"""
