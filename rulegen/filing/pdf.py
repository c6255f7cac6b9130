"""Reading a filing's PDF structure: its revisions, the signature's /Contents gap, its attachments.

Everything here works on untrusted bytes: a tampered file may be malformed anywhere, so each reader
bounds its walk and reports a problem as text instead of raising past the caller.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from asn1crypto import x509 as asn1_x509
    from pyhanko.pdf_utils.reader import PdfFileReader

HEX_UPPER = frozenset(b"0123456789ABCDEF")
MAX_NAME_TREE_DEPTH = 16
MAX_ATTACHMENTS = 64
MAX_NAME_TREE_NODES = 256
# An offering holds at most 1 MiB and a logo 5 MiB: what one attachment, and all of them, may hold once decoded.
MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024
MAX_ATTACHMENTS_BYTES = 16 * 1024 * 1024


class FilingFormatError(Exception):
    """The PDF is not shaped like a rulegen filing; the message says where."""


# rulegen's filings hold a few hundred objects (a sign or appendix a few dozen): a cross-reference table far beyond
# this is no filing, and pyHanko holds every entry in memory (3 million entries, 57 MB of table, took 2 GB).
MAX_PDF_OBJECTS = 50_000
MAX_DECODED_STREAM = 32 * 1024 * 1024
MAX_DECODED_TOTAL = 256 * 1024 * 1024
_CLASSIC_XREF = re.compile(rb"(?<![A-Za-z])xref[ \t]*\r?\n")
_SUBSECTION = re.compile(rb"[ \t\r\n]*(\d{1,12})[ \t]+(\d{1,12})[ \t]*\r?\n")
_XREF_STREAM = re.compile(rb"/Type\s*/XRef\b")
_OBJECT = re.compile(rb"\d{1,12}\s+\d{1,6}\s+obj\b")


def too_many_objects(data: bytes) -> str | None:
    """Why the PDF declares more objects than any rulegen filing, read from its bytes before any parser holds
    them: the entries of its cross-reference tables and streams, and its objects; None when within bounds."""
    declared = 0
    for found in _CLASSIC_XREF.finditer(data):
        position = found.end()
        while declared <= MAX_PDF_OBJECTS:
            subsection = _SUBSECTION.match(data, position)
            if subsection is None:
                break
            count = int(subsection.group(2))
            declared += count
            position = subsection.end() + 20 * min(count, len(data))
    for found in _XREF_STREAM.finditer(data):
        start = max(data.rfind(b"obj", max(0, found.start() - 4096), found.start()), 0)
        end = data.find(b"stream", found.end(), found.end() + 4096)
        head = data[start:end if end != -1 else found.end() + 4096]
        index = re.search(rb"/Index\s*\[([\d\s]{0,4000})\]", head)
        if index is not None:
            numbers = [int(n) for n in index.group(1).split()]
            declared += sum(numbers[1::2])
        else:
            size = re.search(rb"/Size\s+(\d{1,12})", head)
            declared += int(size.group(1)) if size else 0
        if declared > MAX_PDF_OBJECTS:
            break
    if declared > MAX_PDF_OBJECTS:
        return (f"its cross-reference data declares more than {MAX_PDF_OBJECTS:,} objects; a rulegen filing has a "
                "few hundred")
    objects = sum(1 for _ in zip(range(MAX_PDF_OBJECTS + 1), _OBJECT.finditer(data)))
    if objects > MAX_PDF_OBJECTS:
        return f"it holds more than {MAX_PDF_OBJECTS:,} objects; a rulegen filing has a few hundred"
    return None


def open_reader(data: bytes) -> PdfFileReader:
    """pyHanko's reader of `data`, once `data` is seen to declare no more objects than a filing could (a reader
    holds every cross-reference entry in memory)."""
    from pyhanko.pdf_utils.decode_limits import DecodeLimits, DocumentDecodeBudget, StreamDecodeLimits
    from pyhanko.pdf_utils.reader import PdfFileReader

    problem = too_many_objects(data)
    if problem is not None:
        raise FilingFormatError(problem)
    # pyHanko's limits for untrusted input, tightened: no stream it decodes (an object stream, the metadata, a
    # certificate or CRL of the validation data) may exceed 32 MiB, and all it decodes at most 256 MiB or eight
    # times the file, whichever is more (its defaults: 256 MiB a stream, a hundred times the file).
    limits = DecodeLimits(per_stream=StreamDecodeLimits(max_output_size=MAX_DECODED_STREAM),
                          document_budget=DocumentDecodeBudget(base_allowance=MAX_DECODED_TOTAL, max_ratio=8))
    return PdfFileReader(io.BytesIO(data), strict=False, decode_limits=limits)


def revision_end(data: bytes, reader: PdfFileReader, revision: int) -> int:
    """The offset just past revision `revision`: its `%%EOF` marker and the end-of-line after it."""
    startxref = reader.xrefs.get_startxref_for_revision(revision)
    marker = re.compile(rb"startxref\s+" + str(startxref).encode() + rb"\s+%%EOF(\r\n|\r|\n)?")
    info = reader.xrefs.get_xref_container_info(revision)
    found = marker.search(data, info.end_location)
    if found is None:
        raise FilingFormatError(f"revision {revision + 1} has no end-of-file marker after its cross-reference data")
    return found.end()


@dataclass(frozen=True)
class SignatureGap:
    """The unsigned hole in a signature's byte range: `<hex>`, the DER signature then zero padding."""

    start: int
    end: int
    der_length: int
    padding: int


