"""The rules issue 12 added or sharpened, each broken once: one finding, at the offending node's line, with
its citation, its rule code and its message word for word (every message template is read here once).

Also: every finding names its field by its dotted path, `field` is the full path of the offending node, and
every rule code is listed in jurisdictions/README.md.
"""

from __future__ import annotations

import copy
import re

import pytest

from rulegen.findings import dotted
from rulegen.jurisdiction import load_jurisdiction
from rulegen.offering import load_offering
from rulegen.resources import jurisdictions_dir
from rulegen.validate import check_revision, rule_slugs, validate_file
from rulegen.validate.core import clause_code
from tests.test_validate import CASES as CHECKLIST, DELETE, mutated

MD = "MLGCA Criss Cross Poker Standard Rules, "
NJ = "N.J.A.C. "
PA = "58 Pa. Code § "
FORMAT = "offering format"

# New Jersey's Table 3 wheel as the sample lists it: one entry per symbol, community pays as the table's
WHEEL = [{"symbol": "jackpot", "weight": 1}, {"symbol": 2500, "weight": 1}, {"symbol": 1000, "weight": 1},
         {"symbol": 500, "community": 100, "weight": 2}, {"symbol": 350, "weight": 3},
         {"symbol": 200, "community": 50, "weight": 5}, {"symbol": 250, "weight": 4}, {"symbol": 75, "weight": 80},
         {"symbol": 25, "community": 15, "weight": 40}, {"symbol": 70, "weight": 120},
         {"symbol": 60, "weight": 250}, {"symbol": 50, "weight": 500}]
PROGRESSIVE = {"kind": "progressive", "initial": 10000, "reset": 10000, "rate_of_progression_percent": 3}


def wheel(change):
    segments = copy.deepcopy(WHEEL)
    change(segments)
    return {("bonus_spin", "top_prize"): PROGRESSIVE, ("bonus_spin", "wheel"): segments}


NJ_TABLE_1_NO_PAIR_ROWS = {"royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 40, "full_house": 10,
                           "flush": 8, "straight": 5, "three_of_a_kind": 3, "two_pair": 2, "pair_sixes_or_better": 1}

