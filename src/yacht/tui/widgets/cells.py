"""Text measured in terminal cells, not characters: the one measure of every text
interface, :mod:`yacht.cells`, as the terminal game's widgets and screens import it."""

from __future__ import annotations

from yacht.cells import cell_len, cut, ljust, rjust, wrap_cells

__all__ = ["cell_len", "cut", "ljust", "rjust", "wrap_cells"]
