"""Optimal play: exact expected scores by backward induction, and advice built on them.

Pure Python and numpy; no Django. See ``solver.py``.
"""
