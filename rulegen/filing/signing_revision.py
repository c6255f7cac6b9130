"""What the signature's own revision may change: the signature and its field, nothing else.

The signature covers the bytes of its revision, and a signer holding a trusted certificate can put anything in
that revision: a new /Pages tree, a content stream appended to page 1, a changed page. pyHanko's difference
analysis judges only the revisions after a signature, so it is applied here to the signing revision itself,
against the rendering before it (revision 0): pyHanko's own rules (the catalog, the document information, the
metadata, object and cross-reference streams, the creation and filling of a signature field and the binding of
its widget to a page), with one addition: a rendering has no form, and the signing revision may create one that
holds nothing but the new signature field. The revision passes when pyHanko rates it form filling at most and
the only field it touches is rulegen's signature field.
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
    return _info_problem(reader)


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


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
