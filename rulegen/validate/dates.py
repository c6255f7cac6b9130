"""Dates, compared as dates: the offering takes effect no earlier than the text it is checked against, and
its sign-offs come before it takes effect."""

from __future__ import annotations

import calendar
import datetime as dt
import re

from rulegen.jurisdiction import FORMAT, Jurisdiction
from rulegen.validate.core import ANY, Check, Context, dotted

EFFECTIVE = ("offering", "effective_date")
EARLIEST_EFFECTIVE = dt.date(1980, 1, 1)  # the PDFs, their fonts and attachments are dated with the effective date
LATEST_EFFECTIVE = dt.date(2999, 12, 31)


def as_date(value) -> dt.date | None:
    """A YYYY-MM-DD date, or None (the schema reports a malformed one)."""
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


_MONTHS = {name.lower(): number for names in (calendar.month_name, calendar.month_abbr)
           for number, name in enumerate(names) if name}
_MONTHS["sept"] = 9
_NUMERIC = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4})")  # 04/12/2027, 12.04.2027, 04-12-2027
_YEAR_FIRST = re.compile(r"(\d{4})[/.](\d{1,2})[/.](\d{1,2})")  # 2027/04/12, 2027.04.12
_MONTH_FIRST = re.compile(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")  # April 12, 2027; Apr 12 2027
_DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]+)\.?,?[\s-]+(\d{4})")  # 12 April 2027; 12-Apr-2027


def _day(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _us(day: dt.date) -> str:
    return f"{calendar.month_name[day.month]} {day.day}, {day.year}"


def _european(day: dt.date) -> str:
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def date_hint(text: object) -> str | None:
    """`write 2027-04-12 (...)` for a date written another way (US or European numbers, a month's name), or None.

    Slashed or dashed numbers are read month first, as in the US, and dotted ones day first, as in Europe, unless
    only the other reading is a day of the calendar; where both are, the hint says which it chose and gives the
    other."""
    if not isinstance(text, str):
        return None
    value = text.strip()
    numeric = _NUMERIC.fullmatch(value)
    if numeric:
        first, separator, second, year = int(numeric[1]), numeric[2], int(numeric[3]), int(numeric[4])
        month_first, day_first = _day(year, first, second), _day(year, second, first)
        if separator == ".":
            chosen, other = (day_first, month_first) if day_first else (month_first, None)
            how = "day first, as dotted dates are written"
        else:
            chosen, other = (month_first, day_first) if month_first else (day_first, None)
            how = "month first, the US order"
        if chosen is None:
            return None
        if other is None or other == chosen:
            words = _us(chosen) if chosen == month_first else _european(chosen)
            if chosen == month_first and chosen == day_first:
                return f"write {chosen.isoformat()}"
            reason = "" if (chosen == month_first) == (separator != ".") else \
                f", as {first if chosen == day_first else second} is no month"
            return f"write {chosen.isoformat()} ({words}{reason})"
        words, other_words = (_us(chosen), _european(other)) if chosen == month_first else \
            (_european(chosen), _us(other))
        return (f"write {chosen.isoformat()} (read {how}: {words}; if {other_words} was meant, write "
                f"{other.isoformat()})")
    year_first = _YEAR_FIRST.fullmatch(value)
    if year_first:
        day = _day(int(year_first[1]), int(year_first[2]), int(year_first[3]))
        return f"write {day.isoformat()}" if day else None
    named = _MONTH_FIRST.fullmatch(value)
    if named and named[1].lower() in _MONTHS:
        day = _day(int(named[3]), _MONTHS[named[1].lower()], int(named[2]))
        return f"write {day.isoformat()}" if day else None
    named = _DAY_FIRST.fullmatch(value)
    if named and named[2].lower() in _MONTHS:
        day = _day(int(named[3]), _MONTHS[named[2].lower()], int(named[1]))
        return f"write {day.isoformat()}" if day else None
    return None


def _section_dates(j: Jurisdiction) -> list[tuple[dt.date, dict]]:
    out = []
    for section in j.data.get("sections") or []:
        date = as_date(section.get("effective")) if isinstance(section, dict) else None
        if date is not None:
            out.append((date, section))
    return out


def _in_range(day: dt.date) -> bool:
    return EARLIEST_EFFECTIVE <= day <= LATEST_EFFECTIVE


def effective_date_in_range(ctx: Context, check: Check) -> None:
    value = ctx.get(EFFECTIVE)
    if not isinstance(value, str) or EFFECTIVE in ctx.schema_nodes:
        return
    day = as_date(value)
    if day is None:
        ctx.add(check, EFFECTIVE, "error", f"offering.effective_date is {value!r}, which is not a day of the calendar")
    elif not _in_range(day):
        ctx.add(check, EFFECTIVE, "error",
                f"offering.effective_date is {value}; an effective date lies between {EARLIEST_EFFECTIVE.isoformat()} "
                f"and {LATEST_EFFECTIVE.isoformat()} (every document, and the font and attachment timestamps inside "
                "it, is dated with it, and those cannot record an earlier day)")


def effective_after_text(ctx: Context, check: Check) -> None:
    """An offering cannot take effect before the sections it is checked against did (only texts that carry
    dates can say: Pennsylvania's chapter took effect 2016-08-27, §§ 674a.7 and 674a.12 as amended 2019-11-02)."""
    effective = as_date(ctx.get(EFFECTIVE))
    if effective is None or ctx.failed(EFFECTIVE) or not _in_range(effective):
        return  # a day outside the range is reported once, by effective_date_in_range
    later = [(date, section) for date, section in _section_dates(ctx.j) if date > effective]
    if not later:
        return
    latest = max(date for date, _section in later)
    sections = [section for date, section in later if date == latest]
    names = [str(section.get("id", "")).strip() for section in sections]
    shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    amended = [entry for entry in (ctx.j.data.get("document") or {}).get("amended") or []
               if as_date(entry.get("effective")) == latest]
    source = f" ({amended[0]['source']})" if amended and amended[0].get("source") else ""
    ctx.add(check, EFFECTIVE, "error",
            f"offering.effective_date is {effective.isoformat()}, before {latest.isoformat()}, when {shown} took "
            f"effect{' as amended' if amended else ''}{source}; rulegen checks an offering against that text, so the "
            "offering cannot take effect before it", sections[0].get("citation"))


def signoff_before_effective(ctx: Context, check: Check) -> None:
    effective = as_date(ctx.get(EFFECTIVE))
    if effective is None:
        return
    for index, entry in enumerate(ctx.get(("signoff",)) or []):
        if not isinstance(entry, dict):
            continue
        date = as_date(entry.get("date"))
        node = ("signoff", index, "date")
        if date is not None and date > effective and node not in ctx.schema_nodes:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {date.isoformat()}, after offering.effective_date {effective.isoformat()}: "
                    f"the {entry.get('role') or 'unnamed'} sign-off would come after the rules take effect; rules "
                    "take effect only once prepared, reviewed and approved")


