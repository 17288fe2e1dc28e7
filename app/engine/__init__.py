"""Rating systems as pure functions over frozen dataclasses.

Nothing in this package imports FastAPI, SQLAlchemy, Pydantic or any other part of ``app``;
``tests/engine/test_engine_isolation.py`` enforces it.
"""
