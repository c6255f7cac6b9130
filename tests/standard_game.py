"""The standard game the math tests settle and analyse: the tables `jurisdictions/common/standard.yaml` names (the
`standard` tables of the jurisdictions it lists), read from the data as `rulegen settle` reads them."""

from __future__ import annotations

from rulegen.resolved import standard_rules

STANDARD_RULES = standard_rules()
STANDARD_CRISS_CROSS = STANDARD_RULES.criss_cross
STANDARD_ANTE = STANDARD_RULES.ante
assert STANDARD_RULES.five_card_bonus is not None
STANDARD_FIVE_CARD_BONUS = STANDARD_RULES.five_card_bonus
