"""Depth-one rule problems stated once as Pyomo models (`docs/formulations.md`)."""

from .depth_one import depth_one, row_blocks
from .problem import DepthOneProblem
from .standard_form import StandardForm

__all__ = ["DepthOneProblem", "StandardForm", "depth_one", "row_blocks"]
