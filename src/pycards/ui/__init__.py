"""The parts of pycards that people use directly: the ``pycards`` command
(:mod:`pycards.ui.cli`), the terminal table (:mod:`pycards.ui.terminal`) and
the browser table (:mod:`pycards.ui.web`), over one table core
(:mod:`pycards.ui.table`).  They sit at the top of the package: nothing
below imports them.
"""
