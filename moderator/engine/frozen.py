"""A faster constructor for the engine's frozen, slotted dataclasses made by the thousand."""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


def quick_init(cls: T) -> T:
    """Give a frozen dataclass with slots an ``__init__`` that fills each slot through
    its member descriptor. The generated one goes through ``object.__setattr__`` field by
    field, which costs about as much again as the rest of making the object; events and
    decisions are made several times per action. The class stays frozen (assignment
    still raises) and its fields, equality, hash and repr are the dataclass's own."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which quick_init would skip")
    names = [f.name for f in fields(cls)]
    if tuple(names) != tuple(getattr(cls, "__slots__", ())):
        raise TypeError(f"{cls.__name__} has no slots for exactly its fields")
    params = []
    scope: dict[str, Any] = {}
    for f in fields(cls):
        if f.default_factory is not MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes plain fields only")
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        scope[f"_set_{f.name}"] = getattr(cls, f.name).__set__
    args = ", ".join(params)
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {args}):\n{body}", scope, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning a method
    return cls
