"""``python -m pycards``: the ``pycards`` command."""

from pycards.cli import main

raise SystemExit(main())
