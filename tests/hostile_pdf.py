"""Hostile filings built from a genuine factory filing, for tests/test_hostile_filings.py: each attack is a few lines
of PDF a forger could write by hand (pikepdf rewrites a file; `append_update` adds an incremental update)."""

from __future__ import annotations

import io
import re


def append_update(data: bytes, objects: dict[int, bytes]) -> bytes:
    """`data` with one incremental update that defines (or redefines) `objects` (number -> the object's body), with
    a classic cross-reference table, as any PDF editor's save would."""
    import pikepdf

    startxref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        size, root = int(pdf.trailer.Size), pdf.Root.objgen[0]
        ident = pdf.trailer.get("/ID")
        id_text = ident.unparse() if ident is not None else b"[]"
    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for number, body in sorted(objects.items()):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n"
    for number in sorted(offsets):
        out += b"%d 1\n%010d 00000 n \n" % (number, offsets[number])
    out += (b"trailer\n<< /Size %d /Root %d 0 R /Prev %d /ID %s >>\nstartxref\n%d\n%%%%EOF\n"
            % (max(size, max(objects) + 1), root, startxref, id_text, xref))
    return bytes(out)


def catalog(data: bytes) -> tuple[int, bytes]:
    """The catalog's object number and its dictionary as written."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return pdf.Root.objgen[0], pdf.Root.unparse(resolved=True)


def deeply_nested(data: bytes, depth: int = 5000) -> bytes:
    """The catalog given an entry holding `depth` arrays one inside the other (a few KB of `[` and `]`)."""
    number, body = catalog(data)
    body = body.rstrip()[:-2] + b" /Deep " + b"[" * depth + b"]" * depth + b" >>"
    return append_update(data, {number: body})


def shared_name_tree(data: bytes, branches: int = 50, levels: int = 15) -> bytes:
    """The attachments' name tree replaced by `levels` nodes, each listing the next `branches` times: no loop, a
    few KB, but a walk that follows every branch visits branches**levels nodes."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        node = pdf.make_indirect(pikepdf.Dictionary(Names=pikepdf.Array()))
        for _ in range(levels):
            node = pdf.make_indirect(pikepdf.Dictionary(Kids=pikepdf.Array([node] * branches)))
        pdf.Root.Names = pikepdf.Dictionary(EmbeddedFiles=node)
        out = io.BytesIO()
        pdf.save(out, static_id=True)
        return out.getvalue()


def looping_name_tree(data: bytes, branches: int = 8) -> bytes:
    """The attachments' name tree: one node whose kids are itself, `branches` times."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        node = pdf.make_indirect(pikepdf.Dictionary())
        node.Kids = pikepdf.Array([node] * branches)
        pdf.Root.Names = pikepdf.Dictionary(EmbeddedFiles=node)
        out = io.BytesIO()
        pdf.save(out, static_id=True)
        return out.getvalue()


def inflating_attachment(data: bytes, mebibytes_compressed: int = 1) -> bytes:
    """The offering's attached stream replaced, in an update, by Flate data that inflates about a thousandfold:
    `mebibytes_compressed` MiB that decode to about that many GiB of zeros."""
    import zlib

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        names = pdf.Root.Names.EmbeddedFiles.Names
        number = names[1].EF.F.objgen[0]
    deflater = zlib.compressobj(9)
    head = deflater.compress(b"") + deflater.flush(zlib.Z_FULL_FLUSH)
    block = deflater.compress(b"\0" * (16 << 20)) + deflater.flush(zlib.Z_FULL_FLUSH)  # byte-aligned, repeatable
    stream = head + block * max(1, (mebibytes_compressed << 20) // len(block))
    body = (b"<< /Type /EmbeddedFile /Filter /FlateDecode /Length %d >>\nstream\n" % len(stream) + stream
            + b"\nendstream")
    return append_update(data, {number: body})


def many_objects(data: bytes, count: int = 60_000, *, compressed: bool = False) -> bytes:
    """`count` tiny objects more: in an update with a classic cross-reference table, or (`compressed`) the whole
    file rewritten with object streams and a cross-reference stream, where they take a few hundred kilobytes."""
    import pikepdf

    if not compressed:
        return append_update(data, {100 + i: b"[%d]" % i for i in range(count)})
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.Root.Many = pikepdf.Array([pdf.make_indirect(pikepdf.Array([i])) for i in range(count)])
        out = io.BytesIO()
        pdf.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()