def der_length(blob: bytes) -> int:
    """The length of the first DER element in `blob` (tag, length octets, content)."""
    if len(blob) < 2 or blob[0] != 0x30:
        raise FilingFormatError("the signature does not start with a DER SEQUENCE")
    first = blob[1]
    if first < 0x80:
        return 2 + first
    count = first & 0x7F
    if count == 0 or count > 4 or len(blob) < 2 + count:
        raise FilingFormatError("the signature's DER length is malformed")
    length = int.from_bytes(blob[2:2 + count], "big")
    if length < 0x80 or (count > 1 and blob[2] == 0):  # DER demands the shortest length form
        raise FilingFormatError("the signature's DER length is not in its shortest form")
    return 2 + count + length


def check_signature_gap(data: bytes, byte_range: Iterable[Any]) -> SignatureGap:
    """The gap between the two signed ranges holds exactly `<`, upper-case hex, `>`: the DER signature,
    then zeros. pyHanko accepts any hex case and any bytes after the DER value; each of those would let one
    changed byte pass, so both are refused here."""
    try:
        values = [int(v) for v in byte_range]
    except Exception:
        raise FilingFormatError("the signature's /ByteRange is not four numbers") from None
    if len(values) != 4 or values[0] != 0:
        raise FilingFormatError(f"the signature's /ByteRange {values} does not start at the first byte")
    _, length1, start2, length2 = values
    if not (0 < length1 < start2 <= len(data)) or start2 + length2 != len(data):
        raise FilingFormatError(f"the signature's /ByteRange {values} does not cover the file up to its last byte "
                                f"({len(data)} bytes)")
    gap = data[length1:start2]
    if len(gap) < 4 or gap[:1] != b"<" or gap[-1:] != b">":
        raise FilingFormatError(f"the signature's /Contents at bytes {length1}..{start2} is not a hex string <...>")
    hex_text = gap[1:-1]
    if len(hex_text) % 2:
        raise FilingFormatError("the signature's /Contents has an odd number of hex digits")
    odd = next((i for i, byte in enumerate(hex_text) if byte not in HEX_UPPER), None)
    if odd is not None:
        raise FilingFormatError(f"byte {length1 + 1 + odd} inside the signature's /Contents is {chr(hex_text[odd])!r},"
                                " not an upper-case hex digit as signing wrote it")
    blob = bytes.fromhex(hex_text.decode("ascii"))
    used = der_length(blob)
    if used > len(blob):
        raise FilingFormatError("the signature's DER value runs past the end of /Contents")
    tail = blob[used:]
    nonzero = next((i for i, byte in enumerate(tail) if byte), None)
    if nonzero is not None:
        offset = length1 + 1 + 2 * (used + nonzero)
        raise FilingFormatError(f"the zero padding after the signature was changed (byte {offset} of the file, "
                                f"padding byte {nonzero + 1} of {len(tail)} is 0x{tail[nonzero]:02x})")
    return SignatureGap(length1, start2, used, len(tail))


