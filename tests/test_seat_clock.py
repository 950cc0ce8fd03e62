"""A seat's clock: deadlines in running hours, with weekends paused in his own zone."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moderator.orders.commands import AwayCmd
from moderator.service.deadlines import (
    Schedule,
    due_times,
    return_day,
    running_until,
    weekend_around,
)

BERLIN = ZoneInfo("Europe/Berlin")
TOKYO = ZoneInfo("Asia/Tokyo")
FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def test_without_the_pause_hours_are_hours() -> None:
    assert running_until(FRIDAY_NOON, 48, BERLIN, weekends=False) == FRIDAY_NOON + timedelta(
        hours=48
    )


def test_a_deadline_that_would_fall_in_the_weekend_moves_on_by_the_weekend() -> None:
    # Berlin's Saturday begins Friday 23:00 UTC: 11 hours on Friday, 13 from Monday.
    due = running_until(FRIDAY_NOON, 24, BERLIN, weekends=True)
    assert due == datetime(2026, 11, 29, 23, 0, tzinfo=UTC) + timedelta(hours=13)


def test_a_clock_started_in_the_weekend_runs_from_monday_in_the_seats_zone() -> None:
    saturday = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
    assert running_until(saturday, 1, TOKYO, weekends=True) == datetime(
        2026, 11, 29, 16, 0, tzinfo=UTC
    )  # Monday 00:00 JST is Sunday 15:00 UTC


def test_the_weekend_of_a_dst_change_counts_its_real_hours() -> None:
    # Europe/Berlin leaves summer time on Sunday 25 October 2026: that weekend is 49 h.
    start, end = weekend_around(datetime(2026, 10, 23, 12, 0, tzinfo=UTC), BERLIN)
    assert end - start == timedelta(hours=49)


def test_the_reminder_comes_the_reminder_hours_before_on_the_same_clock() -> None:
    times = due_times(Schedule(48, 12, weekends=True, zone=BERLIN), FRIDAY_NOON)
    # 36 running hours: 11 on Friday, then from Monday 00:00 CET (Sunday 23:00 UTC).
    assert times.remind_at == datetime(2026, 11, 29, 23, 0, tzinfo=UTC) + timedelta(hours=25)
    assert times.due_at == datetime(2026, 11, 29, 23, 0, tzinfo=UTC) + timedelta(hours=37)
    assert due_times(Schedule(48, 0, weekends=False, zone=BERLIN), FRIDAY_NOON).remind_at is None
    assert due_times(Schedule(12, 12, weekends=False, zone=BERLIN), FRIDAY_NOON).remind_at is None


@given(
    start=st.datetimes(
        min_value=datetime(2026, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)
    ),
    hours=st.integers(min_value=1, max_value=24 * 14),
    zone=st.sampled_from(["Europe/Berlin", "Asia/Tokyo", "America/New_York", "Pacific/Apia"]),
)
def test_a_paused_deadline_never_falls_in_a_weekend_and_counts_exactly_its_hours(
    start: datetime, hours: int, zone: str
) -> None:
    tz = ZoneInfo(zone)
    due = running_until(start, hours, tz, weekends=True)
    local = due.astimezone(tz)
    # On the dot of Saturday 00:00 is the end of Friday; otherwise never in a weekend.
    assert local.weekday() < 5 or (local.weekday() == 5 and local.time().hour == 0 == local.minute)
    # The hours that ran: the whole span less its overlap with each local Saturday and
    # Sunday, day by day.
    weekend = timedelta(0)
    day = start.astimezone(tz).date() - timedelta(days=1)
    while day <= due.astimezone(tz).date():
        if day.weekday() >= 5:
            begin = datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)
            end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz).astimezone(UTC)
            weekend += max(timedelta(0), min(end, due) - max(begin, start))
        day += timedelta(days=1)
    assert due - start - weekend == timedelta(hours=hours)


@pytest.mark.parametrize(
    ("command", "day"),
    [
        (AwayCmd(month=12, day=3), date(2026, 12, 3)),
        (AwayCmd(month=11, day=22), date(2026, 11, 22)),  # today: refused by absence_end
        (AwayCmd(month=1, day=5), date(2027, 1, 5)),
        (AwayCmd(month=2, day=29), date(2028, 2, 29)),
        (AwayCmd(month=12, day=3, year=2027), date(2027, 12, 3)),
        (AwayCmd(weekday=6), date(2026, 11, 29)),  # today is a Sunday: the next one
        (AwayCmd(weekday=0), date(2026, 11, 23)),
    ],
)
def test_the_day_an_absence_order_names(command: AwayCmd, day: date) -> None:
    assert return_day(command, date(2026, 11, 22)) == day
