"""PNG plots for the reports (matplotlib, optional).

Line plots: a value on a log scale (solver seconds, or formula clauses) against a
categorical x axis (plies, or board sizes), one line per engine configuration or
encoding; the cactus plot; a log-log scatter against the paper's seconds; a heat map of
nodes per heuristic set and problem. Legends sit outside the axes, and each series has its
own colour and marker pair (:func:`series_style`), so neither the data nor a series is
hidden past ten of them. When matplotlib is not importable nothing is drawn and the
reports are the same text.
"""

from __future__ import annotations

from pathlib import Path

#: log scale: a time of 0 (below the clock's resolution) is drawn at this floor
FLOOR_S = 1e-4
#: 7 markers against the 10 colours of matplotlib's default cycle: the pair (colour,
#: marker) differs for the first 70 series, and neighbours differ in both
MARKERS = "osD^vPX"
LINESTYLES = ("-", "--", ":", "-.")


def series_style(index: int) -> dict:
    """The colour, marker and line style of the ``index``-th series of a plot.

    >>> series_style(0), series_style(10)
    ({'color': 'C0', 'marker': 'o', 'linestyle': '-'}, {'color': 'C0', 'marker': '^', 'linestyle': '--'})
    """
    return {"color": f"C{index % 10}", "marker": MARKERS[index % len(MARKERS)],
            "linestyle": LINESTYLES[index // 10 % len(LINESTYLES)]}


def pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def _legend_outside(ax, count: int) -> None:
    """The legend to the right of the axes, never over the data."""
    ax.legend(fontsize=7, ncol=2 if count > 24 else 1, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def save_figure(fig, path: Path) -> None:
    # "tight": the figure grows to hold the legend beside the axes; no "Software" tag:
    # the same data and matplotlib give the same bytes
    fig.savefig(path, dpi=100, metadata={"Software": None}, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def line_figure(title: str, xlabel: str, xs: list[str], series: dict[str, list[float | None]],
                reference: tuple = (), ylabel: str = "seconds (log scale)"):
    """The figure of :func:`line_plot` (matplotlib needed)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    ours = [label for label in series if label not in reference]
    for label, ys in series.items():
        points = [(x, max(y, FLOOR_S)) for x, y in enumerate(ys) if y is not None]
        if not points:
            continue
        if label in reference:  # published numbers: black, set apart from our lines
            style = {"color": "black", "marker": "sD^v"[reference.index(label) % 4],
                     "linestyle": "--", "markersize": 4}
        else:
            style = {**series_style(ours.index(label)), "markersize": 4}
        ax.plot(*zip(*points), label=label, **style)
    ax.set_yscale("log")
    ax.set_xticks(range(len(xs)), xs)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    if series:
        _legend_outside(ax, len(series))
    return fig


def line_plot(path: Path, title: str, xlabel: str, xs: list[str],
              series: dict[str, list[float | None]], reference: tuple = (),
              ylabel: str = "seconds (log scale)") -> bool:
    """Draw ``series`` (label -> one y per x, None for no point), the ``reference`` labels
    (published numbers) in black; False without matplotlib."""
    if not have_matplotlib():
        return False
    save_figure(line_figure(title, xlabel, xs, series, reference, ylabel), path)
    return True


def loglog_plot(path: Path, title: str, xlabel: str, ylabel: str,
                points: dict[str, list[tuple[float, float]]]) -> bool:
    """A scatter of (x, y) points per label on log-log axes, with the lines y = x, 2x and
    10x; False without matplotlib."""
    if not have_matplotlib():
        return False
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 6))
    values = [max(v, FLOOR_S) for pts in points.values() for xy in pts for v in xy]
    low, high = (min(values), max(values)) if values else (FLOOR_S, 1.0)
    span = [low / 2, high * 2]
    for k, style in ((1, "-"), (2, "--"), (10, ":")):
        ax.plot(span, [k * x for x in span], color="grey", linestyle=style, linewidth=0.8,
                label=f"ours = {k} x paper" if k > 1 else "ours = paper")
    for label, pts in points.items():
        if pts:
            xs, ys = zip(*((max(x, FLOOR_S), max(y, FLOOR_S)) for x, y in pts))
            ax.scatter(xs, ys, s=14, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(span)
    ax.set_ylim(span)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)
    return True


def cactus_plot(path: Path, title: str, series: dict[str, list[float]],
                limit: float | None = None) -> bool:
    """The QBF field's cactus plot: per label, its sorted solving times (the k-th point is
    the seconds needed to decide k questions), seconds on a log scale; a dotted line at the
    time ``limit``. False without matplotlib."""
    if not have_matplotlib():
        return False
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (label, times) in enumerate(series.items()):
        if times:
            ax.plot(range(1, len(times) + 1), [max(t, FLOOR_S) for t in times],
                    label=f"{label} ({len(times)})", markersize=2, **series_style(i))
    if limit:
        ax.axhline(limit, color="grey", linestyle=":", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("questions decided")
    ax.set_ylabel("seconds per question (log scale)")
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    if any(series.values()):
        _legend_outside(ax, len(series))
    save_figure(fig, path)
    return True


def heatmap_plot(path: Path, title: str, panels: list[dict], value: str,
                 missing: str, xlabel: str = "") -> bool:
    """Coloured grids, one panel each (``{"title", "rows", "columns", "values"}``,
    ``values[r][c]`` a number or None): colour the ``value`` on a log scale, grey where
    there is none (``missing`` says what that means). False without matplotlib."""
    if not have_matplotlib():
        return False
    import numpy as np
    from matplotlib.colors import LogNorm

    plt = pyplot()
    numbers = [v for p in panels for line in p["values"] for v in line if v]
    norm = LogNorm(vmin=min(numbers, default=1), vmax=max(numbers, default=10))
    width = max(len(p["columns"]) for p in panels)
    height = sum(len(p["rows"]) for p in panels)
    fig, axes = plt.subplots(len(panels), 1, squeeze=False,
                             figsize=(min(4 + 0.12 * width, 16), 1.5 + 0.22 * height + 0.6 * len(panels)))
    cmap = plt.get_cmap("viridis").with_extremes(bad="lightgrey")
    for ax, panel in zip(axes[:, 0], panels):
        grid = np.ma.masked_invalid(np.array(
            [[v if v else np.nan for v in line] for line in panel["values"]], dtype=float))
        image = ax.imshow(grid, aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
        ax.set_yticks(range(len(panel["rows"])), panel["rows"], fontsize=7)
        step = max(1, len(panel["columns"]) // 25)
        ax.set_xticks(range(0, len(panel["columns"]), step), panel["columns"][::step],
                      fontsize=6, rotation=90)
        ax.set_title(f"{panel['title']} (grey: {missing})", fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
    fig.colorbar(image, ax=axes[:, 0].tolist(), label=value, fraction=0.03, pad=0.02)
    fig.suptitle(title, fontsize=10)
    save_figure(fig, path)
    return True