@dataclass(frozen=True)
class EmbeddedFile:
    name: str
    data: bytes
    declared_size: int | None
    declared_md5: str | None


def embedded_files(reader: PdfFileReader) -> list[EmbeddedFile]:
    """The document's attachments (the /EmbeddedFiles name tree), in tree order."""
    from pyhanko.pdf_utils import generic

    # What pyHanko reads from untrusted bytes may be any PDF object, and its `get_object` is untyped: the walk
    # below handles the values as Any, and a malformed tree raises, which the callers report.
    root = reader.root
    names: Any = root.get("/Names")
    if names is None:
        return []
    tree = names.get_object().get("/EmbeddedFiles")
    if tree is None:
        return []
    pairs: list[tuple[Any, Any]] = []
    seen: set[Any] = set()
    visited = [0]

    def walk(node: Any, depth: int) -> None:
        if depth > MAX_NAME_TREE_DEPTH:
            raise FilingFormatError("the attachments' name tree is nested too deep")
        # A node reached twice (a loop, or many branches to one node) would make the walk endless or exponential:
        # a name tree is a tree, so each node is read once, and there are few of them.
        if isinstance(node, generic.IndirectObject):
            if node.reference in seen:
                raise FilingFormatError("the attachments' name tree reaches one of its nodes twice (a loop or a "
                                        "shared branch); a name tree is a tree")
            seen.add(node.reference)
        visited[0] += 1
        if visited[0] > MAX_NAME_TREE_NODES:
            raise FilingFormatError(f"the attachments' name tree has more than {MAX_NAME_TREE_NODES} nodes")
        node = node.get_object()
        if "/Names" in node:
            flat = node["/Names"]
            for index in range(0, len(flat) - 1, 2):
                pairs.append((flat[index], flat[index + 1]))
                if len(pairs) > MAX_ATTACHMENTS:
                    raise FilingFormatError(f"the PDF holds more than {MAX_ATTACHMENTS} attachments")
        for kid in node.get("/Kids", []) or []:
            walk(kid, depth + 1)

    walk(tree, 0)
    found: list[EmbeddedFile] = []
    total = 0
    for key, spec in pairs:
        spec = spec.get_object()
        given: Any = spec.get("/UF") or spec.get("/F") or key
        if isinstance(given, generic.IndirectObject):
            given = given.get_object()  # type: ignore[no-untyped-call]  # pyHanko leaves this method unannotated
        name = str(given)
        stream = spec["/EF"].get_object()["/F"].get_object()
        params: Any = stream.get("/Params")
        params = params.get_object() if params is not None else {}
        size = params.get("/Size")
        checksum = params.get("/CheckSum")
        md5 = checksum.original_bytes.hex() if hasattr(checksum, "original_bytes") else None
        data = _bounded_stream_data(stream, name, MAX_ATTACHMENTS_BYTES - total)
        total += len(data)
        found.append(EmbeddedFile(name, data, int(size) if size is not None else None, md5))
    return found


def _bounded_stream_data(stream: Any, name: str, room: int) -> bytes:
    """An attachment's bytes, decoded with a bound: a few kilobytes of Flate data can inflate to gigabytes (a
    "zip bomb"), so decoding stops past the room left for attachments, and only the one filter rulegen writes
    (Flate, or none) is decoded."""
    import zlib

    limit = min(MAX_ATTACHMENT_BYTES, room)
    filters: Any = stream.get("/Filter")
    filters = filters.get_object() if filters is not None else None
    names = [] if filters is None else [str(f) for f in (filters if isinstance(filters, list) else [filters])]
    if stream.get("/DecodeParms") is not None or names not in ([], ["/FlateDecode"]):
        raise FilingFormatError(f"the attachment {name!r} is encoded with {' '.join(names) or 'parameters'}, not as "
                                "rulegen writes attachments (Flate, or none)")
    encoded = stream.encoded_data
    if not names:
        data = bytes(encoded)
    else:
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(encoded, limit + 1)
        except zlib.error:
            raise FilingFormatError(f"the attachment {name!r} is not valid Flate data") from None
    if len(data) > limit:
        raise FilingFormatError(f"the attachment {name!r} holds more than {limit >> 20} MiB (rulegen's attachments: "
                                f"each at most {MAX_ATTACHMENT_BYTES >> 20} MiB, together at most "
                                f"{MAX_ATTACHMENTS_BYTES >> 20} MiB)")
    return data


