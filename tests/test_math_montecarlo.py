"""Monte Carlo of the computed strategy: its compiled settlement equals rulegen.game on the same deals, and its
99% interval covers the exact EV."""

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache


from rulegen.cards import Card
from rulegen.game import settle_round
from tests.standard_game import STANDARD_RULES
from rulegen.math import main_game as mg
from rulegen.math import montecarlo as mc


@lru_cache(maxsize=None)
def _standard():
    run = mg.run_kernel(STANDARD_RULES.criss_cross, STANDARD_RULES.ante)
    weights = [h.combinations for h in run.hands]
    best = [int(r.ev[{0: 0, 1: 1, 3: 2}[int(r.across_choice)]]) for r in run.results]
    ev = Fraction(sum(w * b for w, b in zip(weights, best)), run.scale * 1326 * mg.LEAVES_PER_HAND)
    return mc.strategy_from_run(run), ev


def test_compiled_settlement_equals_game_layer():
    strategy, _ = _standard()
    simulation = mc.simulate(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, 3000, seed=11, strategy=strategy)
    played, scale = simulation.rounds, simulation.scale
    folds = 0
    for deal, bet, net in zip(played.deals.tolist(), played.bets.tolist(), played.nets.tolist()):
        cards = [Card(c) for c in deal]
        played = []
        for b in bet:
            played.append(b)
            if b == 0:
                break
        folds += 0 in played
        settlement = settle_round(STANDARD_RULES, cards[0:2], cards[2:4], cards[4:6], cards[6:7], Decimal(1), played)
        assert Fraction(settlement.net) == Fraction(net, scale), (deal, played)
    assert folds > 0


def test_interval_covers_exact_ev():
    strategy, ev = _standard()
    result = mc.monte_carlo(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, ev, rounds=400_000, seed=5,
                            strategy=strategy)
    assert result.covers_exact, result
    assert result.interval[0] < float(ev) < result.interval[1]


def test_seeded_and_reproducible():
    strategy, _ = _standard()
    a = mc.simulate(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, 60_000, seed=3, strategy=strategy).rounds.nets
    b = mc.simulate(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, 60_000, seed=3, strategy=strategy).rounds.nets
    assert (a == b).all()
    # the figures' run keeps only the nets: the same nets
    c = mc.simulate(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, 60_000, seed=3, strategy=strategy, keep=False)
    assert (c.rounds.nets == a).all() and c.rounds.deals.shape == (0, 7)


def test_middle_decision_is_the_best_over_the_46_middle_cards():
    """The simulation's Middle bet, taken rank by rank, is the one the 46 middle cards' exact sums choose, each
    middle card's hands classed by the evaluator (flush draws included)."""
    import numpy as np

    from rulegen.evaluator import strength_arrays
    from rulegen.math.deals import integer_payouts
    from rulegen.math.fasteval import evaluate_many

    strategy, _ = _standard()
    played = mc.simulate(STANDARD_RULES.criss_cross, STANDARD_RULES.ante, 40_000, seed=17, strategy=strategy).rounds
    payouts = integer_payouts(STANDARD_RULES.criss_cross, STANDARD_RULES.ante)
    ante, cc, scale = payouts.ante, payouts.criss_cross, payouts.scale
    pay_of = strength_arrays()[4].astype(np.int64)
    reached = np.nonzero(played.bets[:, 1] > 0)[0]
    flush_draws = 0
    for row in reached[:3000]:
        deal = played.deals[row]
        b1, b2 = int(played.bets[row, 0]), int(played.bets[row, 1])
        middle = np.array([card for card in range(52) if card not in deal[:6]])
        across = pay_of[evaluate_many(np.column_stack([np.repeat(deal[None, 0:4], 46, axis=0), middle]))]
        down = pay_of[evaluate_many(np.column_stack([np.repeat(deal[None, [0, 1, 4, 5]], 46, axis=0), middle]))]
        flush_draws += len({int(c) & 3 for c in deal[0:4]}) == 1 or len({int(c) & 3 for c in deal[[0, 1, 4, 5]]}) == 1
        base = int((ante[across] + ante[down] + b1 * cc[across] + b2 * cc[down]).sum())
        better = int(cc[np.maximum(across, down)].sum())
        options = [(-(2 + b1 + b2) * 46 * scale, 0), (base + better, 1), (base + 3 * better, 3)]
        best = options[0]
        for value, bet in options[1:]:
            if value > best[0]:  # a tie keeps the smaller wager
                best = (value, bet)
        assert int(played.bets[row, 2]) == best[1], (deal.tolist(), b1, b2)
    assert len(reached) >= 3000 and flush_draws > 0
