"""Shared test set-up.

Hypothesis profiles. By default ("ci") every property test draws the same examples on every run
(`derandomize`, no example database), so that `pytest` passes or fails the same way each time and
CI never fails at random. For a longer, randomized search — many more examples, new ones on each
run — select the "long" profile:

    pytest --hypothesis-profile=long tests/test_fuzz.py
    LUDEME_FUZZ=long pytest tests/test_fuzz.py      # the same, chosen by the environment

A failure found by a long run prints the example (and a `@reproduce_failure` blob); add the
example to the test with `@example(...)` so that the default run checks it from then on.
"""

import os
import warnings

from hypothesis import HealthCheck, settings

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

# Timing is not reproducible: no deadlines, and no health check that fails a test for being slow.
_NOT_TIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, database=None, **_NOT_TIMED)
settings.register_profile("long", max_examples=2000, derandomize=False, database=None,
                          print_blob=True, **_NOT_TIMED)
# `--hypothesis-profile=NAME` (read by hypothesis's pytest plugin after this file) overrides this.
settings.load_profile(os.environ.get("LUDEME_FUZZ", "ci"))
