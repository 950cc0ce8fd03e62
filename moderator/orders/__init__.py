"""The order language: mail text to typed commands, commands to engine actions, and back."""

from .check import Accepted, Report, check_mail, parse_text
from .commands import Command, GameCommand, ServiceCommand, is_service, target_kind
from .errors import AmbiguousOrder, IllegalOrder, OrderError, OrderSyntaxError
from .format import default_order, format_action, legal_orders
from .help import help_guide, help_text
from .parser import parse_mail, parse_order
from .queue import DecisionKey, QueuedOrder, decision_key, enqueue, prune, take_queued, try_queued
from .resolve import resolve

__all__ = [
    "Accepted",
    "AmbiguousOrder",
    "Command",
    "DecisionKey",
    "GameCommand",
    "IllegalOrder",
    "OrderError",
    "OrderSyntaxError",
    "QueuedOrder",
    "Report",
    "ServiceCommand",
    "check_mail",
    "decision_key",
    "default_order",
    "enqueue",
    "format_action",
    "help_guide",
    "help_text",
    "is_service",
    "legal_orders",
    "parse_mail",
    "parse_order",
    "parse_text",
    "prune",
    "resolve",
    "take_queued",
    "target_kind",
    "try_queued",
]
