"""PNG line plots for the reports (matplotlib, optional).

Each plot is solver seconds on a log scale against a categorical x axis (plies, or board
sizes), one line per engine configuration. When matplotlib is not importable nothing is
drawn and the reports are the same text.
"""

from __future__ import annotations

from pathlib import Path

#: log scale: a time of 0 (below the clock's resolution) is drawn at this floor
FLOOR_S = 1e-4


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def line_plot(path: Path, title: str, xlabel: str, xs: list[str],
              series: dict[str, list[float | None]], reference: tuple = ()) -> bool:
    """Draw ``series`` (label -> one y per x, None for no point), the ``reference`` labels
    (published numbers) in black; False without matplotlib."""
    if not have_matplotlib():
        return False
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    ours = [label for label in series if label not in reference]
    for label, ys in series.items():
        points = [(x, max(y, FLOOR_S)) for x, y in enumerate(ys) if y is not None]
        if not points:
            continue
        if label in reference:  # published numbers: black, set apart from our lines
            style = {"color": "black", "marker": "sD^v"[reference.index(label) % 4],
                     "linestyle": "--", "markersize": 4}
        else:  # ten colours in the default cycle: past them, change the line style
            style = {"marker": "o", "markersize": 3,
                     "linestyle": ("-", "--", ":", "-.")[ours.index(label) // 10 % 4]}
        ax.plot(*zip(*points), label=label, **style)
    ax.set_yscale("log")
    ax.set_xticks(range(len(xs)), xs)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("seconds (log scale)")
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    if series:
        ax.legend(fontsize=7, ncol=2 if len(series) > 8 else 1)
    fig.tight_layout()
    # no "Software" tag: the same data and matplotlib give the same bytes
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True


def loglog_plot(path: Path, title: str, xlabel: str, ylabel: str,
                points: dict[str, list[tuple[float, float]]]) -> bool:
    """A scatter of (x, y) points per label on log-log axes, with the lines y = x, 2x and
    10x; False without matplotlib."""
    if not have_matplotlib():
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True


def cactus_plot(path: Path, title: str, series: dict[str, list[float]],
                limit: float | None = None) -> bool:
    """The QBF field's cactus plot: per label, its sorted solving times (the k-th point is
    the seconds needed to decide k questions), seconds on a log scale; a dotted line at the
    time ``limit``. False without matplotlib."""
    if not have_matplotlib():
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (label, times) in enumerate(series.items()):
        if times:
            ax.plot(range(1, len(times) + 1), [max(t, FLOOR_S) for t in times],
                    label=f"{label} ({len(times)})", marker="o", markersize=2,
                    linestyle=("-", "--", ":", "-.")[i // 10 % 4])
    if limit:
        ax.axhline(limit, color="grey", linestyle=":", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("questions decided")
    ax.set_ylabel("seconds per question (log scale)")
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    if any(series.values()):
        ax.legend(fontsize=7, ncol=2 if len(series) > 8 else 1)
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return True
