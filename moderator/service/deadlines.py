"""When a seat's decision falls due: deadlines run in hours of the seat's own clock, which
stops over the weekend (when the game pauses then) and while he is away (when the game
stretches deadlines for absences)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..orders.commands import AwayCmd

SATURDAY = 5
SUNDAY = 6


def zone_of(name: str) -> ZoneInfo:
    """The seat's time zone (stored names are checked when a seat is made; UTC if not)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _local_midnight(day: datetime, zone: ZoneInfo) -> datetime:
    return datetime.combine(day.date(), time(0), tzinfo=zone).astimezone(UTC)


def weekend_around(moment: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The weekend (Saturday 00:00 to Monday 00:00 in ``zone``, as UTC instants) that
    ``moment`` falls in, else the next one."""
    local = moment.astimezone(zone)
    weekday = local.weekday()
    if weekday == SUNDAY:
        saturday = local - timedelta(days=1)
    else:
        saturday = local + timedelta(days=(SATURDAY - weekday) % 7)
    start = _local_midnight(saturday, zone)
    end = _local_midnight(saturday + timedelta(days=2), zone)
    return start, end


def running_until(start: datetime, hours: float, zone: ZoneInfo, weekends: bool) -> datetime:
    """The moment ``hours`` of running time after ``start``: with ``weekends`` paused,
    the hours of Saturdays and Sundays in ``zone`` do not count (a deadline that would
    fall in a weekend moves on by the weekend's length; DST days count as they are)."""
    left = timedelta(hours=hours)
    now = start
    if not weekends:
        return now + left
    while True:
        saturday, monday = weekend_around(now, zone)
        if now >= saturday:  # inside a weekend: the clock starts again on Monday
            now = monday
            continue
        if now + left <= saturday:
            return now + left
        left -= saturday - now
        now = monday


@dataclass(frozen=True, slots=True)
class Schedule:
    """A game's deadline rules, as they apply to one seat."""

    hours: int  # running hours a decision may take
    reminder_hours: int  # a reminder this many running hours before the deadline
    weekends: bool  # Saturdays and Sundays do not count
    zone: ZoneInfo  # the seat's time zone (where his weekend is)


@dataclass(frozen=True, slots=True)
class DueTimes:
    due_at: datetime
    remind_at: datetime | None


def due_times(schedule: Schedule, start: datetime) -> DueTimes:
    """The deadline and reminder of a decision whose clock starts at ``start`` (now, or
    when an absent player is back)."""
    due = running_until(start, schedule.hours, schedule.zone, schedule.weekends)
    before = schedule.hours - schedule.reminder_hours
    remind = None
    if schedule.reminder_hours > 0 and before > 0:
        remind = running_until(start, before, schedule.zone, schedule.weekends)
    return DueTimes(due, remind)


class AbsenceError(ValueError):
    """An absence that cannot be: ended already, or longer than the game allows."""


def absence_end(
    now: datetime,
    zone: ZoneInfo,
    longest_days: int,
    *,
    days: int | None = None,
    until: date | None = None,
) -> datetime:
    """When an absence announced ``now`` ends: ``days`` whole days later, or at the start
    of the day ``until`` in the player's zone ("away until 3 December": back that day).
    AbsenceError when that is not after now, or more than ``longest_days`` away."""
    if (days is None) == (until is None):
        raise ValueError("an absence ends after some days or on a day, one of the two")
    if days is not None:
        if days < 1:
            raise AbsenceError("an absence lasts at least one day")
        end = now + timedelta(days=days)
    else:
        assert until is not None
        end = datetime.combine(until, time(0), tzinfo=zone).astimezone(UTC)
    if end <= now:
        local = end.astimezone(zone)
        raise AbsenceError(f"{local:%a %d %b %Y} has begun already; you are back then")
    if end - now > timedelta(days=longest_days):
        raise AbsenceError(f"an absence may last {longest_days} days at most")
    return end


def next_day_of(today: date, month: int, day: int) -> date:
    """The first ``day`` of ``month`` on or after ``today`` (a 29 February: the next leap
    year's). ValueError for a day the month never has (31 April)."""
    for year in (today.year, today.year + 1, today.year + 2, today.year + 3, today.year + 4):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue  # 29 February: a leap year comes
        if candidate >= today:
            return candidate
    raise ValueError(f"no day {day} in month {month}")


def return_day(command: AwayCmd, today: date) -> date:
    """The day an absence order names ("away until 3 December", "until Monday"), seen
    from ``today`` in the player's zone: a weekday is the next one after today; a day of a
    month the next such day (today included), or that of the year named."""
    if command.weekday is not None:
        return today + timedelta(days=(command.weekday - today.weekday() - 1) % 7 + 1)
    assert command.month is not None and command.day is not None
    if command.year is not None:
        return date(command.year, command.month, command.day)
    return next_day_of(today, command.month, command.day)


__all__ = [
    "AbsenceError",
    "DueTimes",
    "Schedule",
    "absence_end",
    "due_times",
    "next_day_of",
    "return_day",
    "running_until",
    "weekend_around",
    "zone_of",
]
