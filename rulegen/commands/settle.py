"""`rulegen settle --hole ... --across ... --down ... --middle ... --ante 5 --bets 3,3,3 [...]`: one round,
settled step by step with the hands named."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulegen.commands._common import OutputFormat, exits_cleanly, format_option
from rulegen.errors import UsageError


def parse_bets(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part != "")
    except ValueError:
        raise UsageError(f"--bets is {text!r}; write multiples of the ante separated by commas, like 3,1,1 or 1,0") \
            from None


def register(app: typer.Typer) -> None:
    @app.command("settle")
    def settle(
        hole: Annotated[str, typer.Option("--hole", help='The player\'s two cards, e.g. "Js Ts".', show_default=False)],
        across: Annotated[str, typer.Option("--across", help="The two outside cards of the horizontal line.",
                                            show_default=False)],
        down: Annotated[str, typer.Option("--down", help="The two outside cards of the vertical line.",
                                          show_default=False)],
        middle: Annotated[str, typer.Option("--middle", help="The middle card.", show_default=False)],
        ante: Annotated[str, typer.Option(
            "--ante", help="Each of the two equal antes, in dollars.", show_default=False)],
        bets: Annotated[str, typer.Option("--bets", help="Across, Down, Middle bets as multiples of the ante; 0 folds "
                                                         "(1,0 folds at Down).")] = "1,1,1",
        five_card_bonus: Annotated[str | None, typer.Option("--five-card-bonus", help="The Five Card Bonus wager.",
                                                            show_default=False)] = None,
        six_card: Annotated[str | None, typer.Option("--six-card", help="The four Six Card Bonus community cards.",
                                                     show_default=False)] = None,
        bonus_spin: Annotated[str | None, typer.Option("--bonus-spin", help="The Bonus Spin wager.",
                                                       show_default=False)] = None,
        wheel: Annotated[str | None, typer.Option("--wheel", help="The symbol the wheel landed on (500, jackpot...).",
                                                  show_default=False)] = None,
        offering: Annotated[Path | None, typer.Option("--offering", help="Settle under this offering's tables; "
                                                      "without it, the standard tables the three states share.",
                                                      show_default=False)] = None,
        format: Annotated[OutputFormat, format_option()] = OutputFormat.TEXT,
    ) -> None:
        """Settle one round for one player, step by step, with each wager's result and the total."""
        with exits_cleanly():
            from rulegen.game import settle_round

            from rulegen.money import parse_amount

            try:  # amounts are judged on their text before any arithmetic (1e26 or 1e999999 never reach it)
                ante_amount = parse_amount(ante, "--ante")
                amounts = {name: parse_amount(value, f"--{name.replace('_', '-')}") if value is not None else None
                           for name, value in (("five_card_bonus", five_card_bonus), ("bonus_spin", bonus_spin))}
                if wheel is not None and wheel.strip().lower() != "jackpot":
                    parse_amount(wheel, "--wheel")
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            if offering is None:
                from rulegen.resolved import standard_rules

                rules = standard_rules()
            else:
                from rulegen.errors import ExitCode, InputError, InvalidOfferingError
                from rulegen.resolved import resolve
                from rulegen.validate import validate_file

                report = validate_file(offering, str(offering))  # its tables are only used once they validate
                if report.status != ExitCode.OK or report.offering is None:
                    error = InputError if report.status == ExitCode.UNUSABLE else InvalidOfferingError
                    raise error(f"{offering} does not validate; settle uses an offering's tables only once it does",
                                findings=[f for f in report.findings if f.level == "error"])
                rules = resolve(report.offering).game_rules
            settlement = settle_round(rules, hole, across, down, middle, ante_amount, parse_bets(bets),
                                      five_card_bonus=amounts["five_card_bonus"], six_card=six_card,
                                      bonus_spin_wager=amounts["bonus_spin"], wheel_symbol=wheel)
            if format == "json":
                import simplejson  # money as exact decimal numerals, as math --json writes it

                typer.echo(simplejson.dumps(settlement.to_json(), indent=2, use_decimal=True))
                return
            for step in settlement.steps:
                typer.echo(step)
            if settlement.community_pay_to_others:
                typer.echo(f"Community pay to each other Bonus Spin wager: ${settlement.community_pay_to_others}")
            for note in settlement.notes:
                typer.echo(f"note: {note}")
