"""Dropout with masks drawn in bulk by numpy, several times faster than torch's on AMD CPUs.

torch draws a CPU dropout mask (``bernoulli_``) with MKL's vectorised generator only on Intel
processors; on every other CPU it falls back to one Mersenne-Twister draw per element, serially.
On the project's 2-core AMD EPYC that took 2.2 ms for one ``(800, 384)`` mask, and the 13 masks of
a cached cross-validation step were about a tenth of the step. numpy's PCG64 fills the same
mask from random bytes in 0.5 ms on any CPU.

The result is dropout all the same: each element is kept independently with probability
``threshold / 65536`` (the nearest multiple of 2**-16 to ``1 - p``, within 8e-6) and scaled by
the inverse of that probability, so its expected value is the input exactly. Only the random
stream differs from torch's; it is reproducible from the seed.
"""

from __future__ import annotations

import numpy as np
import torch

__all__ = ["DropoutNoise"]

_LEVELS = 1 << 16  # masks compare uniform 16-bit integers with a threshold


class DropoutNoise:
    """A seeded source of dropout masks; :meth:`apply` is ``F.dropout(values, p, training=True)``.

    Examples
    --------
    >>> noise = DropoutNoise(seed=0)
    >>> out = noise.apply(torch.ones(1000, 100), 0.1)
    >>> round(float((out == 0).float().mean()), 2), round(float(out.mean()), 2)
    (0.1, 1.0)
    """

    def __init__(self, seed: int) -> None:
        self._rng = np.random.Generator(np.random.PCG64(seed))

    def apply(self, values: torch.Tensor, p: float) -> torch.Tensor:
        """``values`` with each element zeroed with probability ``p``, the rest scaled up."""
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability must be in [0, 1], got {p}")
        threshold = round((1.0 - p) * _LEVELS)
        if threshold == _LEVELS:
            return values
        if threshold == 0:
            return values * 0.0
        draws = np.frombuffer(self._rng.bytes(2 * values.numel()), dtype=np.uint16)
        keep = torch.from_numpy(draws < threshold).view(values.shape)  # bool, like values
        return values * (keep.to(values.dtype) * (_LEVELS / threshold))
