"""Shared test set-up."""

import warnings

# When a hypothesis test fails, its pytest plugin imports hypothesis.extra._patching (to offer a
# patch with the failing example), which imports libcst, which raises a DeprecationWarning; under
# `-W error` that aborts the whole session with an INTERNALERROR instead of reporting the failure.
# Import it once here, with that warning silenced, so a failing property is reported like any
# other failing test.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:  # libcst not installed: nothing to import early
        pass
