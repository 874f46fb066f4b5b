"""xoshiro256** seeded by splitmix64: the reference twin of ``src/cardcore/core/rng.c``."""

from __future__ import annotations

__all__ = ["Rng", "rng_sequence", "shuffled_deck"]

_M64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _M64


class Rng:
    """The engine's random number generator, bit for bit."""

    def __init__(self, seed: int) -> None:
        x = seed & _M64
        s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & _M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            s.append(z ^ (z >> 31))
        self.s = s

    def next(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (0 when ``n <= 1``)."""
        if n <= 1:
            return 0
        threshold = (1 << 64) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates from the top, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def rng_sequence(seed: int, n: int) -> list[int]:
    """The first ``n`` outputs of the generator seeded with ``seed``."""
    rng = Rng(seed)
    return [rng.next() for _ in range(n)]


def shuffled_deck(seed: int, n: int) -> list[int]:
    """A seeded permutation of ``range(n)``."""
    if not 0 <= n <= 255:
        raise ValueError(f"deck size must be 0..255, got {n}")
    deck = list(range(n))
    Rng(seed).shuffle(deck)
    return deck
