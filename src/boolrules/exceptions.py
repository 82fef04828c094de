"""What boolrules raises, as one family to catch: `boolrules.Error`. Each class also subclasses the
built-in error boolrules raised before (ValueError, TypeError, RuntimeError, FileNotFoundError), so
code that catches those keeps working, as scikit-learn's and dimod's exceptions do. What the
operating system reports (a full disk, a name too long) stays an OSError."""

__all__ = ["Error", "InputError", "InputTypeError", "FormatError", "ConfigError", "MissingFileError",
           "SolverError"]


class Error(Exception):
    """Base of every error boolrules raises itself."""


class InputError(Error, ValueError):
    """A value boolrules cannot use: data, an option, rule text, bounds that admit no rule."""


class InputTypeError(Error, TypeError):
    """An argument of a type boolrules does not take."""


class FormatError(InputError):
    """A file (or samples to decode) that is not what its format or sidecar says."""


class ConfigError(InputError):
    """A backend configuration mistake: in a TOML file (an unknown table, key, backend or value), or a
    backend spec that names no backend."""


class MissingFileError(Error, FileNotFoundError):
    """A file or folder that should exist and does not."""


class SolverError(Error, RuntimeError):
    """A backend that could not give an answer: it failed, or it is not set up (credentials)."""
