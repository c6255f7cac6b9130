"""Table limits beyond the schema: the adjacent boxes one player may play fit on the table."""

from __future__ import annotations

from rulegen.validate.core import Check, Context, number

ADJACENT = ("limits", "adjacent_boxes")


def adjacent_boxes_fit(ctx: Context, check: Check) -> None:
    boxes = number(ctx.get(ADJACENT))
    positions = number(ctx.get(("table", "positions")))
    if boxes is None or positions is None or ctx.failed(ADJACENT) or ctx.failed(("table", "positions")):
        return
    if boxes > positions:
        ctx.add(check, ADJACENT, "error",
                f"limits.adjacent_boxes is {boxes}, more than the table's {positions} betting positions "
                "(table.positions); one player cannot wager on more boxes than the table has")


CHECKS = (
    Check("adjacent boxes fit the table", ADJACENT, ("rules", "adjacent_boxes_required"), "adjacent-boxes",
          adjacent_boxes_fit),
)