def check_cms_structure(der: bytes, trust_roots: Sequence[asn1_x509.Certificate] = ()) -> str:
    """The CMS SignedData holds nothing a forger could change unseen.

    A PDF signature signs the file's bytes and its own signed attributes; the rest of the CMS structure
    (versions, the digest-algorithm set, algorithm parameters, the certificates carried beside the signer's)
    is not signed, and pyHanko accepts it changed. So the structure is rebuilt from the parts that are signed
    or checked (signed attributes, signature value, the signer's certificate, which the signed attributes
    bind by hash) in the one form rulegen's signing writes, and must equal the bytes carried; and every other
    certificate carried must be verifiable: self-signed, or issued by another carried certificate or a --trust
    root, with a signature that checks. Returns a short description; raises FilingFormatError otherwise.
    """
    from asn1crypto import algos, cms, core

    try:
        info = cms.ContentInfo.load(der, strict=True)
        signed = info["content"]
        signer_infos = signed["signer_infos"]
        if info["content_type"].native != "signed_data" or len(signer_infos) != 1:
            raise FilingFormatError("the signature is not one CMS SignedData with one signer")
        signer_info = signer_infos[0]
        sid = signer_info["sid"]
        if sid.name != "issuer_and_serial_number":
            raise FilingFormatError("the signer is not identified by issuer and serial number")
        certificates = [c.chosen for c in signed["certificates"] or []]
        signer_cert = next((c for c in certificates if c.issuer == sid.chosen["issuer"]
                            and c.serial_number == sid.chosen["serial_number"].native), None)
        if signer_cert is None:
            raise FilingFormatError("the signer's certificate is not carried in the signature")
        digest = algos.DigestAlgorithm({"algorithm": signer_info["digest_algorithm"]["algorithm"].dotted,
                                        "parameters": core.Null()})
        signature_algorithm = signer_info["signature_algorithm"]
        mechanism = signature_algorithm["algorithm"].native
        if mechanism == "rsassa_pss":
            expected_algorithm = algos.SignedDigestAlgorithm({"algorithm": "rsassa_pss",
                                                              "parameters": signature_algorithm["parameters"]})
        elif "rsa" in mechanism:
            expected_algorithm = algos.SignedDigestAlgorithm({"algorithm": signature_algorithm["algorithm"].dotted,
                                                              "parameters": core.Null()})
        else:
            expected_algorithm = algos.SignedDigestAlgorithm({"algorithm": signature_algorithm["algorithm"].dotted})
        unsigned = signer_info["unsigned_attrs"]
        tokens = []
        if unsigned.native is not None:
            # The only unsigned attribute rulegen writes: one RFC 3161 timestamp token (--tsa), itself signed by
            # the authority over the signature value; its certificates are checked like the signer's below.
            if (len(unsigned) != 1 or unsigned[0]["type"].native != "signature_time_stamp_token"
                    or len(unsigned[0]["values"]) != 1):
                raise FilingFormatError("the signature carries unsigned attributes other than one timestamp token")
            tokens = [unsigned[0]["values"][0]]
        rebuilt = cms.ContentInfo({
            "content_type": "signed_data",
            "content": cms.SignedData({
                "version": "v1",
                "digest_algorithms": [digest],
                "encap_content_info": {"content_type": "data"},
                "certificates": [cms.CertificateChoices({"certificate": c}) for c in certificates],
                "signer_infos": [cms.SignerInfo({
                    "version": "v1",
                    "sid": cms.SignerIdentifier({"issuer_and_serial_number": cms.IssuerAndSerialNumber({
                        "issuer": signer_cert.issuer, "serial_number": signer_cert.serial_number})}),
                    "digest_algorithm": digest,
                    "signed_attrs": signer_info["signed_attrs"],
                    "signature_algorithm": expected_algorithm,
                    "signature": signer_info["signature"].native,
                    **({"unsigned_attrs": unsigned} if tokens else {}),
                })],
            }),
        }).dump()
    except FilingFormatError:
        raise
    except Exception as exc:
        raise FilingFormatError(f"the signature's CMS structure cannot be read ({type(exc).__name__})") from None
    if rebuilt != der:
        first = next((i for i, (a, b) in enumerate(zip(rebuilt, der)) if a != b), min(len(rebuilt), len(der)))
        raise FilingFormatError(f"the signature's CMS structure was changed outside its signed parts (DER byte "
                                f"{first} of {len(der)} differs from the form rulegen signs in)")
    others = [c for c in certificates if c is not signer_cert]
    unverified = unverifiable_certificates(others, [signer_cert] + others, trust_roots)
    token_certificates = []
    for token in tokens:
        try:
            token_certificates = [c.chosen for c in token["content"]["certificates"] or []]
        except Exception:
            raise FilingFormatError("the timestamp token's certificates cannot be read") from None
        unverified += unverifiable_certificates(token_certificates, token_certificates + certificates, trust_roots)
    if unverified:
        raise FilingFormatError("the signature carries certificate(s) whose own signature does not check: "
                                + ", ".join(unverified))
    return (f"{len(certificates)} certificate(s), each bound or verifiable"
            + (f"; a timestamp token with {len(token_certificates)} certificate(s), each verifiable" if tokens else ""))


