"""Paytable design at scale: many candidate paytables of one base offering, their exact figures, on one machine
or a Dask cluster. Layer: sweep (above validate, math and resolved; beside build; below the commands).

- `spec`: the sweep spec (a base offering, the values to try for paytable rows, a filter) and its candidates;
- `evaluate`: one candidate's row (validation in the base's jurisdiction, the math layer's figures);
- `results`: the rows as sweep.csv (and Parquet), the filter, the Pareto front and its SVG plot;
- `run`: the candidates spread over Dask workers, resumable, with bounded memory.

Nothing here computes a figure the math layer does not: the main game's come from `rulegen.math.shared`.
"""