SIGNOFF_ORDER = ("prepared", "reviewed", "approved")


def signoffs_in_order(ctx: Context, check: Check) -> None:
    """A submission is prepared, then reviewed, then approved: no sign-off is dated before the one it follows."""
    dated: dict[str, tuple[dt.date, int]] = {}
    for index, entry in enumerate(ctx.get(("signoff",)) or []):
        if isinstance(entry, dict) and entry.get("role") in SIGNOFF_ORDER and ("signoff", index, "date") not in \
                ctx.schema_nodes:
            date = as_date(entry.get("date"))
            if date is not None:
                dated.setdefault(str(entry["role"]), (date, index))
    for earlier, later in zip(SIGNOFF_ORDER, SIGNOFF_ORDER[1:]):
        if earlier in dated and later in dated and dated[later][0] < dated[earlier][0]:
            node = ("signoff", dated[later][1], "date")
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {dated[later][0].isoformat()}, before the {earlier} sign-off of "
                    f"{dated[earlier][0].isoformat()}: a submission is {later} only after it is {earlier}")


def _dated_sections(j: Jurisdiction) -> list[str]:
    return [str(section.get("citation")) for _date, section in _section_dates(j)]


CHECKS = (
    Check("effective date in range", EFFECTIVE, FORMAT, "effective-date-range", effective_date_in_range,
          jurisdictional=False),
    Check("effective no earlier than the text", EFFECTIVE, _dated_sections, "effective-date", effective_after_text),
    Check("sign-off dated before the effective date", ("signoff", ANY, "date"), FORMAT, "signoff-date",
          signoff_before_effective, jurisdictional=False),
    Check("sign-offs in order", ("signoff", ANY, "date"), FORMAT, "signoff-order", signoffs_in_order,
          jurisdictional=False),
)
