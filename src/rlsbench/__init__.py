"""rlsbench: fast wrapper feature selection with regularized least squares, benchmarked."""

from .path import SelectionPath

__version__ = "0.1.0"

__all__ = ["SelectionPath", "__version__"]
