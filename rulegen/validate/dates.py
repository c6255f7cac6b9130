"""Dates, compared as dates: the offering takes effect no earlier than the text it is checked against, and
its sign-offs come before it takes effect."""

from __future__ import annotations

import datetime as dt

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
