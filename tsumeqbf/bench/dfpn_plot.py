"""The picture of a ``bench dfpn`` CSV: nodes and seconds against the stated mate length,
our df-pn beside cshogi's DfPn (``python -m tsumeqbf.bench dfpn ... --plot PNG``).

Left, the nodes of every proven mate (ours, and cshogi's where it proved one) with the
node budget dashed; right, the seconds per problem, open markers where nothing was proven
within the budget. cshogi's seconds are drawn where the rows have a ``cshogi_time_s``
column (``--beside-csv``: a ``--only cshogi`` run's, see
:func:`tsumeqbf.bench.dfpn.with_cshogi_seconds`); without it the right panel's title says
they were not recorded.
The same rows give the same bytes.
"""

from __future__ import annotations

from pathlib import Path

from ..experiments.plots import FLOOR_S, have_matplotlib, pyplot, save_figure, series_style
from ..values import Status, status_of


def _number(text) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _points(rows: list[dict], key: str, keep) -> tuple[list[float], list[float]]:
    pairs = [(float(r["stated_length"]), _number(r.get(key))) for r in rows if keep(r)]
    pairs = [(x, max(y, FLOOR_S if key.endswith("_s") else 1)) for x, y in pairs if y is not None]
    return [x for x, _ in pairs], [y for _, y in pairs]


def plot_edo(rows: list[dict], path: Path, title: str, budget: int | None = None) -> bool:
    """Draw the two panels of ``rows`` (a ``bench dfpn`` CSV) to ``path``; False without
    matplotlib or rows."""
    if not have_matplotlib() or not rows:
        return False
    plt = pyplot()
    fig, (nodes_ax, secs_ax) = plt.subplots(1, 2, figsize=(12, 5))
    ours = [r for r in rows if status_of(r) is Status.MATE]
    theirs = [r for r in rows if str(r.get("cshogi_proven")) == "True"]
    for ax, key, keep, label, style in (
            (nodes_ax, "nodes", lambda r: status_of(r) is Status.MATE,
             f"ours (df-pn): {len(ours)}/{len(rows)} proven", series_style(0)),
            (nodes_ax, "cshogi_nodes", lambda r: str(r.get("cshogi_proven")) == "True",
             f"cshogi's DfPn: {len(theirs)}/{len(rows)} proven", series_style(1)),
            (secs_ax, "time_s", lambda r: status_of(r) is Status.MATE,
             "ours (df-pn), proven", series_style(0)),
            (secs_ax, "time_s", lambda r: status_of(r) is not Status.MATE,
             "ours (df-pn), none proven within the budget",
             {**series_style(0), "markerfacecolor": "none"}),
            (secs_ax, "cshogi_time_s", lambda r: str(r.get("cshogi_proven")) == "True",
             "cshogi's DfPn, proven", series_style(1)),
            (secs_ax, "cshogi_time_s", lambda r: str(r.get("cshogi_proven")) != "True",
             "cshogi's DfPn, none proven within the budget",
             {**series_style(1), "markerfacecolor": "none"})):
        xs, ys = _points(rows, key, keep)
        if xs:
            ax.plot(xs, ys, label=label, linestyle="none", markersize=4,
                    **{k: v for k, v in style.items() if k != "linestyle"})
    if budget:
        nodes_ax.axhline(budget, color="grey", linestyle="--", linewidth=0.8,
                         label=f"budget: {budget:,} nodes")
    recorded = any(_number(r.get("cshogi_time_s")) is not None for r in rows)
    for ax, ylabel, name in ((nodes_ax, "nodes (log scale)", "nodes of each proven mate"),
                             (secs_ax, "seconds (log scale)", "wall seconds per problem"
                              if recorded else
                              "our seconds per problem (cshogi's not recorded in this CSV)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("stated mate length (plies, log scale)")
        ax.set_ylabel(ylabel)
        ax.set_title(name, fontsize=9)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.15), borderaxespad=0.0)
    fig.suptitle(title, fontsize=10)
    save_figure(fig, path)
    return True
