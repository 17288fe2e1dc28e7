"""``python -m app.cli``: what the tests, bench drivers and a checkout without the installed
``ratings`` script run."""

from app.cli import main

main()