def signature_checks(signature: bytes, signed: bytes, issuer: asn1_x509.Certificate, algorithm: Any) -> bool:
    """Whether `signature` over the bytes `signed` checks with the public key of `issuer` (asn1crypto) under
    `algorithm` (a SignedDigestAlgorithm), by pyHanko's signature validator: RSA PKCS#1 v1.5 and PSS (an
    id-RSASSA-PSS key's parameters included), ECDSA, DSA, Ed25519 and Ed448."""
    from pyhanko_certvalidator.sig_validate import DefaultSignatureValidator

    try:
        DefaultSignatureValidator().validate_signature(signature, signed, issuer.public_key, algorithm)
    except Exception:  # InvalidSignature, an unsupported or malformed algorithm, a key of another type
        return False
    return True


def unverifiable_certificates(candidates: Iterable[asn1_x509.Certificate], pool: Iterable[asn1_x509.Certificate],
                              trust_roots: Iterable[asn1_x509.Certificate] = ()) -> list[str]:
    """Names of the `candidates` (asn1crypto certificates) not self-signed or issued, with a signature that
    checks (pyHanko's signature validator), by a certificate in `pool` or `trust_roots` whose subject is the
    candidate's issuer."""
    from cryptography import x509

    issuers = list(pool) + list(trust_roots)
    bad = []
    for candidate in candidates:
        try:
            if candidate["signature_value"].contents[:1] != b"\x00":  # a signature is whole bytes: no unused bits
                raise ValueError("unused bits in the signature")
            # The algorithm outside the signed body is not signed: it must be the one inside (RFC 5280 4.1.1.2).
            if candidate["signature_algorithm"].dump() != candidate["tbs_certificate"]["signature"].dump():
                raise ValueError("the signature algorithm differs from the one the certificate's body names")
            with warnings.catch_warnings():  # cryptography parses strict DER: a reencoded certificate fails here
                warnings.simplefilter("ignore")
                x509.load_der_x509_certificate(candidate.dump())
            signature, signed = candidate["signature_value"].native, candidate["tbs_certificate"].dump()
            algorithm, named = candidate["signature_algorithm"], candidate.issuer
        except Exception:
            bad.append(_subject_or_unreadable(candidate))
            continue
        if not any(issuer.subject == named and signature_checks(signature, signed, issuer, algorithm)
                   for issuer in issuers):
            bad.append(candidate.subject.human_friendly)
    return bad


def _subject_or_unreadable(cert: asn1_x509.Certificate) -> str:
    try:
        return str(cert.subject.human_friendly)
    except Exception:
        return "an unreadable certificate"
