"""The summaries of a run's report: the Wilson interval of a rate, spreads and medians."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

__all__ = ["Z95", "spread", "timing", "wilson"]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution: a two-sided 95% interval."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (a draw may count half).

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n <= 0:
        raise ValueError(f"no trials: n = {n}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def spread(values: Sequence[float]) -> dict[str, float] | None:
    """The mean, least and greatest of ``values``; ``None`` when there are none."""
    if not values:
        return None
    return {"mean": statistics.fmean(values), "min": min(values), "max": max(values)}


def timing(times: Sequence[float]) -> dict[str, Any]:
    """The median and the worst of decision times in seconds, in milliseconds."""
    if not times:
        return {"median_ms": None, "worst_ms": None}
    return {"median_ms": statistics.median(times) * 1000, "worst_ms": max(times) * 1000}
