"""What the signature's own revision may change: the signature and its field, nothing else.

The signature covers the bytes of its revision, and a signer holding a trusted certificate can put anything in
that revision: a new /Pages tree, a content stream appended to page 1, a changed page. pyHanko's difference
analysis judges only the revisions after a signature, so it is applied here to the signing revision itself,
against the rendering before it (revision 0): pyHanko's own rules (the catalog, the document information, the
metadata, object and cross-reference streams, the creation and filling of a signature field and the binding of
its widget to a page), with one addition: a rendering has no form, and the signing revision may create one that
holds nothing but the new signature field. The revision passes when pyHanko rates it form filling at most and
the only field it touches is rulegen's signature field, and the document information and XMP metadata state what the
rendering's state but for what signing writes there (producer, modification date): nothing a viewer shows.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, cast

SIGNED_REVISION = 1  # revision 0 is the rendering; revision 1 the signature's
SIGNATURE_FIELD = "RulegenFilingSignature"  # the one form field a filing has: its signature's


def _policy(signature_field: str) -> Any:
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.reader import RawPdfPath
    from pyhanko.sign.diff_analysis import (
        CatalogModificationRule,
        DocInfoRule,
        FormUpdate,
        FormUpdatingRule,
        MetadataUpdateRule,
        ModificationLevel,
        ObjectStreamRule,
        SigFieldCreationRule,
        SigFieldModificationRule,
        StandardDiffPolicy,
        SuspiciousModification,
        XrefStreamRule,
    )
    from pyhanko.sign.diff_analysis.commons import compare_key_refs, qualify_transforming
    from pyhanko.sign.diff_analysis.form_rules_api import FieldComparisonContext, _list_fields

    class FirstFormRule(FormUpdatingRule):
        """pyHanko's form rule, for a base revision that may hold no form yet (pyHanko's own rule assumes the
        signed revision it starts from already has one, as a signed revision always does)."""

        def apply(self, old: Any, new: Any) -> Generator[Any, None, None]:
            if "/AcroForm" in old.root:
                yield from super().apply(old, new)
                return
            _, new_form = yield from qualify_transforming(
                ModificationLevel.LTA_UPDATES, compare_key_refs("/AcroForm", old, old.root, new.root),
                transform=FormUpdate.curry_ref(field_name=None))
            if new_form is None:
                return
            if not isinstance(new_form, generic.DictionaryObject):
                raise SuspiciousModification("the form the signature creates is not a dictionary")
            extra = sorted(set(new_form) - {"/Fields", "/SigFlags"})
            if extra:
                raise SuspiciousModification("the form the signature creates holds more than its fields: "
                                             + ", ".join(extra))
            _, new_fields = yield from qualify_transforming(
                ModificationLevel.LTA_UPDATES,
                compare_key_refs("/Fields", old, cast(Any, generic.DictionaryObject)(), new_form),
                transform=FormUpdate.curry_ref(field_name=None))
            specs = dict(_list_fields(generic.ArrayObject(), new_fields,
                                      old_path=RawPdfPath("/Root", "/AcroForm", "/Fields")))
            context = FieldComparisonContext(field_specs=specs, old=old, new=new)
            for rule in self.field_rules:
                yield from rule.apply(context)

    rules = cast(Any, (CatalogModificationRule, DocInfoRule, XrefStreamRule, ObjectStreamRule, MetadataUpdateRule,
                       SigFieldCreationRule, SigFieldModificationRule))  # pyHanko leaves their constructors unannotated
    catalog, info, xref, objects, metadata, creation, modification = rules
    return StandardDiffPolicy(
        global_rules=[
            catalog(),
            info().as_qualified(ModificationLevel.LTA_UPDATES),
            xref().as_qualified(ModificationLevel.LTA_UPDATES),
            objects().as_qualified(ModificationLevel.LTA_UPDATES),
            metadata().as_qualified(ModificationLevel.LTA_UPDATES),
        ],
        form_rule=FirstFormRule(field_rules=[creation(), modification()]),
    )


def signing_revision_problem(reader: Any, signature_field: str) -> str | None:
    """None when the signing revision (revision 1) only adds the signature field `signature_field` and fills
    it, by pyHanko's difference analysis against the rendering (revision 0); else what it changes beyond that."""
    from pyhanko.sign.diff_analysis import ModificationLevel, SuspiciousModification

    if reader.xrefs.total_revisions <= SIGNED_REVISION:
        return "the file has no signing revision"
    try:
        result = _policy(signature_field).apply(old=reader.get_historical_resolver(SIGNED_REVISION - 1),
                                                new=reader.get_historical_resolver(SIGNED_REVISION))
    except SuspiciousModification as exc:
        return f"pyHanko's difference analysis finds a change beyond the signature: {_first_line(exc)}"
    except RecursionError:
        return "the signing revision cannot be analysed: its objects are nested deeper than any PDF rulegen writes"
    except Exception as exc:  # a malformed revision is a failed check, never a crash
        return f"the signing revision cannot be analysed: {type(exc).__name__}: {_first_line(exc)}"
    level = result.modification_level
    if level > ModificationLevel.FORM_FILLING:
        return f"pyHanko's difference analysis rates it {level.name}, beyond adding a signature"
    fields = set(result.changed_form_fields)
    if fields != {signature_field}:
        return ("it touches the form field(s) " + (", ".join(sorted(map(repr, fields))) or "none")
                + f", not exactly the signature field {signature_field!r}")
    return _info_problem(reader) or _metadata_problem(reader)


# What signing may change in the document information: pyHanko stamps its name and the time. pyHanko's own rule
# for the document information admits any change there (a new title, author or subject a viewer would show).
SIGNING_INFO_KEYS = frozenset({"/ModDate", "/Producer"})


