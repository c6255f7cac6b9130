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
