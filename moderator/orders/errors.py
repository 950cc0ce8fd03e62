"""The documented order errors: each carries the line, where in it, why, and what is legal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class OrderError(Exception):
    """An order that was rejected. ``column`` is 1-based (None: the whole line);
    ``legal`` lists the orders allowed now, in order syntax, when it is known."""

    def __init__(
        self,
        reason: str,
        line: str = "",
        column: int | None = None,
        line_no: int | None = None,
        legal: Sequence[str] = (),
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column
        self.line_no = line_no
        self.legal: tuple[str, ...] = tuple(legal)

    def at(self, line: str, line_no: int | None, offset: int = 0) -> OrderError:
        """The same error placed in a mail line (``offset``: where the order starts)."""
        new = self._copy()
        new.line = line
        new.line_no = line_no
        if self.column is not None:
            new.column = self.column + offset
        return new

    def with_legal(self, legal: Sequence[str]) -> OrderError:
        new = self._copy()
        new.legal = tuple(legal)
        return new

    def _copy(self) -> OrderError:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        Exception.__init__(new, self.reason)
        return new

    def render(self, with_legal: bool = True) -> str:
        """Plain text for a mail: the quoted line, a caret, the reason, the legal orders."""
        out: list[str] = []
        if self.line:
            where = f"line {self.line_no}: " if self.line_no is not None else ""
            out.append(f"> {self.line}")
            if self.column is not None and 0 < self.column <= len(self.line) + 1:
                out.append("  " + _caret_pad(self.line, self.column - 1) + "^")
            out.append(f"{where}{self.reason}")
        else:
            out.append(self.reason)
        if with_legal and self.legal:
            out.append("You may order now:")
            out.extend(f"    {text}" for text in self.legal)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render(with_legal=False)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, line={self.line!r}, column={self.column})"


def _caret_pad(line: str, n: int) -> str:
    # Keep tabs so the caret lines up under the same character in a monospaced font.
    return "".join(ch if ch == "\t" else " " for ch in line[:n])


class OrderSyntaxError(OrderError):
    """The words do not form an order."""


class Remark(OrderSyntaxError):
    """Words that can only be a remark: after an order on its line ("Quarry please, I'm
    going to be building a lot"), a question the writer answers with the order after it
    (``why`` ANSWERED), words to or about another player (said_to, said_about): nothing
    in them is done. Still words not understood, so they stop what they may change (an
    order read whole or by what it names); ``checked``: but one that only says the board
    is full ("all my stuff is full"), which the rules check, and which stops nothing."""

    ON_ORDER = "a remark on the order before it: nothing in it is done"
    ON_BOARD = "a remark on your board, which the rules check: nothing in it is done"
    # ("Only corn left? Fine, corn then.": the writer's own question, answered)
    ANSWERED = "a question you answer after it: nothing in it is done"
    # ("Anna, that ship was tiny." in a mail that places colonists or keeps goods)
    ASIDE = "words that name nothing of your order: nothing in them is done"
    # ("That's 4 to place." after a layout that places four)
    TOTAL = "the count of the colonists your order places: it agrees, nothing more is done"

    def __init__(
        self,
        line: str = "",
        line_no: int | None = None,
        checked: bool = False,
        why: str | None = None,
        other: str | None = None,
    ) -> None:
        super().__init__(why or (self.ON_BOARD if checked else self.ON_ORDER))
        self.line = line
        self.line_no = line_no
        self.checked = checked
        self.other = other  # the other player the words are to or about

    @classmethod
    def said_to(cls, name: str, line: str, line_no: int | None) -> Remark:
        """Words said to another player ("Bob, nice move with the mayor.")."""
        return cls(line, line_no, why=f"words to {name}: nothing in them is done", other=name)

    @classmethod
    def said_about(cls, name: str, line: str, line_no: int | None) -> Remark:
        """Words about another player ("Bob keeps sugar", "David's got it")."""
        why = f"this is about {name}: nothing of it is done for you"
        return cls(line, line_no, why=why, other=name)


class WouldHaveBeen(OrderSyntaxError):
    """Words that say what would have been and cannot ("Sigh, should have built that
    warehouse", "I'd have kept the corn"): no order, and no part of one."""

    def __init__(self) -> None:
        super().__init__(
            "this says what would have been, which is no order: write the one you give"
        )


def not_understood(errors: Iterable[OrderError]) -> list[OrderSyntaxError]:
    """The errors that are words not understood, which may change an order read whole or
    by what it names: not a remark that only says the board is full."""
    return [
        e
        for e in errors
        if isinstance(e, OrderSyntaxError) and not (isinstance(e, Remark) and e.checked)
    ]


class IllegalOrder(OrderError):
    """The order is understood but not allowed now (or not this player's turn)."""


class AlreadyDone(IllegalOrder):
    """An order for a decision of this round he has already taken (a mail sent again):
    ``done`` is what was done, as orders. Not done a second time; the reply says so
    apart from the orders it could not read."""

    def __init__(self, done: str, line: str = "", line_no: int | None = None) -> None:
        super().__init__(f"already done: {done}", line, None, line_no)
        self.done = done


class AmbiguousOrder(OrderError):
    """The order could mean two different things; ``alternatives`` says which."""

    def __init__(
        self,
        reason: str,
        alternatives: Sequence[str],
        line: str = "",
        column: int | None = None,
        line_no: int | None = None,
        legal: Sequence[str] = (),
    ) -> None:
        super().__init__(reason, line, column, line_no, legal)
        self.alternatives: tuple[str, ...] = tuple(alternatives)


class Question(AmbiguousOrder):
    """A question between orders ("Trader? Or captain?"): asked back naming them
    (``alternatives``), nothing of it done."""

    def __init__(self, reason: str, alternatives: Sequence[str]) -> None:
        super().__init__(reason, alternatives)


__all__ = [
    "AlreadyDone",
    "AmbiguousOrder",
    "IllegalOrder",
    "OrderError",
    "OrderSyntaxError",
    "Question",
    "Remark",
    "WouldHaveBeen",
    "not_understood",
]
