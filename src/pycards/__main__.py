"""``python -m pycards``: the ``pycards`` command."""

from pycards.ui.cli import main

raise SystemExit(main())
