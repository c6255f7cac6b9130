"""The checks of the PDF and its signature: the revisions, the PAdES signature and what it covers, the signing
revision, the unsigned gap, the certificate, trust, the timestamp, and the revocation data a B-LT filing embeds
(offline: nothing is fetched)."""

from __future__ import annotations

import contextlib
import datetime as _dt
import logging
from collections.abc import Iterator
from typing import Any, cast

from rulegen.filing.manifest import sha256
from rulegen.filing.verify.common import FilingState, _asn1_name, _first_line, _organization, _reason, _when
from rulegen.filing.verify.trust import TRUST_ENV


@contextlib.contextmanager
def _quiet_pyhanko() -> Iterator[None]:
    """pyHanko logs each failed path build with a traceback; the report says it in one line instead."""
    loggers = [logging.getLogger(name) for name in ("pyhanko", "pyhanko_certvalidator", "pyhanko.sign")]
    saved = [(lg, lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level, propagate in saved:
            lg.setLevel(level)
            lg.propagate = propagate


class SignatureChecks(FilingState):
    """The PDF and its signature."""

    def _structure(self) -> bool:
        from rulegen.filing.pdf import FilingFormatError, open_reader, revision_end

        report = self.report
        try:
            self.reader = open_reader(self.data)
            revisions = self.reader.xrefs.total_revisions
            self.signatures = list(self.reader.embedded_signatures)
        except FilingFormatError as exc:
            report.add("pdf", False, f"cannot be read as a filing: {exc}")
            return False
        except Exception as exc:
            report.add("pdf", False, f"cannot be read as a PDF: {_reason(exc)}")
            return False
        expected = 2 if self.signatures else 1
        if len(self.signatures) == 1 and revisions == 3:
            self.dss_update = True  # PAdES B-LT: validation data after the signature; the coverage check judges it
        elif revisions != expected:
            report.add("pdf", False, f"{revisions} revisions; a rulegen filing has {expected} (the rendering"
                                     + (", then its signature; or 3, with validation data after the signature)"
                                        if self.signatures else ")")
                                     + ": something was added after it was built")
            return True
        try:
            self.signed_prefix_end = revision_end(self.data, self.reader, 0)
            self.signature_end = revision_end(self.data, self.reader, 1) if self.signatures else None
            end = revision_end(self.data, self.reader, revisions - 1)
        except Exception as exc:
            report.add("pdf", False, f"the rendering's end cannot be found: {_reason(exc)}")
            return True
        if end != len(self.data):
            report.add("pdf", False, f"{len(self.data) - end} bytes follow the end of the PDF")
            return True
        if not self.signatures:
            report.add("pdf", True, f"{len(self.data):,} bytes, one revision")
        else:
            report.add("pdf", True, f"{len(self.data):,} bytes; the rendering is the first {self.signed_prefix_end:,}"
                       + (f", the signature's revision ends at byte {self.signature_end:,}, then an update that "
                          "must hold validation data only" if self.dss_update else ""))
        return True

    def _signature(self) -> None:
        from pyhanko.sign.validation import validate_pdf_signature
        from pyhanko.sign.validation.settings import KeyUsageConstraints
        from pyhanko_certvalidator import ValidationContext

        from rulegen.filing.pdf import FilingFormatError, check_cms_structure, check_signature_gap

        report = self.report
        if not self.signatures:
            report.add("signature", False, "none: this is an unsigned draft, not a filed submission "
                                           "(a filing is signed by `rulegen build --final --sign ID.p12`)")
            return
        report.signed = True  # it claims to be signed; the checks below say whether the claim holds
        if len(self.signatures) > 1:
            report.add("signature", False, f"{len(self.signatures)} signatures; a rulegen filing has exactly one")
            return
        embedded = self.signatures[0]
        signed_bytes = self.data[: self.signature_end] if self.signature_end is not None else self.data
        try:
            gap = check_signature_gap(signed_bytes, embedded.byte_range)
            carried = check_cms_structure(embedded.pkcs7_content[:gap.der_length], self.roots or ())
            report.add("contents", True, f"the DER signature ({gap.der_length:,} bytes; {carried}) is followed "
                                         f"only by {gap.padding:,} zero bytes")
        except FilingFormatError as exc:
            report.add("contents", False, str(exc))
        except Exception as exc:
            report.add("contents", False, _reason(exc))
        try:
            cert = embedded.signer_cert
            signing_time = embedded.self_reported_timestamp
        except Exception as exc:
            report.add("signature", False, f"the signature cannot be read: {_reason(exc)}")
            return
        report.signer = self.certificate_name = _asn1_name(cert)
        report.signer_subject = cert.subject.human_friendly
        report.signer_fingerprint = fingerprint = sha256(cert.dump())
        report.signer_organization = _organization(cert)
        report.signing_time = signing_time.isoformat() if signing_time else None
        key_usage = KeyUsageConstraints(key_usage={"digital_signature", "non_repudiation"}, match_all_key_usages=False)
        context = ValidationContext(trust_roots=list(self.roots or []), allow_fetching=False, moment=signing_time,
                                    revocation_mode="soft-fail")
        try:
            status = validate_pdf_signature(embedded, context, key_usage_settings=key_usage)
        except Exception as exc:
            report.add("signature", False, f"cannot be validated: {_reason(exc)}")
            return
        if status.intact and status.valid:
            report.add("signature", True, f"intact and valid ({status.md_algorithm}, signed by {report.signer} at "
                                          f"{_when(signing_time)} as the signer reports it)")
        elif not status.intact:
            report.add("signature", False, "not intact: the signed bytes were changed after signing (their digest "
                                           "no longer matches the one signed)")
        else:
            report.add("signature", False, "the signature value does not verify with the signer's certificate")
        self._timestamp(status, signing_time)
        self._coverage(status)
        self._signing_revision()
        self._certificate(cert, signing_time)
        issuer = _asn1_name(cert, True)
        if not (status.intact and status.valid):
            report.trusted = None
            report.add("trust", None, f"not checked: the signature itself does not hold (signer {report.signer}, "
                                      f"issued by {issuer})")
        elif not self.roots:
            report.trusted = False
            report.add("trust", False, f"signer {report.signer} (issued by {issuer}; certificate SHA-256 "
                                       f"{fingerprint[:16]}...) is not checked against any trust "
                                       f"root: give --trust CA.pem or set {TRUST_ENV} to a folder of trusted "
                                       "certificates")
        elif status.trusted:
            report.trusted = True
            path = status.validation_path
            anchor_name = path.trust_anchor.authority.name.human_friendly if path is not None else None
            report.add("trust", True, "the certificate chains to the trust root "
                       + (repr(anchor_name) if anchor_name else "given")
                       + f" at the signing time ({_when(signing_time)})")
        else:
            report.trusted = False
            problem = getattr(status, "trust_problem_indic", None)
            report.add("trust", False, f"signer {report.signer} (issued by {issuer}) does not chain to any of the "
                                       f"{len(self.roots)} trust root(s) at the signing time"
                       + (f" ({getattr(problem, 'name', problem)})" if problem else ""))
        try:
            self._revocation(embedded, status, signing_time)
        except Exception as exc:  # a malformed token or DSS: reported, never raised past the report
            report.add("revocation", False, f"the validation data cannot be read: {_reason(exc)}")

    def _coverage(self, status: Any) -> None:
        """The signature covers every byte of the file; or, for PAdES B-LT, every byte up to the end of its own
        revision, followed by one update that pyHanko's difference analysis finds adds validation data only
        (LTA_UPDATES: the Document Security Store) and that changes nothing else (`_dss_only`)."""
        from pyhanko.sign.diff_analysis import ModificationLevel

        report = self.report
        coverage = getattr(status.coverage, "name", str(status.coverage))
        if getattr(status, "docmdp_ok", None) is False:
            report.add("coverage", False, "pyHanko finds the changes after the signature not permitted by it")
            return
        if not self.dss_update:
            level = status.modification_level
            if coverage == "ENTIRE_FILE" and level in (None, ModificationLevel.NONE):
                report.add("coverage", True, "the signature covers the whole file; no revision follows it")
            else:
                report.add("coverage", False, f"the signature does not cover the whole file (coverage "
                                              f"{coverage.lower()})")
            return
        level = status.modification_level
        if coverage != "ENTIRE_REVISION":
            report.add("coverage", False, "the signature does not cover its own revision (coverage "
                                          f"{coverage.lower()})")
        elif level != ModificationLevel.LTA_UPDATES:
            report.add("coverage", False, "the update after the signature is not validation data alone: pyHanko's "
                                          "difference analysis rates it "
                                          + (level.name if level is not None else "unknown"))
        elif (problem := self._validation_data_problem()) is not None:
            report.add("coverage", False, f"the update after the signature is not validation data alone: {problem}")
        else:
            report.add("coverage", True, f"the signature covers every byte up to the end of its revision "
                                         f"({self.signature_end:,}); after it, one update adds validation data "
                                         "(the Document Security Store) and changes nothing else")

    def _signing_revision(self) -> None:
        """The signature's own revision adds the signature and its field, nothing else (pyHanko's difference
        analysis, applied to the signing revision against the rendering before it)."""
        from rulegen.filing.signing_revision import SIGNATURE_FIELD, signing_revision_problem

        problem = signing_revision_problem(self.reader, SIGNATURE_FIELD)
        if problem is None:
            self.report.add("revision", True, f"the signing revision adds the signature field {SIGNATURE_FIELD!r} "
                                              "and its signature, and changes nothing of the rendering")
        else:
            self.report.add("revision", False, "the signing revision changes the document beyond adding the "
                                               f"signature: {problem}")

    def _validation_data_problem(self) -> str | None:
        try:
            return self._dss_only() or self._dss_form() or self._dss_items()
        except Exception as exc:  # a damaged update: reported, never raised past the report
            return f"it cannot be read: {_reason(exc)}"

    def _dss_form(self) -> str | None:
        """The update is byte for byte the one rulegen writes for the validation data it holds."""
        from rulegen.filing.dss import dss_contents, validation_data_update

        assert self.signature_end is not None
        certs, ocsps, crls = dss_contents(self.reader)
        expected = validation_data_update(self.data[: self.signature_end], certs, ocsps, crls)
        if expected == self.data:
            return None
        first = next((i for i, (a, b) in enumerate(zip(expected, self.data)) if a != b),
                     min(len(expected), len(self.data)))
        return (f"it is not in the form rulegen writes for the validation data it holds: byte {first:,} differs "
                f"({len(self.data):,} bytes, {len(expected):,} expected)")

    def _dss_items(self) -> str | None:
        """Every certificate, CRL and OCSP response in the Document Security Store reads, and its own signature
        checks against a certificate the filing or the trust roots hold: the store is unsigned, so a changed byte
        in an item nobody needs would otherwise pass unseen."""
        from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509

        from rulegen.filing.pdf import unverifiable_certificates

        dss = self.reader.root["/DSS"]

        def blobs(key: str) -> list[bytes]:
            return [ref.get_object().data for ref in (dss.get(key) or [])]

        try:
            certs = [asn1_x509.Certificate.load(b, strict=True) for b in blobs("/Certs")]
            crls = [asn1_crl.CertificateList.load(b, strict=True) for b in blobs("/CRLs")]
            ocsps = [asn1_ocsp.OCSPResponse.load(b, strict=True) for b in blobs("/OCSPs")]
            for item in [*certs, *crls, *ocsps]:
                item.native  # parse fully: a damaged item fails here
        except Exception as exc:
            return f"an item of the Document Security Store does not read: {_reason(exc)}"
        embedded = self.signatures[0]
        pool = certs + list(embedded.other_embedded_certs) + [embedded.signer_cert] \
            + _timestamp_certificates(embedded.signer_info)
        bad = unverifiable_certificates(certs, pool, self.roots)
        if bad:
            return "the Document Security Store holds certificate(s) whose own signature does not check: " \
                + ", ".join(bad)
        for index, crl in enumerate(crls):
            if not _signed_by_one_of(crl["tbs_cert_list"].dump(), crl, pool + list(self.roots),
                                     crl["tbs_cert_list"]["issuer"]):
                return f"CRL {index + 1} of the Document Security Store is not signed by its issuer"
        for index, response in enumerate(ocsps):
            basic = response.basic_ocsp_response
            responders = list(basic["certs"] or [])
            if unverifiable_certificates(responders, pool + responders, self.roots):
                return (f"OCSP response {index + 1} of the Document Security Store carries a certificate that does "
                        "not check")
            if not _signed_by_one_of(basic["tbs_response_data"].dump(), basic, pool + responders + list(self.roots),
                                     None, basic["tbs_response_data"]["responder_id"]):
                return f"OCSP response {index + 1} of the Document Security Store is not signed by its responder"
        return None

    def _dss_only(self) -> str | None:
        """The last revision changes the catalog's /DSS entry and adds objects reachable from it, nothing else.
        pyHanko's LTA_UPDATES also admits new document timestamps and new signature fields; a rulegen filing
        has neither."""
        from pyhanko.pdf_utils import generic

        reader = self.reader
        last = reader.xrefs.total_revisions - 1
        root_ref = reader.trailer.raw_get("/Root")
        if not isinstance(root_ref, generic.IndirectObject):
            return "the catalog is not an indirect object"
        dss_ref = reader.root.raw_get("/DSS") if "/DSS" in reader.root else None
        if dss_ref is None:
            return "it holds no Document Security Store"
        previous = reader.get_historical_root(last - 1)
        before = {k: v for k, v in previous.items() if k != "/DSS"}
        now = {k: v for k, v in reader.root.items() if k != "/DSS"}
        if set(before) != set(now) or any(reader.root.raw_get(k) != previous.raw_get(k) for k in before):
            return "it changes the document catalog beyond its /DSS entry"
        reachable: set[tuple[int, int]] = set()
        pending: list[Any] = [dss_ref]
        while pending and len(reachable) < 10_000:
            item = pending.pop()
            if isinstance(item, generic.IndirectObject):
                if (item.idnum, item.generation) in reachable:
                    continue
                reachable.add((item.idnum, item.generation))
                item = cast(Any, item).get_object()  # pyHanko leaves get_object unannotated
            if isinstance(item, generic.DictionaryObject):  # a stream is a dictionary too
                pending.extend(item.raw_get(k) for k in item)
            elif isinstance(item, generic.ArrayObject):
                pending.extend(item.raw_get(i) for i in range(len(item)))
        for entry in ("/Root", "/Info", "/Encrypt"):
            if _raw_or_none(reader.trailer, entry, None) != _raw_or_none(reader.trailer, entry, last - 1):
                return f"it changes the trailer's {entry} entry"
        xref_stream = reader.xrefs.get_xref_container_info(last).stream_ref
        earlier = {(r.idnum, r.generation) for rev in range(last) for r in reader.xrefs.explicit_refs_in_revision(rev)}
        for ref in reader.xrefs.explicit_refs_in_revision(last):
            key = (ref.idnum, ref.generation)
            if key == (root_ref.idnum, root_ref.generation) or ref == xref_stream:
                continue
            if key not in reachable:
                return (f"it changes object {ref.idnum} {ref.generation}, which the Document Security Store does not "
                        "hold")
            if key in earlier:
                return f"it rewrites object {ref.idnum} {ref.generation} of the signed document"
        return None

    def _revocation(self, embedded: Any, status: Any, signing_time: _dt.datetime | None) -> None:
        """The PAdES level, and with a Document Security Store (B-LT) the proof it carries: every certificate below
        the root in the signer's chain and in the timestamp authority's is shown not revoked at the signature's
        time by the CRLs and OCSP responses the file holds. Offline: nothing is fetched, whatever the
        certificates name."""
        import asyncio

        from pyhanko.sign.validation import DocumentSecurityStore
        from pyhanko_certvalidator import CertificateValidator
        from pyhanko_certvalidator.errors import PathBuildingError, RevokedError

        report = self.report
        stamp = getattr(status, "timestamp_validity", None)
        try:
            dss = DocumentSecurityStore.read_dss(self.reader) if "/DSS" in self.reader.root else None
            certs, ocsps, crls = (len(dss.certs), len(dss.ocsps), len(dss.crls)) if dss else (0, 0, 0)
        except Exception as exc:
            report.add("revocation", False, f"the Document Security Store cannot be read: {_reason(exc)}")
            return
        report.revocation_data = {"certificates": certs, "crls": crls, "ocsp_responses": ocsps}
        timestamped = stamp is not None
        report.pades_level = "B-LT" if timestamped and dss is not None and (crls or ocsps) else (
            "B-T" if timestamped else "B-B")
        if dss is None or not (crls or ocsps):
            report.add("revocation", None, "no revocation data is embedded (PAdES " + report.pades_level + "): "
                       "whether the certificate was revoked when it signed cannot be shown offline; "
                       "`rulegen build --sign ID.p12 --tsa URL` embeds it")
            return
        if not self.dss_update:
            report.add("revocation", False, "the Document Security Store is inside the signed revision; rulegen "
                                            "adds it after the signature")
            return
        trusted_time = self._trusted_timestamp()
        moment = trusted_time or signing_time
        held = f"{crls} CRL(s) and {ocsps} OCSP response(s)"
        if report.trusted is not True:
            report.add("revocation", None, f"{held} embedded; not checked: the signer does not chain to a trust root")
            return
        if moment is None:
            report.add("revocation", False, "the signature reports no time to check the revocation data at")
            return
        chains: list[tuple[str, Any, list[Any], set[str]]] = [
            (f"the signer {report.signer}", embedded.signer_cert, list(embedded.other_embedded_certs), set())]
        if stamp is not None and trusted_time is not None:
            token_certs = _timestamp_certificates(embedded.signer_info)
            chains.append((f"the timestamp authority {report.timestamp_authority}", stamp.signing_cert, token_certs,
                           {"time_stamping"}))
        checked = []
        for label, cert, intermediates, extended in chains:
            context = dss.as_validation_context({
                "trust_roots": list(self.roots), "allow_fetching": False, "revocation_mode": "require",
                "moment": moment})
            validator: Any = CertificateValidator(cert, intermediate_certs=intermediates, validation_context=context)
            try:
                path = asyncio.run(validator.async_validate_usage(set(), extended))  # unannotated in certvalidator
            except RevokedError as exc:
                report.add("revocation", False, f"the embedded revocation data shows a certificate of {label} "
                                                f"revoked before the signature's time ({_when(moment)}): "
                                                f"{_first_line(exc)}")
                return
            except PathBuildingError as exc:
                report.add("revocation", False, f"the chain of {label} cannot be built from the filing and the trust "
                                                f"roots: {_first_line(exc)}")
                return
            except Exception as exc:
                report.add("revocation", False, f"the embedded revocation data does not show {label}'s certificates "
                                                f"good at the signature's time ({_when(moment)}): {_first_line(exc)}")
                return
            checked.append(f"{label} ({len(path) - 1} certificate(s) below the root)")
        report.revocation_status = "good"
        report.add("revocation", True, "PAdES B-LT: " + " and ".join(checked) + " were not revoked at the "
                   + ("timestamp's" if trusted_time else "signer's claimed") + f" time ({_when(moment)}), by the "
                   f"{held} the filing embeds; checked offline")

    def _timestamp(self, status: Any, signing_time: _dt.datetime | None) -> None:
        """The RFC 3161 timestamp a --tsa signature carries: its time, its authority, whether it holds."""
        report = self.report
        stamp = getattr(status, "timestamp_validity", None)
        if stamp is None:
            report.add("timestamp", None, "none: the signing time is the signer's own claim (sign with --tsa URL "
                                          "for an RFC 3161 timestamp)")
            return
        when = getattr(stamp, "timestamp", None)
        try:
            authority = _asn1_name(stamp.signing_cert)
        except Exception:
            authority = "an unnamed authority"
        report.timestamp = when.isoformat() if when else None
        report.timestamp_authority = authority
        if not (stamp.intact and stamp.valid):
            report.add("timestamp", False, f"the timestamp token from {authority} does not verify: it was changed "
                                           "or does not belong to this signature")
        elif not stamp.trusted:
            report.add("timestamp", False, f"the timestamp authority {authority} does not chain to a trust root "
                                           "(--trust or RULEGEN_TRUST)")
        else:
            drift = abs((when - signing_time).total_seconds()) if when and signing_time else None
            report.add("timestamp", True, f"RFC 3161 timestamp {_when(when)} by {authority}, intact, valid and "
                                          "trusted" + (f"; the signer's own claim differs by {drift:.0f} s"
                                                       if drift is not None and drift >= 1 else ""))

    def _certificate(self, cert: Any, signing_time: _dt.datetime | None) -> None:
        report = self.report
        validity = cert["tbs_certificate"]["validity"]
        not_before, not_after = validity["not_before"].native, validity["not_after"].native
        if signing_time is None:
            report.add("certificate", False, "the signature reports no signing time")
        elif signing_time > not_after:
            report.add("certificate", False, f"the certificate had expired ({_when(not_after)}) when the filing was "
                                             f"signed ({_when(signing_time)})")
        elif signing_time < not_before:
            report.add("certificate", False, f"the certificate was not yet valid ({_when(not_before)}) when the "
                                             f"filing was signed ({_when(signing_time)})")
        elif (stamp_time := self._trusted_timestamp()) is not None and not (not_before <= stamp_time <= not_after):
            report.add("certificate", False, f"the certificate was not valid ({_when(not_before)} to "
                                             f"{_when(not_after)}) at the timestamp's time ({_when(stamp_time)}), "
                                             "whatever time the signer claims")
        else:
            stamped = any(c.name == "timestamp" and c.ok for c in report.checks)
            report.add("certificate", True, f"valid from {_when(not_before)} to {_when(not_after)}, so at the "
                                            "signing time" + (" (the signer's claim; the timestamp above dates the "
                                                              "signature independently)" if stamped else
                                                              " (the signer's own claim: no timestamp authority)"))

    def _trusted_timestamp(self) -> _dt.datetime | None:
        if self.report.timestamp is None or not any(c.name == "timestamp" and c.ok for c in self.report.checks):
            return None
        return _dt.datetime.fromisoformat(self.report.timestamp)


def _timestamp_certificates(signer_info: Any) -> list[Any]:
    """The certificates the signature's RFC 3161 timestamp token carries (asn1crypto)."""
    found: list[Any] = []
    unsigned = signer_info["unsigned_attrs"]
    if unsigned.native is None:
        return found
    for attribute in unsigned:
        if attribute["type"].native == "signature_time_stamp_token":
            for token in attribute["values"]:
                found.extend(c.chosen for c in token["content"]["certificates"] or [])
    return found


def _signed_by_one_of(tbs: bytes, signed: Any, candidates: list[Any], issuer: Any = None,
                      responder: Any = None) -> bool:
    """Whether the signature over `tbs` (a CRL's or an OCSP response's) checks with the key of one of the
    `candidates` (asn1crypto certificates) named by `issuer` (a Name) or `responder` (an OCSP ResponderId), by
    pyHanko's signature validator (every mechanism it validates signatures with: RSA PKCS#1 v1.5 and PSS, ECDSA,
    DSA, EdDSA)."""
    from rulegen.filing.pdf import signature_checks

    if signed["signature"].contents[:1] != b"\x00":  # a signature is whole bytes: a count of unused bits is a change
        return False
    for candidate in candidates:
        if issuer is not None and candidate.subject != issuer:
            continue
        if responder is not None:
            if responder.name == "by_name" and candidate.subject != responder.chosen:
                continue
            if responder.name == "by_key" and candidate.public_key.sha1 != responder.chosen.native:
                continue
        if signature_checks(signed["signature"].native, tbs, candidate, signed["signature_algorithm"]):
            return True
    return False


def _raw_or_none(trailer: Any, key: str, revision: int | None) -> Any:
    try:
        return trailer.raw_get(key, revision=revision)
    except KeyError:
        return None
