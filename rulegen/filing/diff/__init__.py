"""`rulegen diff`: every change between two revisions of an offering, in a regulator's words.

Each change says what moved ("Five Card Bonus maximum: $50 → $100"), which section of the rules document it
touches, and the rule that governs it (from the jurisdiction data, else from the jurisdiction's schema).
`changes_section` shapes the same changes for the "changes from revision N" section of the rules document.

By concern: `changes` (the walk over the offering's fields, and the section of the rules document), `places` (the
section and citation of a change), `words` (labels and values as they read), `mathematics` (the figures that
changed), `reading` (an offering file or a filing's attached offering).
"""

from __future__ import annotations

from rulegen.filing.diff.changes import Change, changes_json, changes_section, diff_offerings
from rulegen.filing.diff.mathematics import MathChange, math_changes, math_diff, offering_math
from rulegen.filing.diff.reading import offering_from_path
from rulegen.filing.diff.words import SECTIONS

__all__ = [
    "SECTIONS", "Change", "MathChange", "changes_json", "changes_section", "diff_offerings",
    "math_changes", "math_diff", "offering_from_path", "offering_math",
]