def _info_problem(reader: Any) -> str | None:
    from pyhanko.pdf_utils import generic

    def info(revision: int) -> dict[str, Any]:
        """The document information as the revision has it (read through that revision's own resolver)."""
        resolver = reader.get_historical_resolver(revision)
        try:
            value = resolver.trailer_view.raw_get("/Info")
        except KeyError:
            return {}
        if isinstance(value, generic.IndirectObject):
            value = resolver.get_object(value.reference)
        if not isinstance(value, generic.DictionaryObject):
            return {"(not a dictionary)": repr(value)}
        return {key: value.raw_get(key) for key in value}

    before, after = info(SIGNED_REVISION - 1), info(SIGNED_REVISION)
    changed = sorted(k for k in set(before) | set(after)
                     if k not in SIGNING_INFO_KEYS and before.get(k) != after.get(k))
    if changed:
        return "it changes the document information beyond the producer and modification date: " + ", ".join(changed)
    return None


# What signing may change in the XMP metadata: pyHanko writes the packet again in its own layout (which no viewer
# shows) with its name as the producer and the signing time as the modification date. pyHanko's own rule for the
# metadata admits any well-formed packet (a new title or description a viewer would show).
SIGNING_XMP_PROPERTIES = frozenset({
    "{http://ns.adobe.com/pdf/1.3/}Producer",
    "{http://ns.adobe.com/xap/1.0/}ModifyDate",
    "{http://ns.adobe.com/xap/1.0/}MetadataDate",
})
MAX_XMP_BYTES = 1 << 20  # rulegen's renderings carry under a kilobyte of metadata
_RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


class _UnreadableXmp(Exception):
    pass


def _metadata_problem(reader: Any) -> str | None:
    """The XMP metadata of the signing revision states what the rendering's states, but for the producer and the
    dates signing writes: its properties are compared one by one, whatever the packet's layout."""
    from pyhanko.pdf_utils import generic

    def packet(revision: int) -> bytes | None:
        resolver = reader.get_historical_resolver(revision)
        root = resolver.get_object(resolver.trailer_view.raw_get("/Root").reference)
        try:
            value = root.raw_get("/Metadata")
        except KeyError:
            return None
        if isinstance(value, generic.IndirectObject):
            value = resolver.get_object(value.reference)
        if not isinstance(value, generic.StreamObject):
            raise _UnreadableXmp("it is not a stream")
        if len(value.encoded_data) > MAX_XMP_BYTES:
            raise _UnreadableXmp(f"it is larger than {MAX_XMP_BYTES >> 20} MiB")
        data = value.data
        if len(data) > MAX_XMP_BYTES:
            raise _UnreadableXmp(f"it is larger than {MAX_XMP_BYTES >> 20} MiB")
        return bytes(data)

    try:
        before, after = packet(SIGNED_REVISION - 1), packet(SIGNED_REVISION)
        if before == after:
            return None
        if before is None or after is None:
            return "it " + ("adds" if before is None else "removes") + " the document's XMP metadata"
        old, new = _xmp_properties(before), _xmp_properties(after)
    except _UnreadableXmp as exc:
        return f"its XMP metadata cannot be read: {exc}"
    except Exception as exc:
        return f"its XMP metadata cannot be read: {type(exc).__name__}"
    changed = sorted({name for name, _ in old ^ new} - SIGNING_XMP_PROPERTIES)
    if changed:
        return "it changes the XMP metadata beyond the producer and modification date: " + ", ".join(
            _short(name) for name in changed[:8])
    return None


def _xmp_properties(packet: bytes) -> set[tuple[str, str]]:
    """The properties an XMP packet states, as (property, value) pairs: each rdf:Description's attributes and
    child elements, a structured value (a language alternative, a list) written out in one canonical form."""
    import xml.etree.ElementTree as ET

    if b"<!DOCTYPE" in packet or b"<!ENTITY" in packet:
        raise _UnreadableXmp("it declares a document type or entities, which XMP never does")
    try:
        root = ET.fromstring(packet)
    except ET.ParseError:
        raise _UnreadableXmp("it is not well-formed XML") from None
    found: set[tuple[str, str]] = set()
    descriptions = list(root.iter(f"{_RDF}Description"))
    rdf = next(root.iter(f"{_RDF}RDF"), None)
    if rdf is not None and any(child.tag != f"{_RDF}Description" for child in rdf):
        raise _UnreadableXmp("its RDF holds something other than descriptions")
    for description in descriptions:
        for name, value in description.attrib.items():
            if name != f"{_RDF}about":
                found.add((name, value))
        for child in description:
            found.add((child.tag, _canonical(child)))
    return found


def _canonical(element: Any) -> str:
    """A property's value in one form, whether written as an attribute, text, or nested RDF."""
    if len(element) == 0:
        return (element.text or "").strip()
    parts = []
    for node in element.iter():
        if node is element:
            continue
        attributes = sorted((k, v) for k, v in node.attrib.items() if k == _XML_LANG or not k.startswith(_RDF))
        parts.append(f"<{node.tag} {attributes}>{(node.text or '').strip()}")
    return "".join(parts)


def _short(name: str) -> str:
    prefixes = {"http://purl.org/dc/elements/1.1/": "dc:", "http://ns.adobe.com/xap/1.0/": "xmp:",
                "http://ns.adobe.com/pdf/1.3/": "pdf:", "http://www.aiim.org/pdfa/ns/id/": "pdfaid:"}
    namespace, _, local = name[1:].partition("}")
    return prefixes.get(namespace, namespace + " ") + local if name.startswith("{") else name


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
