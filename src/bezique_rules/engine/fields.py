"""An engine's record, ``deal.core``, as the deal reads and builds it: `CoreField`, a raw field
of the deal that reads the record, and `in_field_order`, which builds the next record.

Each engine keeps what changes during a deal in one record (``core``: `StockCore`,
`AuctionCore`, `EuchreState`, ...) and offers some of its fields under short names on the
deal itself (``deal.stock`` for ``deal.core.stock``, ``deal.kitty`` for
``deal.core.kitty.cards``). Those names are all this one descriptor: a field declared as
``stock = CoreField[tuple[int, ...]]("stock")`` reads ``core.stock``, typed by its subscript
(not by an annotation, which would make it a field of the attrs class). It is a `property`
whose getter is an `operator.attrgetter`, so a read runs no Python code at all (quicker than
a hand-written property).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Generic, TypeVar, overload

from typing_extensions import Self

__all__ = ["CoreField", "in_field_order", "with_item"]

_V = TypeVar("_V")


class CoreField(property, Generic[_V]):
    """A read-only field of a deal: ``path`` (dotted) inside its ``core`` record, typed by
    the subscript it is declared with, ``CoreField[<type of that field>]("path")``."""

    def __init__(self, path: str) -> None:
        super().__init__(attrgetter("core." + path))
        self.__doc__ = f"``core.{path}``"

    if TYPE_CHECKING:  # the types of a read: the field's value on a deal, the descriptor on its class

        @overload
        def __get__(self, deal: None, owner: type | None = None, /) -> Self: ...

        @overload
        def __get__(self, deal: object, owner: type | None = None, /) -> _V: ...

        def __get__(self, deal: object, owner: type | None = None, /) -> Self | _V: ...


in_field_order = tuple.__new__
"""``in_field_order(Record, values)``: the `NamedTuple` record ``Record`` built from ``values``
given in its field order, without its generated ``__new__`` (which, for a record of more than
15 fields, takes its keywords through a dict: a card played would cost about a fifth more;
see the engines page). The engines' hot transitions build their next record so; this
is the one place of that speed trick."""


def with_item(row: tuple[_V, ...], i: int, value: _V) -> tuple[_V, ...]:
    """``row`` with item ``i`` replaced by ``value``: a record's per-player (or per-side) tuple
    after one player's entry changed."""
    return row[:i] + (value,) + row[i + 1 :]
