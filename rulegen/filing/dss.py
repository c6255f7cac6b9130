"""The Document Security Store of a PAdES B-LT filing: the validation data (certificates, CRLs, OCSP responses)
written after the signature, in the one form rulegen writes it, so verify can write it again and compare."""

from __future__ import annotations

import io
from typing import Any, cast


def dss_contents(reader: Any) -> tuple[list[bytes], list[bytes], list[bytes]]:
    """The DER bytes of the certificates, OCSP responses and CRLs in the document's DSS, in its order."""
    dss = reader.root["/DSS"]

    def blobs(key: str) -> list[bytes]:
        return [bytes(ref.get_object().data) for ref in (dss.get(key) or [])]

    return blobs("/Certs"), blobs("/OCSPs"), blobs("/CRLs")


def validation_data_update(through_signature: bytes, certs: list[bytes], ocsps: list[bytes],
                           crls: list[bytes]) -> bytes:
    """`through_signature` (the file up to the end of its signature's revision) with one incremental update
    that adds the Document Security Store holding `certs`, `ocsps` and `crls` (DER), and changes nothing else:
    the catalog gains its /DSS entry; the document's ID, Info dictionary and XMP metadata stay as signed.

    The form is fixed (pyHanko's writer, no dates, no random ID), so `rulegen verify` writes the update again
    from the data it holds and compares every byte: a change anywhere after the signature fails. The bytes are
    pyHanko's serialization (checked with 0.38): should a later pyHanko write the same objects differently,
    filings signed before would fail this comparison, so an upgrade must be checked against a stored B-LT
    filing (tests/test_verify_ltv.py makes fresh ones; keep one from the old version to compare)."""
    from asn1crypto import crl as asn1_crl, ocsp as asn1_ocsp, x509 as asn1_x509
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import DocumentSecurityStore

    class _ValidationDataWriter(IncrementalPdfFileWriter):
        @classmethod
        def _handle_id(cls, prev: PdfFileReader) -> generic.ArrayObject:
            return generic.ArrayObject(prev.trailer["/ID"])  # the document is the one signed

        def _update_meta(self) -> None:  # its dates stay as signed
            pass

    writer = _ValidationDataWriter(io.BytesIO(through_signature), strict=True)
    DocumentSecurityStore.supply_dss_in_writer(
        writer, None, certs=[asn1_x509.Certificate.load(c) for c in certs],
        ocsps=[asn1_ocsp.OCSPResponse.load(o) for o in ocsps], crls=[asn1_crl.CertificateList.load(c) for c in crls])
    output = io.BytesIO()
    cast(Any, writer).write(output)  # pyHanko's write() carries no annotations
    return output.getvalue()
