"""HTML → PDF bytes with WeasyPrint, the same bytes every time for the same input.

What would otherwise vary: the document's dates (taken from the offering's effective date, given to
WeasyPrint as dcterms.created/modified in the HTML head), the file identifier (derived from the HTML
and the attachments' bytes), attachment dates (set by the caller). PDF/X-4 (the printer's sign) writes a
random DocumentID: rulegen.render.prepress replaces it with one derived from the input. The same fetcher reads the HTML's resources and every stylesheet.
"""

from __future__ import annotations

import datetime as _dt
import gc
import hashlib
import io
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, overload

from rulegen.errors import OutputError, RenderError, RulegenError
from rulegen.render.fetcher import ASSET_SCHEME, RefusedResource, SafeFetcher

ARCHIVAL_VARIANT = "pdf/a-3u"  # the archival choice that allows attachments (the offering, the manifest)


def epoch_of(day: str | None) -> int:
    """Seconds since 1970 at midnight UTC of an ISO date; 0 when there is none."""
    try:
        date = _dt.date.fromisoformat(str(day)[:10])
    except (TypeError, ValueError):
        return 0
    return int(_dt.datetime(date.year, date.month, date.day, tzinfo=_dt.timezone.utc).timestamp())


def w3c_datetime(day: str | None) -> str:
    """The metadata date of a document: its effective date at midnight UTC."""
    moment = _dt.datetime.fromtimestamp(epoch_of(day), tz=_dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@contextmanager
def source_date_epoch(seconds: int) -> Iterator[None]:
    """SOURCE_DATE_EPOCH for the duration of one rendering (read by libraries that honour it)."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(seconds)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


class _WarningsToErrors(logging.Handler):
    """WeasyPrint logs a resource it could not load and carries on; we want to know."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


RENDER_SECONDS = 120.0  # one PDF: a few seconds here; a renderer still at it after two minutes is caught in a bomb


class RenderTimeout(RenderError):
    """The rendering of one PDF ran past its time bound."""


def _render_seconds() -> float:
    """RULEGEN_RENDER_SECONDS, or the default; a value that is not a positive number is a clear error."""
    import math

    text = os.environ.get("RULEGEN_RENDER_SECONDS")
    if not text:
        return float(RENDER_SECONDS)
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise RenderError(f"RULEGEN_RENDER_SECONDS is {text!r}; give the most seconds a rendering may take, such "
                          f"as {RENDER_SECONDS:g}")
    return seconds


@contextmanager
def time_bound(what: str) -> Iterator[None]:
    """Stop the rendering of `what` with RenderTimeout once `RULEGEN_RENDER_SECONDS` (default 120) pass.

    A timer signal interrupts WeasyPrint (or a template's loop) wherever it is; the build then stops and writes
    nothing. Signals reach only the main thread: rendered elsewhere (never by the command line) there is no bound.
    Within a bound, another is not armed: the outer one holds.
    """
    import signal
    import threading

    global _bound_pid
    seconds = _render_seconds()
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer") \
            or _bound_pid == os.getpid():  # within a bound already (a template rendered in a PDF's): it holds
        yield
        return

    def expire(_signum: int, _frame: object) -> None:
        # Armed again, once, before raising: if this exception lands where Python swallows it (a garbage-collector
        # callback), the signal comes back a quarter second later; the `finally` below disarms it otherwise.
        signal.setitimer(signal.ITIMER_REAL, 0.25)
        raise RenderTimeout(f"rendering {what} took longer than {seconds:g} s and was stopped; nothing was written "
                            "(a logo or text that takes this long to lay out is not one a document can carry)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _bound_pid = os.getpid()
    try:
        yield
    finally:
        _bound_pid = None
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# The process whose main thread is within a time_bound, whose timer holds (a forked worker inherits the mark but
# not the timer, so the mark counts only in the process that set it).
_bound_pid: int | None = None


class LaidOut:
    """A document laid out and paginated, waiting to be written: the attachments of rules.pdf (which hold the
    manifest, which hashes the other outputs) are only known after the other documents are rendered, and
    laying out does not depend on them, so the build lays rules.pdf out while the others render."""

    def __init__(self, document: Any, options: dict[str, Any], fetcher: SafeFetcher, effective_date: str | None):
        self.document = document
        self.options = options
        self.fetcher = fetcher
        self.effective_date = effective_date

    def write(self, attachments: list[Any] | Callable[[], list[Any]] | None = None) -> bytes:
        """The PDF bytes, with `attachments` (WeasyPrint Attachments) embedded.

        `attachments` may be a function that makes them: it is called when WeasyPrint comes to the attachments,
        after it has painted every page, so the pages are drawn while what the function waits for (the other
        documents, which the manifest hashes) is still being rendered elsewhere. The bytes are the same as with
        the list itself: WeasyPrint writes the same objects in the same order.
        """
        deferred = _Deferred(attachments) if callable(attachments) else attachments or None
        options = {**self.options, "attachments": deferred}
        try:
            with _rendering(self.fetcher, self.effective_date):
                with _layout_tables_dropped_before_subsetting():
                    pdf: bytes = self.document.write_pdf(**options)
        except _MakingFailed as failed:  # the function's own error, as it raised it (not one of the rendering's)
            raise failed.error from None
        return pdf


class _MakingFailed(Exception):
    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


class _Deferred(Sequence[Any]):
    """A list made by a function the first time anything looks at it (its length, truth or items)."""

    def __init__(self, make: Callable[[], list[Any]]):
        self._make: Callable[[], list[Any]] | None = make
        self._items: list[Any] = []

    def _list(self) -> list[Any]:
        if self._make is not None:
            make, self._make = self._make, None
            try:
                self._items = list(make())
            except Exception as exc:  # carried through WeasyPrint and the rendering's handlers untouched
                raise _MakingFailed(exc) from exc
        return self._items

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._list()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._list())


def lay_out(html: str, *, fetcher: SafeFetcher, effective_date: str | None, identifier_seed: bytes = b"",
            variant: str | None = ARCHIVAL_VARIANT) -> LaidOut:
    """`html` laid out and paginated. Raises RenderError naming the resource when the fetcher refuses one."""
    from weasyprint import HTML

    digest = hashlib.sha256(html.encode("utf-8"))
    digest.update(identifier_seed)
    identifier = digest.hexdigest()[:32].encode("ascii")
    # The options of the layout and of the writing are the same (the attachments aside), as when WeasyPrint's
    # HTML.write_pdf does both, so the bytes are the same as one call would give.
    options: dict[str, Any] = {"pdf_identifier": identifier, "pdf_variant": variant, "uncompressed_pdf": False,
                               "optimize_images": False}
    with _rendering(fetcher, effective_date):
        document = HTML(string=html, base_url=f"{ASSET_SCHEME}:", url_fetcher=fetcher).render(**options)
    return LaidOut(document, options, fetcher, effective_date)


def render_pdf(html: str, *, fetcher: SafeFetcher, effective_date: str | None, identifier_seed: bytes = b"",
               attachments: list[Any] | None = None, variant: str | None = ARCHIVAL_VARIANT,
               check: Callable[[Any], None] | None = None) -> bytes:
    """The PDF of `html`. Raises RenderError naming the resource when the fetcher refuses one.

    `check`, when given, is called with WeasyPrint's laid-out Document before the PDF is written (the sign
    measures its layout there and raises to be laid out again at another size).
    """
    laid_out = lay_out(html, fetcher=fetcher, effective_date=effective_date, identifier_seed=identifier_seed,
                       variant=variant)
    if check is not None:
        check(laid_out.document)
    return laid_out.write(attachments)


# The collector's thresholds while any rendering runs in this process. WeasyPrint allocates millions of short-lived
# objects (boxes, styles, text runs) that reference counting frees; at Python's default thresholds the cyclic
# collector still walks the young generation every 700 allocations and the whole heap every few thousand, which is
# a fifth to a quarter of a rendering's time. The objects are the same and so are the bytes: only when cycles are
# looked for changes.
_RENDERING_THRESHOLDS = (50_000, 20, 100)
_collections_lock = threading.Lock()
_renderings = 0
_saved_thresholds: tuple[int, ...] = ()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The cyclic collector run less often while this block (and any other rendering in the process) runs; the
    thresholds are put back when the last rendering ends, so threads rendering at once leave them as they were."""
    global _renderings, _saved_thresholds
    with _collections_lock:
        if _renderings == 0:
            _saved_thresholds = gc.get_threshold()
            gc.set_threshold(*_RENDERING_THRESHOLDS)
        _renderings += 1
    try:
        yield
    finally:
        with _collections_lock:
            _renderings -= 1
            if _renderings == 0:
                gc.set_threshold(*_saved_thresholds)


@contextmanager
def _rendering(fetcher: SafeFetcher, effective_date: str | None) -> Iterator[None]:
    """One phase of a rendering: the reproducible clock, WeasyPrint's warnings collected, and every way the
    rendering can fail turned into a RenderError or OutputError that names the cause."""
    from weasyprint.urls import FatalURLFetchingError

    fetcher.refused.clear()
    logger = logging.getLogger("weasyprint")
    handler = _WarningsToErrors()
    logger.addHandler(handler)
    try:
        with time_bound("one PDF"), source_date_epoch(epoch_of(effective_date)), fewer_collections():
            yield
    except RefusedResource as exc:
        raise RenderError(str(exc)) from None
    except FatalURLFetchingError as exc:
        cause = exc.__cause__ or exc.__context__
        raise RenderError(f"a resource could not be read: {cause or exc}") from None
    except RulegenError:
        raise
    except OSError as exc:
        raise OutputError(f"rendering failed: {exc}") from None
    finally:
        logger.removeHandler(handler)
    if fetcher.refused:
        raise RenderError(str(fetcher.refused[0]))
    troubles = [m for m in handler.messages if "Failed" in m or "Error" in m or "refused" in m]
    if troubles:
        raise RenderError("WeasyPrint could not load every resource: " + "; ".join(troubles[:3]))


@contextmanager
def _layout_tables_dropped_before_subsetting() -> Iterator[None]:
    """Subset the embedded fonts without reading their GSUB and GPOS tables.

    WeasyPrint drops GSUB and GPOS from every font it embeds (text is shaped already, by Pango), but fontTools
    (4.60 and later) decodes both tables in full before it prunes them, and for our DejaVu fonts that decoding
    was most of the time spent on fonts. Deleting the two tables first keeps every glyph the document uses
    (WeasyPrint asks for those by id) and leaves out only glyphs a ligature or substitution could have
    reached, which the shaped text does not use: the pages and their text are the same, the fonts smaller.
    """
    from fontTools import subset

    original = subset.Subsetter.subset

    def subset_without_layout_tables(self: Any, font: Any) -> Any:
        for tag in ("GSUB", "GPOS"):
            if tag in self.options.drop_tables and tag in font:
                del font[tag]
        return original(self, font)

    subset.Subsetter.subset = subset_without_layout_tables
    try:
        yield
    finally:
        subset.Subsetter.subset = original


# --- what the filing records of the renderer, and what it attaches ---------------------------------------------------

def renderer_versions() -> dict[str, str | None]:
    """The versions of the libraries that lay out and write the PDFs: WeasyPrint, pydyf, Pango (None where one
    cannot be read). The build hands this reader to the filing layer, whose manifest records them."""
    versions: dict[str, str | None] = {}
    try:
        import weasyprint

        versions["weasyprint"] = str(weasyprint.__version__)
    except Exception:  # a manifest is still written where WeasyPrint cannot load
        versions["weasyprint"] = None
    try:
        import pydyf

        versions["pydyf"] = str(pydyf.__version__)
    except Exception:
        versions["pydyf"] = None
    versions["pango"] = pango_version()
    return versions


def pango_version() -> str | None:
    try:
        from weasyprint.text.ffi import pango

        number = int(pango.pango_version())
    except Exception:
        return None
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


def pdf_attachments(files: Iterable[tuple[str, bytes, str]], when: _dt.datetime) -> list[Any]:
    """WeasyPrint Attachments of (name, bytes, description), each dated `when` (WeasyPrint would otherwise stamp
    the clock) and related to the document as its source."""
    from weasyprint import Attachment

    return [Attachment(file_obj=io.BytesIO(content), name=name, description=description, created=when,
                       modified=when, relationship="Source")
            for name, content, description in files]
