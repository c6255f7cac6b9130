"""What the desk's pages and letters call things: each check of `rulegen verify` in plain words."""

# Each check of `rulegen verify`, in plain words (the check's own detail follows it on the page).
PLAIN = {
    "file": "The upload could be read as a filing",
    "pdf": "rules.pdf is a PDF with the shape rulegen writes",
    "signature": "rules.pdf carries one digital signature, intact and valid",
    "coverage": "The signature covers every byte of the file",
    "revision": "Signing added the signature and nothing else",
    "contents": "The signature's container holds only the signature",
    "certificate": "The signer's certificate was valid when it signed",
    "trust": "The signer's certificate chains to a root this desk trusts",
    "timestamp": "The signature's timestamp",
    "revocation": "The signer's certificates were not revoked",
    "manifest": "The filing's manifest is attached and readable",
    "offering": "The attached offering is the one the manifest names",
    "identity": "The offering, operator, revision and date are the signed offering's own",
    "attachments": "Nothing else is attached to rules.pdf",
    "final": "It is a final build, signed off by every role",
    "signer": "The signer's certificate is the operator's",
    "outputs": "Every file of the package is there and matches the manifest",
    "rules": "The jurisdiction's rules and findings are the ones it was built with",
    "reproduce": "Every byte was built again here from the signed offering",
    "changes": "Its \"changes from revision N\" section is the diff from revision N",
    "archive": "The archived files are the bytes received",
}
STATUS_WORDS = {"ok": "passed", "FAIL": "FAILED", "warn": "passed, with a warning", "note": "not checked"}