CASES = [
    ('nj-community-changed', 'nj', wheel(lambda w: w[3].update(community=50)), ('bonus_spin', 'wheel', 3, 'community'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-community',
     'bonus_spin.wheel[3].community is $50; Table 3 gives the $500 segment a community pay of $100'),
    ('nj-community-added', 'nj', wheel(lambda w: w[4].update(community=20)), ('bonus_spin', 'wheel', 4, 'community'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-community',
     'bonus_spin.wheel[4].community is $20, but Table 3 gives the $350 segment no community pay'),
    ('nj-community-removed', 'nj', wheel(lambda w: w[8].pop("community")), ('bonus_spin', 'wheel', 8, 'community'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-community',
     'bonus_spin.wheel[8].community is missing; Table 3 gives the $25 segment a community pay of $15 (a wheel that states community pays states every one)'),
    ('md-community-invented', 'md', {("bonus_spin", "paytable"): "A", ("bonus_spin", "community_pay"): "A", ("bonus_spin", "wheel"): [dict(symbol=s, weight=1) for s in ("jackpot", 500, 200, 120, 70, 60, 35, 25, 18, 12, 11)] + [{"symbol": 10, "weight": 1, "community": 999}]}, ('bonus_spin', 'wheel', 11, 'community'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(10)(a)', 'MD-12D10a-wheel-community',
     'bonus_spin.wheel[11].community is $999, but Paytable A with community-pay table A gives the $10 segment no community pay'),
    ('md-community-not-designated', 'md', {("bonus_spin", "community_pay"): DELETE}, ('bonus_spin', 'community_pay'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(8)(b)', 'MD-12D8b-community-table',
     "bonus_spin.community_pay is missing; Maryland's Rules Submission designates the community-pay table its community pays are made from, whatever the paytable"),
    ('md-xtreme-another-wheel', 'md', {("bonus_spin", "kind"): "xtreme", ("bonus_spin", "wager"): 2, ("bonus_spin", "paytable"): "G",
                                       ("bonus_spin", "community_pay"): "A", ("bonus_spin", "trigger"): "suited_hole_cards"},
     ('bonus_spin', 'community_pay'), 'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §E(13)(b)', 'MD-12E13b-community-table',
     "bonus_spin.community_pay is 'A'; Paytable G's community pays are its own Community Prize Wheel, community_pay G"),
    ('md-xtreme-returns-more-than-it-takes', 'md', {("bonus_spin", "kind"): "xtreme", ("bonus_spin", "wager"): 2, ("bonus_spin", "paytable"): "G",
                                                    ("bonus_spin", "community_pay"): "G", ("bonus_spin", "trigger"): "pair_or_suited_hole_cards"},
     ('bonus_spin',), 'error', 'offering format', 'FORMAT-spin-return',
     'bonus_spin returns at least 2,941% of the wager: the trigger (pair or suited hole cards) comes 390 times in 1326 deals and a spin pays its smallest prize, $200, on a $2 wager; a wager that pays back more than it takes cannot be offered'),
    ('md-row-left-out', 'md', {("five_card_bonus", "paytable"): {"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40,
                                "full_house": 15, "flush": 10, "straight": 6, "three_of_a_kind": 4, "pair_sixes_or_better": 1}},
     ('five_card_bonus', 'paytable', 'two_pair'), 'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §C', 'MD-12C-table-missing-row',
     "five_card_bonus.paytable.two_pair is missing; Maryland's standard Five Card Bonus paytable pays 3 to 1 for two pair"),
    ('nj-jackpot-missing', 'nj', wheel(lambda w: w.pop(0)), ('bonus_spin', 'wheel'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-jackpot',
     "bonus_spin.wheel has no jackpot segment; Table 3's top symbol is the jackpot, and the wheel lists every symbol of the designated table"),
    ('nj-symbols-missing', 'nj', wheel(lambda w: (w.pop(1), w.pop(1))), ('bonus_spin', 'wheel'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-missing',
     'bonus_spin.wheel has no $2,500 and $1,000 segments; the wheel lists every symbol of Table 3'),
    ('nj-symbol-twice', 'nj', wheel(lambda w: w.append({"symbol": 500, "community": 100, "weight": 3})), ('bonus_spin', 'wheel', 12, 'symbol'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-duplicate',
     'bonus_spin.wheel[12].symbol is $500 again (also bonus_spin.wheel[3]); each symbol of Table 3 is listed once'),
    ('nj-symbol-foreign', 'nj', wheel(lambda w: w[11].update(symbol=45)), ('bonus_spin', 'wheel', 11, 'symbol'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-symbol',
     'bonus_spin.wheel[11].symbol is 45, a symbol Table 3 does not have; its symbols are jackpot, $2,500, $1,000, $500, $350, $250, $200, $75, $70, $60, $50, $25'),
    ('nj-position-wrong', 'nj', wheel(lambda w: w[1].update(position=5)), ('bonus_spin', 'wheel', 1, 'position'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-wheel-position',
     'bonus_spin.wheel[1].position is 5; Table 3 puts the $2,500 segment at wheel position 2'),
    ('md-position-none', 'md', {("bonus_spin", "wheel"): [dict(symbol=s, weight=1) for s in ("jackpot", 2500, 1000, 600, 350, 250, 75, 40, 70, 60)] + [{"symbol": 50, "weight": 1, "position": 3}]}, ('bonus_spin', 'wheel', 10, 'position'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(4)', 'MD-12D4-wheel-position',
     'bonus_spin.wheel[10].position is 3, but Paytable D gives no wheel positions; leave position out'),
    ('nj-fixed-no-amount', 'nj', {("bonus_spin", "top_prize", "initial"): DELETE}, ('bonus_spin', 'top_prize', 'initial'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-top-prize-fixed',
     'bonus_spin.top_prize.initial is missing; a fixed top prize states its amount as initial'),
    ('nj-fixed-with-reset', 'nj', {("bonus_spin", "top_prize", "reset"): 5000}, ('bonus_spin', 'top_prize', 'reset'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-top-prize-fixed',
     'bonus_spin.top_prize.reset is given, but a fixed top prize has no meter; remove it or make the top prize progressive'),
    ('nj-fixed-with-rate', 'nj', {("bonus_spin", "top_prize", "rate_of_progression_percent"): 2}, ('bonus_spin', 'top_prize', 'rate_of_progression_percent'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-top-prize-fixed',
     'bonus_spin.top_prize.rate_of_progression_percent is given, but a fixed top prize has no meter; remove it or make the top prize progressive'),
    ('nj-merchandise-no-description', 'nj', {("bonus_spin", "top_prize", "kind"): "merchandise"}, ('bonus_spin', 'top_prize', 'description'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-top-prize-merchandise',
     'bonus_spin.top_prize.description is missing; a merchandise top prize states what the merchandise is as description'),
    ('nj-merchandise-no-value', 'nj', {("bonus_spin", "top_prize"): {"kind": "merchandise", "description": "A sports car"}}, ('bonus_spin', 'top_prize', 'initial'),
     'error', 'N.J.A.C. 13:69F-40.11(c) Table 3', 'NJ-40.11cT3-top-prize-merchandise',
     "bonus_spin.top_prize.initial is missing; a merchandise top prize states the merchandise's value as initial"),
    ('nj-progressive-no-reset', 'nj', {("bonus_spin", "top_prize"): {"kind": "progressive", "initial": 10000, "rate_of_progression_percent": 3}}, ('bonus_spin', 'top_prize', 'reset'),
     'error', 'offering format', 'FORMAT-top-prize-progressive',
     'bonus_spin.top_prize.reset is missing; a progressive top prize states the amount the meter resets to'),
    ('nj-progressive-no-initial', 'nj', {("bonus_spin", "top_prize"): {"kind": "progressive", "reset": 10000, "rate_of_progression_percent": 3}}, ('bonus_spin', 'top_prize', 'initial'),
     'error', 'offering format', 'FORMAT-top-prize-progressive',
     "bonus_spin.top_prize.initial is missing; a progressive top prize states the meter's initial amount"),
    ('md-progressive-no-rate', 'md', {("bonus_spin", "top_prize", "rate_of_progression_percent"): DELETE}, ('bonus_spin', 'top_prize', 'rate_of_progression_percent'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(6)(a)', 'MD-12D6a-top-prize-progressive',
     "bonus_spin.top_prize.rate_of_progression_percent is missing; a progressive top prize states the meter's rate of progression"),
    ('md-progressive-no-reset', 'md', {("bonus_spin", "top_prize", "reset"): DELETE}, ('bonus_spin', 'top_prize', 'reset'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(6)(b)(iv)', 'MD-12D6biv-top-prize-progressive',
     'bonus_spin.top_prize.reset is missing; a progressive top prize states the amount the meter resets to'),
    ('md-progressive-no-initial', 'md', {("bonus_spin", "top_prize", "initial"): DELETE}, ('bonus_spin', 'top_prize', 'initial'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(6)(b)(iv)', 'MD-12D6biv-top-prize-progressive',
     "bonus_spin.top_prize.initial is missing; a progressive top prize states the meter's initial amount"),
    ('md-merchandise-below-minimum', 'md', {("bonus_spin", "paytable"): "C", ("bonus_spin", "top_prize"): {"kind": "merchandise", "initial": 4000, "description": "A sports car"}}, ('bonus_spin', 'top_prize', 'initial'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(6)(b)(iii)', 'MD-12D6biii-minimum',
     "bonus_spin.top_prize.initial is $4,000; the merchandise's value for paytable C must be at least $5,000"),
    ('md-kind-not-the-tables', 'md', {("bonus_spin", "paytable"): "C"}, ('bonus_spin', 'top_prize', 'kind'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(3)', 'MD-12D3-top-prize',
     "bonus_spin.top_prize.kind is 'progressive'; Paytable C pays a fixed prize or merchandise as its top prize"),
    ('nj-row-differs', 'nj', {("paytables", "criss_cross"): NJ_TABLE_1_NO_PAIR_ROWS}, ('paytables', 'criss_cross', 'full_house'),
     'error', 'N.J.A.C. 13:69F-40.11(a) Table 1', 'NJ-40.11aT1-table-row',
     "paytables.criss_cross.full_house is 10 to 1; New Jersey's Table 1 pays 12 to 1"),
    ('nj-row-extra', 'nj', {("paytables", "criss_cross"): NJ_TABLE_1_NO_PAIR_ROWS}, ('paytables', 'criss_cross', 'pair_sixes_or_better'),
     'error', 'N.J.A.C. 13:69F-40.11(a) Table 1', 'NJ-40.11aT1-table-extra-row',
     "paytables.criss_cross.pair_sixes_or_better is a row New Jersey's Table 1 does not have; it pays 1 to 1 for a pair of 6s through 10s, where New Jersey's Table 1 pays a push (its rows are royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair_jacks_or_better, pair_sixes_through_tens)"),
    ('pa-row-missing', 'pa', {("paytables", "ante"): {"pair_jacks_or_better": 1}}, ('paytables', 'ante', 'pair_sixes_through_tens'),
     'error', '58 Pa. Code § 674a.12(a)', 'PA-674a.12a-table-missing-row',
     "paytables.ante.pair_sixes_through_tens is missing; Pennsylvania's standard ante paytable pays a push for a pair of 6s through 10s"),
    ('pa-ante-row-differs', 'pa', {("paytables", "ante"): {"pair_jacks_or_better": 2, "pair_sixes_through_tens": "push"}}, ('paytables', 'ante', 'pair_jacks_or_better'),
     'error', '58 Pa. Code § 674a.12(a)', 'PA-674a.12a-table-row',
     "paytables.ante.pair_jacks_or_better is 2 to 1; Pennsylvania's standard ante paytable pays 1 to 1"),
    ('md-five-card-row', 'md', {("five_card_bonus", "paytable"): {"royal_flush": 250, "straight_flush": 100, "four_of_a_kind": 40, "full_house": 15, "flush": 10, "straight": 6, "three_of_a_kind": 4, "two_pair": 3, "pair_sixes_or_better": 2}}, ('five_card_bonus', 'paytable', 'pair_sixes_or_better'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §C', 'MD-12C-table-row',
     "five_card_bonus.paytable.pair_sixes_or_better is 2 to 1; Maryland's standard Five Card Bonus paytable pays 1 to 1"),
    ('house-row-raised', 'house', {("paytables", "criss_cross", "flush"): 12}, ('paytables', 'criss_cross', 'flush'),
     'error', 'House rules, Pay Tables', 'HOUSE-PayTables-table-row',
     "paytables.criss_cross.flush is 12 to 1; House rules' house Criss Cross paytable pays 8 to 1"),
    ('house-row-lowered', 'house', {("paytables", "criss_cross", "full_house"): 4}, ('paytables', 'criss_cross', 'full_house'),
     'error', 'House rules, Pay Tables', 'HOUSE-PayTables-table-row',
     "paytables.criss_cross.full_house is 4 to 1; House rules' house Criss Cross paytable pays 10 to 1"),
    ('house-six-card-row', 'house', {("six_card_bonus", "paytable", "straight"): 30}, ('six_card_bonus', 'paytable', 'straight'),
     'error', 'House rules, Pay Tables', 'HOUSE-PayTables-table-row',
     "six_card_bonus.paytable.straight is 30 to 1; House rules' house Six Card Bonus paytable pays 10 to 1"),
    ('house-royal-500', 'house', {("paytables", "criss_cross", "royal_flush"): 500}, ('paytables', 'criss_cross', 'royal_flush'),
     'error', 'House rules, Pay Tables', 'HOUSE-PayTables-table-row',
     "paytables.criss_cross.royal_flush is 500 to 1; House rules' house Criss Cross paytable pays 250 to 1"),
    ('house-antes-on-sixes', 'house', {("paytables", "ante", "pair_sixes_through_tens"): 1}, ('paytables', 'ante', 'pair_sixes_through_tens'),
     'error', 'House rules, Round of Play', 'HOUSE-RoundofPlay-table-row',
     "paytables.ante.pair_sixes_through_tens is 1 to 1; House rules' standard ante paytable pays a push"),
    ('house-cap', 'house', {("payout_limit", "amount"): 5000}, ('payout_limit', 'amount'),
     'error', 'House rules, Pay Tables', 'HOUSE-PayTables-house-cap',
     'payout_limit.amount is 5000; the house rules set the Max Payout Aggregate at $3,000; a card room with another cap ships its own jurisdiction data (RULEGEN_DATA_PATH)'),
    ('house-one-deck-shuffler', 'house', {("cards", "decks"): 1, ("cards", "back_colours"): ["red"]}, ('cards', 'decks'),
     'error', 'House rules, Equipment', 'HOUSE-Equipment-house-decks',
     'cards.decks is 1; with an automatic shuffler the house rules rotate two standard decks each hand'),
    ('pa-adjacent-boxes', 'pa', {("limits", "adjacent_boxes"): 5, ("table", "positions"): 4}, ('limits', 'adjacent_boxes'),
     'error', '58 Pa. Code § 674a.7(g)', 'PA-674a.7g-adjacent-boxes',
     "limits.adjacent_boxes is 5, more than the table's 4 betting positions (table.positions); one player cannot wager on more boxes than the table has"),
    ('pa-before-amendment', 'pa', {("offering", "effective_date"): "2019-11-01"}, ('offering', 'effective_date'),
     'error', '58 Pa. Code § 674a.7', 'PA-674a.7-effective-date',
     'offering.effective_date is 2019-11-01, before 2019-11-02, when § 674a.7 and § 674a.12 took effect as amended (49 Pa.B. 6676); rulegen checks an offering against that text, so the offering cannot take effect before it'),
    ('pa-before-chapter', 'pa', {("offering", "effective_date"): "2016-01-04"}, ('offering', 'effective_date'),
     'error', '58 Pa. Code § 674a.7', 'PA-674a.7-effective-date',
     'offering.effective_date is 2016-01-04, before 2019-11-02, when § 674a.7 and § 674a.12 took effect as amended (49 Pa.B. 6676); rulegen checks an offering against that text, so the offering cannot take effect before it'),
    ('signoff-after-effective', 'pa', {("signoff",): [{"role": "prepared", "name": "Kevin Brandt", "title": "Analyst", "date": "2030-04-02"}]}, ('signoff', 0, 'date'),
     'error', 'offering format', 'FORMAT-signoff-date',
     'signoff[0].date is 2030-04-02, after offering.effective_date 2027-03-01: the prepared sign-off would come after the rules take effect; rules take effect only once prepared, reviewed and approved'),
    ('signoff-out-of-order', 'pa', {("signoff",): [
        {"role": "prepared", "name": "Kevin Brandt", "title": "Analyst", "date": "2027-02-08"},
        {"role": "reviewed", "name": "Angela Moretti", "title": "Director", "date": "2027-02-15"},
        {"role": "approved", "name": "Samuel Okafor", "title": "Officer", "date": "2027-02-01"}]}, ('signoff', 2, 'date'),
     'error', 'offering format', 'FORMAT-signoff-order',
     'signoff[2].date is 2027-02-01, before the reviewed sign-off of 2027-02-15: a submission is approved only after it is reviewed'),
    ('date-malformed-once', 'pa', {("offering", "effective_date"): "2027-4-1"}, ('offering', 'effective_date'),
     'error', 'offering format', 'FORMAT-date',
     "offering.effective_date is '2027-4-1', which is not a real date (YYYY-MM-DD)"),
    ('back-colours-same', 'nj', {("cards", "decks"): 2, ("cards", "back_colours"): ["red", "Red"]}, ('cards', 'back_colours', 1),
     'error', 'N.J.A.C. 13:69F-40.2(a)', 'NJ-40.2a-two-decks-backs',
     "cards.back_colours[1] is 'Red', the colour of cards.back_colours[0]; the two decks' backs must be of different colours"),
    ('back-colour-count', 'md', {("cards", "back_colours"): ["red"]}, ('cards', 'back_colours'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 3 §B', 'MD-3B-back-colours',
     'cards.back_colours lists 1 colour for 2 decks; give one colour per deck'),
    ('deck-change-shoe', 'md', {("cards", "deck_change_hours"): 9, ("cards", "dealing"): "automated-shoe"}, ('cards', 'deck_change_hours'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 3 §C', 'MD-3C-deck-change',
     'cards.deck_change_hours is 9; decks dealt from an automated shoe must be changed at least every 8 hours'),
    ('six-card-needs-five', 'house', {("five_card_bonus",): DELETE}, ('five_card_bonus',),
     'error', 'House rules, 6 Card Bonus Wager', 'HOUSE-6CardBonusWager-six-needs-five',
     'five_card_bonus is missing; the 6 Card Bonus requires the 5 Card Bonus (its wager equals the 5 Card Bonus wager)'),
    ('unknown-field', 'pa', {("table", "postions"): 6}, ('table', 'postions'),
     'error', 'offering format', 'FORMAT-unknown-field',
     "table.postions is not a field of table; did you mean 'positions'?"),
    ('hand-class', 'nj', {("paytables", "ante"): {"pair_jacks_or_better": 1, "pair_sixes_through_tens": "push", "pair_of_aces": 2}}, ('paytables', 'ante', 'pair_of_aces'),
     'error', 'offering format', 'FORMAT-hand-class',
     'paytables.ante.pair_of_aces is not a hand class; paytable keys are the hand classes royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair_jacks_or_better, pair_sixes_through_tens, pair_sixes_or_better'),
]


# The other message templates, each rendered once and read (the checklist in test_validate.py checks their lines
# and citations; here, their words).
MESSAGES = [
    ('md-no-limit', 'md', {("payout_limit",): DELETE}, ('payout_limit',),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §B', 'MD-12B-limit-stated',
     'payout_limit is missing; the text gives every table an aggregate payout limit, which may not exceed the greater of $50,000 and the maximum win per round at the minimum wager: state the limit this table applies'),
    ('nj-no-limit', 'nj', {("payout_limit",): DELETE}, ('payout_limit',),
     'note', 'N.J.A.C. 13:69F-40.11(d)', 'NJ-40.11d-limit-by-rule',
     "payout_limit is not stated; the text sets it at $50,000 (the most one player can win in a round at the minimum wager is $33,570 (antes $10 each and 3x raises of $30: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down, Five Card Bonus $5 on flush, ace high (Kc Ac 8c 9c Tc), and 5 other players' spins, each paying this player $100) and the greater of $50,000 and that is $50,000), and the documents print that figure as the limit"),
    ('finite', 'pa', {("limits", "ante", "maximum"): float("inf")}, ('limits', 'ante', 'maximum'),
     'error', 'offering format', 'FORMAT-finite',
     'limits.ante.maximum is inf; numbers must be finite'),
    ('cents', 'pa', {("limits", "ante", "minimum"): 5.555}, ('limits', 'ante', 'minimum'),
     'error', 'offering format', 'FORMAT-cents',
     'limits.ante.minimum is 5.555; money is whole dollars or dollars and cents (at most two decimal places)'),
    ('min-max', 'pa', {("five_card_bonus", "minimum"): 60}, ('five_card_bonus', 'minimum'),
     'error', 'offering format', 'FORMAT-min-max',
     'five_card_bonus.minimum is $60, above the Five Card Bonus maximum $25'),
    ('signoff-role', 'pa', {("signoff",): [{"role": "prepared", "name": "A", "title": "B", "date": "2026-11-02"}, {"role": "prepared", "name": "C", "title": "D", "date": "2026-11-03"}]}, ('signoff', 1, 'role'),
     'error', 'offering format', 'FORMAT-signoff-role',
     "signoff[1].role 'prepared' is given twice (also signoff[0]); each role signs once"),
    ('signoff-missing-roles', 'pa', {("signoff",): [{"role": "prepared", "name": "A", "title": "B", "date": "2026-11-02"}]}, ('signoff',),
     'note', 'offering format', 'FORMAT-signoff',
     'signoff has no reviewed or approved entry yet: every document says DRAFT and --final is refused until all three roles have signed'),
    ('markup', 'pa', {("offering", "operator", "name"): "<b>Casino</b>"}, ('offering', 'operator', 'name'),
     'warning', 'offering format', 'FORMAT-markup',
     'offering.operator.name looks like markup or template syntax; it is plain text and will be printed exactly as written'),
    ('unprintable', 'pa', {("offering", "operator", "licence"): "Licence\u200b 12"}, ('offering', 'operator', 'licence'),
     'error', 'offering format', 'FORMAT-unprintable',
     'offering.operator.licence contains U+200B zero width space, which the documents cannot print the same way on every machine (rulegen prints Latin, Greek and Cyrillic letters, punctuation and common symbols); write it without'),
    ('logo', 'pa', {("offering", "operator", "logo"): "missing.png"}, ('offering', 'operator', 'logo'),
     'error', 'offering format', 'FORMAT-logo',
     "offering.operator.logo 'missing.png': no such file"),
    ('named-table', 'md', {("paytables", "criss_cross"): "standrad"}, ('paytables', 'criss_cross'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §A', 'MD-12A-named-table',
     "paytables.criss_cross is 'standrad', which is not a Criss Cross paytable Maryland authorizes; did you mean 'standard'?"),
    ('two-decks-shuffler', 'nj', {("cards", "decks"): 2, ("cards", "back_colours"): ["red", "blue"]}, ('cards', 'shuffling'),
     'error', 'N.J.A.C. 13:69F-40.2(a)', 'NJ-40.2a-two-decks-shuffler',
     "cards.shuffling is 'manual'; two decks are allowed only with an automated card shuffling device"),
    ('hand-dealing-shuffler', 'pa', {("cards", "shuffling"): "manual"}, ('cards', 'shuffling'),
     'error', '58 Pa. Code § 674a.9(a)(1)', 'PA-674a.9a1-hand-dealing-shuffler',
     "cards.shuffling is 'manual'; cards dealt from the hand must be shuffled by an automated shuffling device"),
    ('minimum-reset', 'md', {("bonus_spin", "top_prize", "reset"): 4000}, ('bonus_spin', 'top_prize', 'reset'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §D(6)(b)(iv)', 'MD-12D6biv-minimum',
     'bonus_spin.top_prize.reset is $4,000; the reset amount for paytable D must be at least $5,000'),
    ('weights-note', 'md', {}, ('bonus_spin', 'wheel'),
     'note', 'offering format', 'FORMAT-weights',
     "bonus_spin.wheel is not given, so no return figure for the Bonus Spin can be computed; a DRAFT's math appendix gives the return as a function of the wheel's mean prize, and a final build needs the manufacturer's weights (a weight for every segment) so that the filed appendix states the return"),
    ('limit-nj', 'nj', {("payout_limit", "amount"): 40000}, ('payout_limit', 'amount'),
     'error', 'N.J.A.C. 13:69F-40.11(d)', 'NJ-40.11d-limit',
     "payout_limit.amount is $40,000; the payout limit must be $50,000; the most one player can win in a round at the minimum wager is $33,570 (antes $10 each and 3x raises of $30: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down, Five Card Bonus $5 on flush, ace high (Kc Ac 8c 9c Tc), and 5 other players' spins, each paying this player $100) and the greater of $50,000 and that is $50,000"),
    ('limit-md-above', 'md', {("payout_limit", "amount"): 60000}, ('payout_limit', 'amount'),
     'error', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §B', 'MD-12B-limit',
     'payout_limit.amount is $60,000, above the $50,000 the aggregate payout limit may not exceed; the most one player can win in a round at the minimum wager is $19,510 (antes $5 each and 3x raises of $15: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down, Five Card Bonus $1 on flush, ace high (Kc Ac 8c 9c Tc)) and the greater of $50,000 and that is $50,000'),
    # §B's "may not exceed" is a ceiling: a lower limit is lawful, and one below the maximum win at the minimum wager
    # is told that it would cut such a win
    ('limit-md-below', 'md', {("payout_limit", "amount"): 10000}, ('payout_limit', 'amount'),
     'warning', 'MLGCA Criss Cross Poker Standard Rules, Chapter 12 §B', 'MD-12B-limit',
     'payout_limit.amount is $10,000, below the maximum win per round at the minimum wager: the most one player can win in a round at the minimum wager is $19,510 (antes $5 each and 3x raises of $15: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down, Five Card Bonus $1 on flush, ace high (Kc Ac 8c 9c Tc)) and the greater of $50,000 and that is $50,000; the limit would cut such a win'),
    ('limit-pa', 'pa', {("payout_limit", "amount"): 25000}, ('payout_limit', 'amount'),
     'error', '58 Pa. Code § 674a.12(d)', 'PA-674a.12d-limit',
     'payout_limit.amount is $25,000, below the floor of $50,000; the most one player can win in a round at the minimum wager is $16,510 (antes $5 each and 3x raises of $15: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down) and the greater of $50,000 and that is $50,000'),
    ('limit-house', 'house', {}, ('payout_limit', 'amount'),
     'warning', 'House rules, Pay Tables', 'HOUSE-PayTables-limit',
     'payout_limit.amount is $3,000, below the maximum win per round at the minimum wager: the most one player can win in a round at the minimum wager is $3,724 (antes $2 each and 3x raises of $6: royal flush (Jc Qc Kc Ac Tc) Across, straight flush, queen high (Jc Qc 8c 9c Tc) Down, Five Card Bonus $2 on flush, ace high (Kc Ac 8c 9c Tc), Six Card Bonus $2 on four of a kind, twos (Qc 2c 2d 2h 2s from Jc Qc 2c 2d 2h 2s)); the cap would cut such a win'),
    ('type', 'pa', {("table", "positions"): "six"}, ('table', 'positions'),
     'error', 'offering format', 'FORMAT-type',
     "table.positions is 'six'; it should be a whole number (the number of betting positions is a whole number)"),
    ('enum', 'pa', {("cards", "dealing"): "robot"}, ('cards', 'dealing'),
     'error', 'offering format', 'FORMAT-value',
     "cards.dealing is 'robot'; cards are dealt from a manual shoe, from the hand, or from an automated shoe"),
    ('const', 'pa', {("schema_version",): 2}, ('schema_version',),
     'error', 'offering format', 'FORMAT-value',
     'schema_version is 2; the only schema_version is 1'),
    ('required', 'pa', {("cards", "shuffling"): DELETE}, ('cards', 'shuffling'),
     'error', 'offering format', 'FORMAT-required',
     'cards.shuffling is missing'),
    ('length', 'pa', {("offering", "operator", "name"): ""}, ('offering', 'operator', 'name'),
     'error', 'offering format', 'FORMAT-length',
     "offering.operator.name has 0 characters; the operator's name is plain text of 1 to 200 characters"),
    ('count', 'pa', {("cards", "back_colours"): []}, ('cards', 'back_colours'),
     'error', 'offering format', 'FORMAT-count',
     'cards.back_colours has 0 entries; one back colour per deck'),
    ('not-allowed', 'nj', {("limits", "adjacent_boxes"): 2}, ('limits', 'adjacent_boxes'),
     'error', 'offering format', 'FORMAT-adjacent-boxes',
     "limits.adjacent_boxes is not allowed here; adjacent_boxes is a Pennsylvania field; New Jersey's text sets no such rule"),
    ('no-bonus-spin', 'pa', {("bonus_spin",): {"kind": "progressive", "wager": 5, "paytable": "A", "top_prize": {"kind": "fixed", "initial": 1000}}}, ('bonus_spin',),
     'error', '58 Pa. Code § 674a.7(e)', 'PA-674a.7e-no-bonus-spin',
     'bonus_spin is not allowed here; Pennsylvania authorizes no Bonus Spin wager: the only optional wager its rules name is the Five Card Bonus'),
    ('form', 'pa', {("offering", "id"): "Bad Id"}, ('offering', 'id'),
     'error', 'offering format', 'FORMAT-form',
     "offering.id is 'Bad Id'; an id is 3 to 64 lower-case letters, digits or hyphens; it names the build folder"),
    ('range', 'pa', {("limits", "ante", "minimum"): -5}, ('limits', 'ante', 'minimum'),
     'error', 'offering format', 'FORMAT-range',
     'limits.ante.minimum is -5; an amount of money is a positive number of dollars, whole or with cents'),
]


@pytest.mark.parametrize("name, base, changes, node, level, citation, rule, message", MESSAGES,
                         ids=[c[0] for c in MESSAGES])
def test_each_message_word_for_word(tmp_path, name, base, changes, node, level, citation, rule, message):
    path = mutated(tmp_path, base, changes)
    found = [f for f in validate_file(path).findings
             if f.field == (dotted(node) or None) and f.level == level and f.rule == rule]
    assert [(f.citation, f.message) for f in found] == [(citation, message)]
    assert (found[0].line, found[0].column) in _place(load_offering(path), node)


def test_an_md_limit_under_the_ceiling_and_over_the_maximum_win_is_lawful(tmp_path):
    """MD Chapter 12 §B's limit "may not exceed" the greater figure: $40,000, under the $50,000 ceiling and over the
    maximum win at the minimum wager, draws neither an error nor a warning (round 26 sent back the reading that made
    the limit exactly the greater figure)."""
    findings = validate_file(mutated(tmp_path, "md", {("payout_limit", "amount"): 40000})).findings
    assert [f for f in findings if f.field == "payout_limit.amount" and f.level in ("error", "warning")] == []


def _place(offering, node):
    """Where a finding about `node` may stand: the node's value or key; for a missing node, its parent's."""
    node = tuple(node)
    while node and node not in offering.positions:
        node = node[:-1]
    return {offering.positions.get(node), offering.key_positions.get(node)} - {None} or {(1, 1)}


@pytest.mark.parametrize("name, base, changes, node, level, citation, rule, message", CASES, ids=[c[0] for c in CASES])
def test_each_rule_once_at_its_line_with_its_citation_code_and_words(tmp_path, name, base, changes, node, level,
                                                                    citation, rule, message):
    path = mutated(tmp_path, base, changes)
    report = validate_file(path)
    about = [f for f in report.findings if f.field == dotted(node) and f.level != "note"]
    assert len(about) == 1, "one finding per problem:\n" + "\n".join(f.format() for f in report.findings)
    [finding] = about
    assert (finding.level, finding.citation, finding.rule, finding.message) == (level, citation, rule, message)
    assert (finding.line, finding.column) in _place(load_offering(path), node), finding.format()
    assert report.status == (1 if level == "error" else 0)
    assert finding.format().endswith(f"{message} [{citation}] ({rule})")
    assert finding.to_json()["field"] == dotted(node) and finding.to_json()["rule"] == rule


def test_the_wheel_as_the_table_gives_it_is_accepted(tmp_path):
    report = validate_file(mutated(tmp_path, "nj", wheel(lambda w: [s.update(position=p) for s, p in zip(
        w, (0, 2, 8, 3, 7, 6, 10, 11, 9, 5, 4, 1))])))
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


def test_a_wheel_of_weights_alone_takes_the_tables_community_pays(tmp_path):
    report = validate_file(mutated(tmp_path, "nj", wheel(lambda w: [s.pop("community", None) for s in w])))
    assert report.status == 0, "\n".join(f.format() for f in report.findings)


def test_the_documents_take_community_pays_from_the_designated_table_alone():
    from rulegen.resolved import resolved_bonus_spin

    spin = {"kind": "progressive", "wager": 5, "paytable": "3", "top_prize": PROGRESSIVE,
            "wheel": [dict(segment, community=999) for segment in WHEEL]}
    pays = {s.symbol: s.community for s in resolved_bonus_spin(load_jurisdiction("NJ"), spin).segments}
    assert pays["500"] == 100 and pays["200"] == 50 and pays["25"] == 15 and pays["350"] is None


def test_one_finding_per_problem_across_the_checklist(tmp_path):
    """No two findings of one file say the same thing about the same field."""
    for index, (base, changes, _node, _citation) in enumerate(CHECKLIST):
        folder = tmp_path / str(index)
        folder.mkdir()
        findings = validate_file(mutated(folder, base, changes)).findings
        keys = [(f.field, f.rule, f.level) for f in findings if f.level != "note"]
        assert len(keys) == len(set(keys)), "\n".join(f.format() for f in findings)


def _corpus(tmp_path):
    """Every finding of every mutation in this file and in test_validate's checklist."""
    cases = [(c[1], c[2]) for c in CASES + MESSAGES] + [(c[0], c[1]) for c in CHECKLIST]
    for index, (base, changes) in enumerate(cases):
        folder = tmp_path / str(index)
        folder.mkdir()
        yield from validate_file(mutated(folder, base, changes)).findings


def test_every_message_names_its_field_and_every_finding_carries_a_documented_code(tmp_path):
    section = (jurisdictions_dir() / "README.md").read_text().split("## Rule codes", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M))
    slugs = rule_slugs()
    assert set(slugs) == documented, (f"undocumented: {sorted(set(slugs) - documented)}; "
                                      f"documented but unknown: {sorted(documented - set(slugs))}")
    seen = 0
    for finding in _corpus(tmp_path):
        seen += 1
        if finding.field:
            assert finding.field in finding.message, finding.format()
        assert finding.rule, finding.format()
        prefix, _, slug = finding.rule.partition("-") if finding.rule.startswith("FORMAT-") else (None, None, None)
        if prefix == "FORMAT":
            assert slug in slugs, finding.format()
            continue
        code = finding.rule.split("-", 1)[0]
        jurisdiction = load_jurisdiction(code)
        clause = clause_code(jurisdiction, finding.citation)
        assert finding.rule.startswith(f"{code}-{clause}-"), finding.format()
        assert finding.rule[len(f"{code}-{clause}-"):] in slugs, finding.format()
    assert seen > 100


# --- revisions ----------------------------------------------------------------------------------------------------

REVISIONS = [
    ({("offering", "id"): "another-offering"}, ("offering", "id"), "FORMAT-revision-id",
     "offering.id is 'another-offering', but the previous revision (OLD) is 'test-pa'; a revision "
     "keeps its offering's id"),
    ({("offering", "jurisdiction"): "MD"}, ("offering", "jurisdiction"), "FORMAT-revision-jurisdiction",
     "offering.jurisdiction is 'MD', but the previous revision (OLD) is 'PA'; a revision stays in its jurisdiction "
     "(another state's offering is a new filing)"),
    ({("offering", "version"): 3}, ("offering", "version"), "FORMAT-revision-version",
     "offering.version is 3, not above the previous revision's 3 (OLD); a new revision has a higher version"),
    ({("offering", "effective_date"): "2027-02-28"}, ("offering", "effective_date"), "FORMAT-revision-date",
     "offering.effective_date is 2027-02-28, not after the previous revision's 2027-03-01 (OLD); a new revision "
     "takes effect later"),
]


@pytest.mark.parametrize("changes, node, rule, message", REVISIONS, ids=[r[2] for r in REVISIONS])
def test_a_revision_that_does_not_follow_the_previous_one_is_found_at_its_field(tmp_path, changes, node, rule,
                                                                               message):
    old_folder, new_folder = tmp_path / "old", tmp_path / "new"
    old_folder.mkdir()
    new_folder.mkdir()
    old = load_offering(mutated(old_folder, "pa", {}), "OLD")
    later = {("offering", "version"): 4, ("offering", "effective_date"): "2027-06-01"}
    new = load_offering(mutated(new_folder, "pa", {**later, **changes}))
    [finding] = check_revision(old, new)
    assert (finding.level, finding.field, finding.rule, finding.message) == ("error", dotted(node), rule, message)
    assert (finding.line, finding.column) in _place(new, node)
    assert [f.level for f in check_revision(old, new, level="warning")] == ["warning"]


def test_a_later_revision_of_the_same_offering_passes(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    old = load_offering(mutated(tmp_path / "old", "pa", {}))
    new = load_offering(mutated(tmp_path / "new", "pa", {("offering", "version"): 4,
                                                          ("offering", "effective_date"): "2027-06-01"}))
    assert check_revision(old, new) == []
    assert [f.rule for f in check_revision(new, old)] == ["FORMAT-revision-version", "FORMAT-revision-date"]


def test_build_refuses_a_previous_revision_that_the_new_one_does_not_follow(tmp_path):
    """Another state's offering as --previous: errors at the new file's fields, exit 1, nothing written."""
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    new, previous = samples_dir() / "pa-five-card-bonus.yaml", samples_dir() / "nj-bonus-spin.yaml"
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(new), "--previous", str(previous), "--out", str(out)])
    assert result.exit_code == 1, result.output
    codes = re.findall(r"^" + re.escape(str(new)) + r":\d+:\d+: error: .* \[offering format\] \((FORMAT-revision-[a-z]+)\)$",
                       result.stdout, re.M)
    assert codes == ["FORMAT-revision-id", "FORMAT-revision-jurisdiction", "FORMAT-revision-version"], result.output
    assert not out.exists() or not any(out.iterdir())


def test_diff_reports_a_pair_out_of_order_and_goes_on(tmp_path):
    import json

    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    sample = samples_dir() / "pa-five-card-bonus.yaml"
    result = CliRunner().invoke(app, ["diff", str(sample), str(sample)])
    assert result.exit_code == 0, result.output
    assert re.findall(r"warning: .*\((FORMAT-revision-[a-z]+)\)$", result.stdout, re.M) == [
        "FORMAT-revision-version", "FORMAT-revision-date"]
    assert "No changes between" in result.stdout
    payload = json.loads(CliRunner().invoke(app, ["diff", str(sample), str(sample), "--format", "json"]).stdout)
    assert [f["rule"] for f in payload["revision_findings"]] == ["FORMAT-revision-version", "FORMAT-revision-date"]
    assert {f["field"] for f in payload["revision_findings"]} == {"offering.version", "offering.effective_date"}


def _xtreme(tmp_path, change=None):
    """The matrix's Maryland Xtreme filing (its Community Prize Wheel weighted), changed by `change`, as a file."""
    from tests.configurations import configurations

    config = next(c for c in configurations(("MD",)) if c.name == "md-xtreme-a-pair")
    data = copy.deepcopy(config.data)
    if change:
        change(data)
    return config.__class__(config.name, config.jurisdiction, data).write(tmp_path)


def _community_findings(path):
    return sorted((f for f in validate_file(path).findings if f.rule.endswith("-community-wheel")),
                  key=lambda f: f.message)


def test_a_community_prize_wheel_lists_each_amount_of_the_designated_wheel_once(tmp_path):
    assert _community_findings(_xtreme(tmp_path)) == []

    def wrong(data):
        data["bonus_spin"]["community_wheel"][0]["symbol"] = 36
    found = _community_findings(_xtreme(tmp_path, wrong))
    assert [f.field for f in found] == ["bonus_spin.community_wheel", "bonus_spin.community_wheel[0].symbol"]
    assert "leaves out $35" in found[0].message and found[0].level == found[1].level == "error"
    assert "is 36" in found[1].message and "Community Prize Wheel A does not have" in found[1].message
    assert found[1].rule == "MD-12E14-community-wheel" and "Chapter 12 §E(14)" in found[1].citation

    def twice(data):
        data["bonus_spin"]["community_wheel"][1]["symbol"] = data["bonus_spin"]["community_wheel"][0]["symbol"]
    found = _community_findings(_xtreme(tmp_path, twice))
    assert any("again" in f.message and f.field == "bonus_spin.community_wheel[1].symbol" for f in found)
    again = next(f for f in found if "again" in f.message)
    line = (tmp_path / "md-xtreme-a-pair.yaml").read_text().splitlines()[again.line - 1]
    assert "symbol" in line  # the finding points at the offending entry's line


def test_a_community_prize_wheel_only_where_one_is_designated(tmp_path):
    from tests.configurations import sample_data

    from tests.configurations import Configuration

    data = sample_data("NJ")
    data["bonus_spin"]["community_wheel"] = [{"symbol": 35, "weight": 1}]
    found = _community_findings(Configuration("nj", "NJ", data).write(tmp_path))
    assert len(found) == 1 and "designates no Community Prize Wheel" in found[0].message
    assert found[0].field == "bonus_spin.community_wheel" and found[0].level == "error"


def test_a_full_table_past_100_percent_is_a_warning_with_its_figures(tmp_path):
    """Community pays from the other positions' spins add to the return: a Community Prize Wheel weighted to its
    largest amount takes the Xtreme wager past 100% at a full table, which is a warning naming the figures."""
    def generous(data):
        for segment in data["bonus_spin"]["community_wheel"]:
            segment["weight"] = 1000 if segment is data["bonus_spin"]["community_wheel"][0] else 1
    quiet = [f for f in validate_file(_xtreme(tmp_path)).findings if f.rule == "FORMAT-spin-return-table"]
    assert quiet == []
    found = [f for f in validate_file(_xtreme(tmp_path, generous)).findings if f.rule == "FORMAT-spin-return-table"]
    assert len(found) == 1 and found[0].level == "warning" and found[0].field == "bonus_spin"
    assert re.search(r"returns \d+\.\d\d% of the wager once \d other players? hold it", found[0].message)
    assert "player's advantage" in found[0].message


def test_a_community_table_that_names_no_symbol_of_the_wheel_is_a_warning_at_its_line(tmp_path):
    """MD's Paytable D carries none of the symbols ($500, $200, $25) community-pay table A names (Chapter 12 §D(4),
    §D(10)(a)): no community pay is ever made, a warning at `community_pay`; Paytable A with table A pays one."""
    from rulegen.resources import samples_dir

    source = (samples_dir() / "md-progressive.yaml").read_text()
    assert "  paytable: D\n  community_pay: A\n" in source
    path = tmp_path / "md.yaml"
    path.write_text(source)
    line = next(n for n, row in enumerate(source.splitlines(), start=1) if row == "  community_pay: A")
    found = [f for f in validate_file(path).findings if f.rule.endswith("community-unpaid")]
    assert [(f.level, f.line, f.field) for f in found] == [("warning", line, "bonus_spin.community_pay")], found
    assert "Paytable D's wheel" in found[0].message
    # Paytable B carries the $500 table A names: a valid offering with it has no such warning
    from tests.configurations import configurations

    paying = next(c for c in configurations(("MD",)) if c.name == "md-prog-b-autoshoe")
    assert (paying.data["bonus_spin"]["paytable"], paying.data["bonus_spin"]["community_pay"]) == ("B", "A")
    findings = validate_file(paying.write(tmp_path)).findings
    assert not [f for f in findings if f.level == "error"], findings
    assert not [f for f in findings if f.rule.endswith("community-unpaid")]
