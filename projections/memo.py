"""A bounded memo for what the projection worker recomputes after every batch of results.

``SlotMemo`` holds one value per slot (a tournament's round, a team's line after a round, a
tournament's next pairing) with the inputs it was computed from, and returns it again while the
current inputs compare equal (``==``); any changed input recomputes it. Inputs are compared,
not hashed: they are mostly the very objects of the previous call (a round's pairing event and
match outcomes, the rounds of a team), which tuple and dict equality pass by identity, so a hit
costs a few pointer comparisons; equal copies still hit, only slower.

The rule that keeps it correct: a value is a function of its slot and its inputs alone (what the
slot does not fix is an input). Then a correction to an earlier round, a state rebuilt from its
events or another tournament that lands in the same slot is never served a stale value; at worst
it recomputes.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, TypeVar

T = TypeVar("T")


class SlotMemo(Generic[T]):
    """At most ``slots`` slots; a new slot beyond that empties the memo first (values are
    recomputed on demand, so dropping them costs time, never correctness)."""

    def __init__(self, slots: int):
        self.slots = slots
        self._held: dict[Hashable, tuple[Any, T]] = {}

    def get(self, slot: Hashable, inputs: Any, compute: Callable[[], T]) -> T:
        """The value held in ``slot`` if it was computed from inputs equal to ``inputs``, else
        ``compute()``, then held in ``slot`` with ``inputs``."""
        held = self._held.get(slot)
        if held is not None and held[0] == inputs:
            value = held[1]
        else:
            value = compute()
            if held is None and len(self._held) >= self.slots:
                self._held.clear()
        # Held with the current inputs even on a hit: if they were equal copies, the next
        # comparison is one of identities again.
        self._held[slot] = (inputs, value)
        return value

    def clear(self) -> None:
        """Drop every slot (tests compare memoised results with fresh ones)."""
        self._held.clear()

    def __len__(self) -> int:
        return len(self._held)


_ALL: list[SlotMemo[Any]] = []


def slot_memo(slots: int) -> SlotMemo[Any]:
    """A new ``SlotMemo`` that ``clear_memos`` empties along with the others."""
    memo: SlotMemo[Any] = SlotMemo(slots)
    _ALL.append(memo)
    return memo


def clear_memos() -> None:
    """Empty every memo made by ``slot_memo``: the next computation starts from nothing."""
    for memo in _ALL:
        memo.clear()
