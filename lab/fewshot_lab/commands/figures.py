"""
Figures of the report: a bar chart of Table 1 and the paper's Figure 1 (t-SNE of the encoder's
utterance representations after pre-training, with the support sets of the best and the worst
shuffle highlighted). matplotlib and scikit-learn are imported here only, when a figure is drawn.
"""

import logging
from typing import Any, Dict, List, Optional, Sequence, Tuple

from fewshot_parser.common.safe_io import atomic_path
from fewshot_parser.data.examples import read_examples

logger = logging.getLogger(__name__)

Scores = Dict[Tuple[str, int, int], float]


def bar_chart(
    rows: Sequence[Tuple[str, List[Optional[float]]]],
    columns: Sequence[Tuple[str, int]],
    path: str,
    title: str = "Exact match (%), mean over shuffles 1-5",
) -> None:
    """Grouped bars: one group per (dataset, shot) column, one bar per row (missing cells left out)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width = 0.8 / max(1, len(rows))
    # The legend goes under the bars, so the plot keeps the figure's whole width however many rows.
    legend_rows = (len(rows) + 2) // 3
    figure, axes = plt.subplots(figsize=(max(9, 1.6 * len(columns) + 0.2 * len(rows)), 4.5 + 0.22 * legend_rows))
    colours = getattr(plt.get_cmap("tab20"), "colors")  # a ListedColormap's list
    for index, (label, values) in enumerate(rows):
        xs = [c + (index - (len(rows) - 1) / 2) * width for c in range(len(columns)) if values[c] is not None]
        ys = [v for v in values if v is not None]
        hatch = "//" if label.startswith("paper:") else None
        axes.bar(
            xs,
            ys,
            width,
            label=label,
            color=colours[index % len(colours)],
            hatch=hatch,
            edgecolor="black",
            linewidth=0.3,
        )
    axes.set_xticks(range(len(columns)))
    axes.set_xticklabels([f"{d} {k}-shot" for d, k in columns])
    axes.set_ylabel("exact match (%)")
    axes.set_title(title)
    axes.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.08), frameon=False)
    with atomic_path(path) as temporary:  # an existing figure is replaced only by a complete one
        figure.savefig(temporary, dpi=120, bbox_inches="tight")
    plt.close(figure)


def panel_chart(
    rows: Sequence[Tuple[str, Dict[Tuple[str, int], List[float]]]],
    paper: Dict[Tuple[str, int], float],
    columns: Sequence[Tuple[str, int]],
    path: str,
    title: str = (
        "Exact match (%), shuffles 1-5: bars are means, dots single shuffles, the line is the paper's ProtoParser"
    ),
) -> None:
    """
    Table 1 as one panel per (dataset, shot) column: a horizontal bar per row (its mean), a dot per
    shuffle so the spread shows, and the paper's ProtoParser number as a vertical line.
    `rows`: (label, column -> per-shuffle values), drawn top to bottom.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = len(columns)
    figure, axes_list = plt.subplots(2, (panels + 1) // 2, figsize=(15, 1.2 + 0.75 * len(rows) * 2), sharey=True)
    colours = getattr(plt.get_cmap("tab10"), "colors")  # a ListedColormap's list
    labels = [label for label, _ in rows]
    for index, ((dataset, shot), axes) in enumerate(zip(columns, axes_list.flat)):
        for position, (_, values) in enumerate(rows):
            points = values.get((dataset, shot), [])
            y = len(rows) - 1 - position
            if points:
                axes.barh(y, sum(points) / len(points), color=colours[position % len(colours)], alpha=0.75, height=0.7)
                axes.scatter(points, [y] * len(points), color="black", s=9, zorder=3)
                axes.text(sum(points) / len(points) + 0.8, y + 0.22, f"{sum(points) / len(points):.1f}", fontsize=7)
        if (dataset, shot) in paper:
            axes.axvline(paper[(dataset, shot)], color="crimson", linestyle="--", linewidth=1.2)
        axes.set_title(f"{dataset} {shot}-shot", fontsize=10)
        axes.set_xlim(
            0,
            100
            if max([max(v.get((dataset, shot), [0]) or [0]) for _, v in rows] + [paper.get((dataset, shot), 0)]) > 60
            else 70,
        )
        axes.grid(axis="x", linewidth=0.3)
        if index % axes_list.shape[1] == 0:
            axes.set_yticks(range(len(rows)))
            axes.set_yticklabels(list(reversed(labels)), fontsize=8)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    with atomic_path(path) as temporary:  # an existing figure is replaced only by a complete one
        figure.savefig(temporary, dpi=120, bbox_inches="tight")
    plt.close(figure)


def encoder_points(archive: str, utterances: Sequence[str], batch_size: int = 128):
    """Mean-pooled encoder states of `utterances` under the archived model: `(n, dim)` numpy array."""
    import torch
    from allennlp.data import Batch
    from allennlp.models.archival import load_archive

    loaded = load_archive(archive, cuda_device=-1)
    model: Any = loaded.model  # a ProtoParser, whose `encode` this uses
    reader = loaded.dataset_reader
    model.eval()
    chunks = []
    with torch.no_grad():
        for start in range(0, len(utterances), batch_size):
            instances = [reader.text_to_instance(u) for u in utterances[start : start + batch_size]]
            for instance in instances:
                reader.apply_token_indexers(instance)
            batch = Batch(instances)
            batch.index_instances(model.vocab)
            tensors = batch.as_tensor_dict()
            encoded, mask = model.encode(tensors["source_tokens"])
            weights = mask.unsqueeze(-1).float()
            chunks.append(((encoded * weights).sum(1) / weights.sum(1).clamp(min=1)).numpy())
    import numpy

    return numpy.concatenate(chunks)


def tsne_figure(
    archive: str,
    data_files: Dict[int, Dict[str, str]],
    scores: Scores,
    dataset: str,
    shot: int,
    path: str,
    seed: int = 13,
) -> Optional[str]:
    """
    The paper's Figure 1 for one dataset and shot: every query utterance of shuffles 1-5 in grey,
    the support sets of the best and the worst shuffle (by our exact match) highlighted.

    `data_files`: shuffle -> {"support": path, "query": path}. Returns a one-line caption, or None
    when there are not two scored shuffles to compare.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.manifold import TSNE

    scored = {s: v for (d, k, s), v in scores.items() if d == dataset and k == shot and s in data_files}
    if len(scored) < 2:
        return None
    best = max(sorted(scored), key=lambda s: scored[s])
    worst = min(sorted(scored), key=lambda s: scored[s])
    formalism = "prolog" if dataset == "jobs" else "lambda"

    def utterances(file: str) -> List[str]:
        return [" ".join(e.utterance) for e in read_examples(file, formalism, skip_invalid=True)]

    evaluation = sorted({u for s in scored for u in utterances(data_files[s]["query"])})
    supports = {s: utterances(data_files[s]["support"]) for s in (best, worst)}
    everything = evaluation + supports[best] + supports[worst]
    points = encoder_points(archive, everything)
    embedded = TSNE(
        n_components=2, random_state=seed, init="pca", perplexity=min(30.0, len(everything) / 4)
    ).fit_transform(points)
    figure, axes = plt.subplots(figsize=(6.5, 6))
    n = len(evaluation)
    axes.scatter(embedded[:n, 0], embedded[:n, 1], s=4, c="lightgrey", label=f"query utterances ({n})")
    offset = n
    for shuffle, marker, colour, name in ((best, "o", "tab:green", "best"), (worst, "X", "tab:red", "worst")):
        count = len(supports[shuffle])
        part = embedded[offset : offset + count]
        axes.scatter(
            part[:, 0],
            part[:, 1],
            s=40,
            marker=marker,
            c=colour,
            edgecolors="black",
            linewidths=0.4,
            label=f"support, {name} shuffle {shuffle} ({scored[shuffle]:.1f}%)",
        )
        offset += count
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_title(f"{dataset} {shot}-shot: encoder states after pre-training (t-SNE)")
    axes.legend(fontsize=8, loc="best")
    figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=120)
    plt.close(figure)
    return (
        f"{dataset} {shot}-shot, {n} query utterances; best shuffle {best} ({scored[best]:.2f}%), "
        f"worst shuffle {worst} ({scored[worst]:.2f}%)"
    )
