"""The queue of filings, a page at a time: filtered (status, assignee, jurisdiction, the day received) and
searched (operator or offering), newest first, paged by a cursor.

A page is keyed by the filing numbers at its edges (`before=N`: the filings older than N; `after=N`: newer than N),
not by an offset, so a filing that arrives while an analyst pages through the queue neither repeats a row on the
next page nor hides one. The page and `GET /api/filings` read the same parameters and give the same rows.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import and_, func, or_, select, true
from sqlalchemy.engine import Engine

from rulegen.web.desk import store
from rulegen.web.desk.store import filings

PAGE_SIZE = 50
MOST_PER_PAGE = 500
FILTERS = ("status", "assignee", "jurisdiction", "q", "from", "to")  # the query parameters, as the links carry them


class BadQuery(ValueError):
    """A queue request the desk cannot read (a page size out of range, a date that is no date): the message says
    which and what it takes."""


@dataclass(frozen=True)
class QueueQuery:
    status: str | None = None
    assignee: str | None = None
    jurisdiction: str | None = None
    search: str | None = None  # in the operator's name or the offering's id, whatever the case
    received_from: _dt.date | None = None
    received_to: _dt.date | None = None  # the day itself included
    limit: int = PAGE_SIZE
    before: int | None = None
    after: int | None = None

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> QueueQuery:
        def text(name: str, longest: int = 200) -> str | None:
            value = (params.get(name) or "").strip()
            if len(value) > longest:
                raise BadQuery(f"{name} is at most {longest} characters")
            return value or None

        def number(name: str) -> int | None:
            value = text(name, 12)
            if value is None:
                return None
            if not value.isdigit():
                raise BadQuery(f"{name} is a filing number (digits), not {value!r}")
            return int(value)

        def day(name: str) -> _dt.date | None:
            value = text(name, 10)
            try:
                return None if value is None else _dt.date.fromisoformat(value)
            except ValueError:
                raise BadQuery(f"{name} is a date written YYYY-MM-DD, not {value!r}") from None

        status = text("status")
        if status is not None and status not in store.STATUSES:
            raise BadQuery(f"the status is {status!r}; it is one of {', '.join(store.STATUSES)}")
        limit = number("limit")
        if limit is not None and not 1 <= limit <= MOST_PER_PAGE:
            raise BadQuery(f"limit is a page size from 1 to {MOST_PER_PAGE}")
        before, after = number("before"), number("after")
        if before is not None and after is not None:
            raise BadQuery("give before or after, not both")
        return cls(status=status, assignee=text("assignee"), jurisdiction=text("jurisdiction"),
                   search=text("q"), received_from=day("from"), received_to=day("to"),
                   limit=limit or PAGE_SIZE, before=before, after=after)

    def params(self, **cursor: int) -> dict[str, str]:
        """The query's filters as query parameters (the page size if not the default), with a cursor."""
        values = {"status": self.status, "assignee": self.assignee, "jurisdiction": self.jurisdiction,
                  "q": self.search, "from": self.received_from.isoformat() if self.received_from else None,
                  "to": self.received_to.isoformat() if self.received_to else None,
                  "limit": str(self.limit) if self.limit != PAGE_SIZE else None}
        found = {name: value for name, value in values.items() if value is not None}
        found.update({name: str(value) for name, value in cursor.items()})
        return found

    def link(self, path: str, **cursor: int) -> str:
        query = urlencode(self.params(**cursor))
        return f"{path}?{query}" if query else path


@dataclass(frozen=True)
class QueuePage:
    query: QueueQuery
    filings: list[dict[str, Any]]
    total: int  # the filings the filters match, on every page
    first: int  # the position of the page's first row among them, from 1 (0 on an empty page)
    newer: int | None = None  # the cursor of the page before (after=), None on the first page
    older: int | None = None  # the cursor of the page after (before=), None on the last
    jurisdictions: list[str] = field(default_factory=list)  # every jurisdiction the queue holds, for the filter

    def links(self, path: str) -> dict[str, str | None]:
        """The links to the first, the newer and the older page, each keeping the filters."""
        return {"first": self.query.link(path),
                "previous": self.query.link(path, after=self.newer) if self.newer is not None else None,
                "next": self.query.link(path, before=self.older) if self.older is not None else None}


def _conditions(query: QueueQuery, names: dict[int, str]) -> list[Any]:
    conditions: list[Any] = []
    if query.status:
        conditions.append(filings.c.status == query.status)
    if query.assignee:
        conditions.append(filings.c.assignee.in_([i for i, n in names.items() if n == query.assignee]))
    if query.jurisdiction:
        conditions.append(filings.c.jurisdiction == query.jurisdiction)
    if query.search:
        wanted = query.search.lower()
        conditions.append(or_(func.lower(filings.c.operator).contains(wanted, autoescape=True),
                              func.lower(filings.c.offering_id).contains(wanted, autoescape=True)))
    if query.received_from:
        conditions.append(filings.c.received_at >= _midnight(query.received_from))
    if query.received_to:
        conditions.append(filings.c.received_at < _midnight(query.received_to + _dt.timedelta(days=1)))
    return conditions


def _midnight(day: _dt.date) -> _dt.datetime:
    return _dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc)  # the desk records in UTC


def queue_page(engine: Engine, query: QueueQuery) -> QueuePage:
    """One page of the queue, newest first, with the cursors of the pages either side and the count of all the
    filings the filters match."""
    with engine.connect() as connection:
        names = {r.id: r.name for r in connection.execute(select(store.users.c.id, store.users.c.name))}
        matching = and_(true(), *_conditions(query, names))

        def count(*more: Any) -> int:
            return int(connection.execute(select(func.count()).select_from(filings)
                                          .where(matching, *more)).scalar() or 0)

        def exists(*more: Any) -> bool:
            return connection.execute(select(filings.c.id).where(matching, *more).limit(1)).first() is not None

        if query.after is not None:  # the page just newer than `after`: read upwards, shown newest first
            rows = list(reversed(connection.execute(
                select(filings).where(matching, filings.c.id > query.after)
                .order_by(filings.c.id.asc()).limit(query.limit)).all()))
        else:
            cursor = [filings.c.id < query.before] if query.before is not None else []
            rows = list(connection.execute(select(filings).where(matching, *cursor)
                                           .order_by(filings.c.id.desc()).limit(query.limit)).all())
        total = count()
        jurisdictions = sorted(j for j in connection.execute(select(filings.c.jurisdiction).distinct()).scalars()
                               if j)
        if rows:
            newer = rows[0].id if exists(filings.c.id > rows[0].id) else None
            older = rows[-1].id if exists(filings.c.id < rows[-1].id) else None
            first = count(filings.c.id > rows[0].id) + 1
        else:  # past either end: the way back is the first page
            newer = older = None
            first = 0
        latest = store.latest_verifications(connection, [r.id for r in rows])
    return QueuePage(query=query, filings=[store.filing_row(r, names, latest=latest.get(r.id)) for r in rows],
                     total=total, first=first, newer=newer, older=older, jurisdictions=jurisdictions)

