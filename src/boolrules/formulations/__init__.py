"""Depth-one and depth-two rule problems stated once as Pyomo models (`docs/formulations.md`)."""

from ..workers import release_import_lock

release_import_lock()  # before the rest of Pyomo loads: a worker killed while importing leaks no semaphore

from .depth_one import depth_one, row_blocks
from .depth_two import depth_two
from .depth_two_problem import DepthTwoProblem
from .problem import DepthOneProblem
from .standard_form import StandardForm

__all__ = ["DepthOneProblem", "DepthTwoProblem", "StandardForm", "depth_one", "depth_two", "row_blocks"]
