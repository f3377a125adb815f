"""Lexical-artifact statistics benchmark (SPEC-bias §1-§3) on SNLI-sized synthetic data.

    .venv/bin/python benchmarks/lexical_stats.py [--n 550000] [--eval-n 10000] [--steps 3000]
        [--quick] [--out PATH] [--json]

Builds a synthetic NLI-like dataset (``--n`` premise/hypothesis pairs, a Zipf vocabulary whose
most frequent words are the NLTK stop words, 3 labels, label-specific artifact words in the
hypotheses, punctuation and capitals to strip; like SNLI, every premise has one hypothesis per
label) and an evaluation split with the predictions of a "biased model". In one run it

(a) times the vectorised statistics of :mod:`mlcore`: unigram features, z-scores, top-50
    selection, evaluation features and the permutation test (bigram features separately);
(b) times the reweighting of §3 on all unigrams in >= 100 instances (about 4k features),
    Adam for up to ``--steps`` steps, and the bigram check;
(c) runs a straightforward pure-Python implementation (dicts and loops, below) of (a) and of
    a few Adam steps of (b) on a subsample, checks it gives the same numbers as mlcore on that
    subsample, and prints the speed ratios per instance (per instance-step for reweighting).

Times are printed as wall-clock and as process CPU time. The tokenizer and matrix kernels run in
``--threads`` threads (1, mlcore's default); the unigram features are also timed once with every
CPU for comparison. On a shared machine the wall clock mostly measures the other processes. The ratios compare mlcore at full size with pure Python on the subsample.

``--quick`` (tests/test_benchmark_lexical_stats.py) runs the same code on 20,000 training pairs,
2,000 evaluation pairs, 50 Adam steps and a 2,000-instance subsample: seconds, and the same
cross-checks against the pure-Python version. The headline figures go to
``benchmarks/out/lexical_stats.json`` (``--out PATH`` elsewhere; ``--json`` also prints them on
stdout, and the report then goes to stderr). Keys (stable):

* ``quick`` (bool), ``n``, ``eval_n``, ``vocab``, ``threads``, ``subsample`` (ints): what was run;
* ``statistics``: ``{"wall_s", "cpu_s", "us_per_instance"}``, mlcore's features, z-scores,
  selection and permutation test over train + eval (wall-clock microseconds per instance);
* ``reweighting``: ``{"features", "steps", "wall_s", "cpu_s", "ms_per_step", "err_initial",
  "err_final"}``, §3 on every unigram in >= 100 instances;
* ``ratios``: ``{"statistics_wall", "statistics_cpu", "reweighting_wall", "reweighting_cpu"}``,
  pure-Python time / mlcore time per instance (per instance-step for reweighting);
* ``checks_passed`` (bool): pure Python and mlcore gave the same numbers (the run fails otherwise).
"""
from __future__ import annotations

import argparse
import contextlib
import math
import sys
import time
import unicodedata
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmark_output import emit_result

from mlcore import threads
from mlcore.bias.lexical import lexical_features, lexical_tokens
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import lexical_bias_test
from mlcore.bias.reweighting import bigram_balance_check, reweight, reweighting_features
from mlcore.bias.stopwords import NLTK_ENGLISH_STOPWORDS, STOP_WORDS

LABELS = ("entailment", "neutral", "contradiction")


# ----------------------------------------------------------------------------- synthetic data
def make_vocabulary(rng: np.random.Generator, size: int) -> np.ndarray:
    """Stop words first (they are the most frequent words in real text), then random words."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = dict.fromkeys(NLTK_ENGLISH_STOPWORDS)
    while len(words) < size:
        for length in rng.integers(3, 10, size=size):
            words.setdefault("".join(rng.choice(letters, size=length)), None)
    return np.array(list(words)[:size], dtype=object)


def make_split(rng: np.random.Generator, vocab: np.ndarray, n: int, artifacts: np.ndarray):
    """SNLI-shaped pairs: each premise gets one hypothesis per label (the last premise maybe fewer).

    Premises and hypotheses follow a Zipf distribution, but 12% of the hypothesis tokens are
    artifact words of the pair's label.
    """
    ranks = np.arange(1, len(vocab) + 1)
    p = 1.0 / (ranks + 2.7) ** 1.3  # steep enough that ~4k types reach 100 instances at n=550k
    p /= p.sum()
    n_premises = -(-n // len(LABELS))
    labels = np.concatenate([rng.permutation(len(LABELS)) for _ in range(n_premises)])[:n]
    texts = []
    for count, mean, owner_labels in ((n_premises, 12, None), (n, 6, labels)):
        lengths = rng.poisson(mean, size=count) + 2
        ids = rng.choice(len(vocab), size=lengths.sum(), p=p)
        if owner_labels is not None:
            owner = np.repeat(owner_labels, lengths)
            swap = rng.random(len(ids)) < 0.12
            ids[swap] = artifacts[owner[swap], rng.integers(0, artifacts.shape[1], size=swap.sum())]
        tokens = vocab[ids]
        comma = rng.random(len(tokens)) < 0.03
        tokens[comma] = tokens[comma] + ","
        bounds = np.concatenate(([0], np.cumsum(lengths)))
        texts.append([" ".join(tokens[lo:hi]).capitalize() + "." for lo, hi in zip(bounds[:-1], bounds[1:])])
    premises = [texts[0][i // len(LABELS)] for i in range(n)]
    return premises, texts[1], [LABELS[j] for j in labels], labels


def biased_predictions(rng: np.random.Generator, hypotheses: list[str], gold: np.ndarray, artifact_sets) -> list[str]:
    """Right 88% of the time, but follows an artifact word of another label half the time."""
    pred = np.where(rng.random(len(gold)) < 0.88, gold, rng.integers(0, len(LABELS), size=len(gold)))
    for i, text in enumerate(hypotheses):
        words = set(text.lower().replace(",", "").replace(".", "").split())
        for label, artifacts in enumerate(artifact_sets):
            if label != gold[i] and words & artifacts and rng.random() < 0.5:
                pred[i] = label
    return [LABELS[j] for j in pred]


# ----------------------------------------------------------------------------- straightforward version
def py_tokens(text: str) -> list[str]:
    out = []
    for raw in text.lower().split():
        token = "".join(ch for ch in raw if not unicodedata.category(ch).startswith("P"))
        if token:
            out.append(token)
    return out


def py_statistics(train, evaluation, k: int = 50) -> dict:
    """SPEC §1-§2 with dicts and loops."""
    first, second, labels = train
    n_w: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    for a, b, y in zip(first, second, labels):
        for w in set(py_tokens(a)) | set(py_tokens(b)):
            n_w[w] = n_w.get(w, 0) + 1
            counts.setdefault(w, dict.fromkeys(LABELS, 0))[y] += 1
    p0 = 1.0 / len(LABELS)
    z = {w: {y: (counts[w][y] / n - p0) / math.sqrt(p0 * (1 - p0) / n) for y in LABELS} for w, n in n_w.items()}
    per_label = {}
    for y in LABELS:
        eligible = [w for w in n_w if w not in STOP_WORDS and z[w][y] > 0]
        eligible.sort(key=lambda w: (-round(z[w][y], 9), -n_w[w], w))
        per_label[y] = eligible[:k]
    selected = sorted({w for words in per_label.values() for w in words})
    usual = {w: {y for y in LABELS if counts[w][y] == max(counts[w].values())} for w in selected}
    in_u, in_n, correct = [], [], []
    selected_set = set(selected)
    for a, b, gold, pred in zip(*evaluation):
        present = (set(py_tokens(a)) | set(py_tokens(b))) & selected_set
        in_u.append(any(gold in usual[w] for w in present))
        in_n.append(any(gold not in usual[w] for w in present))
        correct.append(gold == pred)
    n_u, n_n = sum(in_u), sum(in_n)
    a = sum(c and u for c, u in zip(correct, in_u))
    b = sum(c and m for c, m in zip(correct, in_n))
    big_m, big_k = n_u + n_n, a + b

    def log_comb(n: int, r: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)

    terms = [log_comb(big_k, x) + log_comb(big_m - big_k, n_u - x) - log_comb(big_m, n_u)
             for x in range(a, min(big_k, n_u) + 1) if n_u - x <= big_m - big_k]
    top = max(terms)
    log10_p = (top + math.log(sum(math.exp(t - top) for t in terms))) / math.log(10)
    return {"n_w": n_w, "counts": counts, "z": z, "per_label": per_label, "n_U": n_u, "n_N": n_n,
            "a": a, "b": b, "log10_pvalue": log10_p}


def py_reweight(instances: list[list[int]], y: list[int], n_features: int, steps: int, lr: float = 0.05):
    """Adam on softmax weights, every sum written out (SPEC §3.3)."""
    n, n_labels, target = len(y), len(LABELS), 1.0 / len(LABELS)
    theta, m, v = [0.0] * n, [0.0] * n, [0.0] * n
    best_loss, best_q = math.inf, None
    for step in range(steps + 1):
        top = max(theta)
        e = [math.exp(t - top) for t in theta]
        total = sum(e)
        q = [x / total for x in e]
        mass = [[0.0] * n_labels for _ in range(n_features)]
        for i, feats in enumerate(instances):
            for w in feats:
                mass[w][y[i]] += q[i]
        loss, h = 0.0, []
        for w in range(n_features):
            d = sum(mass[w])
            share = [c / d for c in mass[w]]
            loss += sum((s - target) ** 2 for s in share)
            g = [2 * (s - target) for s in share]
            correction = sum(gy * s for gy, s in zip(g, share))
            h.append([(gy - correction) / d for gy in g])
        grad_q = [sum(h[w][y[i]] for w in feats) for i, feats in enumerate(instances)]
        dot = sum(qi * gi for qi, gi in zip(q, grad_q))
        grad = [qi * (gi - dot) for qi, gi in zip(q, grad_q)]
        if loss < best_loss:
            best_loss, best_q = loss, q
        if step == steps:
            break
        for i in range(n):
            m[i] = 0.9 * m[i] + 0.1 * grad[i]
            v[i] = 0.999 * v[i] + 0.001 * grad[i] ** 2
            m_hat, v_hat = m[i] / (1 - 0.9 ** (step + 1)), v[i] / (1 - 0.999 ** (step + 1))
            theta[i] -= lr * m_hat / (math.sqrt(v_hat) + 1e-8)
    return best_q, best_loss


# ----------------------------------------------------------------------------- mlcore version
class Clock:
    """Wall-clock and process CPU time (all threads) of a block. On a busy machine wall time mostly
    measures the other processes; CPU time does not."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def mlcore_statistics(train, evaluation, k: int = 50) -> tuple[dict, dict]:
    first, second, labels = train
    timings = {}
    t = time.perf_counter()
    features = lexical_features(first, second)
    timings["unigram features"] = time.perf_counter() - t
    t = time.perf_counter()
    zscores = lexical_zscores(features, labels, label_set=LABELS)
    timings["z-scores"] = time.perf_counter() - t
    t = time.perf_counter()
    selection = select_top_features(zscores, k=k)
    timings["top-k selection"] = time.perf_counter() - t
    t = time.perf_counter()
    eval_features = lexical_features(evaluation[0], evaluation[1], vocabulary=selection.features)
    result = lexical_bias_test(eval_features, evaluation[2], evaluation[3], zscores=zscores, selection=selection)
    timings["evaluation features + permutation test"] = time.perf_counter() - t
    return {"features": features, "zscores": zscores, "selection": selection, "test": result}, timings


def check_same(py: dict, ml: dict) -> None:
    zs, sel, test = ml["zscores"], ml["selection"], ml["test"]
    assert set(py["n_w"]) == set(zs.vocabulary), "vocabularies differ"
    for w, row in zs.row.items():
        assert py["n_w"][w] == zs.n[row] and [py["counts"][w][y] for y in LABELS] == zs.counts[row].tolist(), w
        assert np.allclose([py["z"][w][y] for y in LABELS], zs.statistic[row], rtol=0, atol=1e-9), w
    assert {y: tuple(ws) for y, ws in py["per_label"].items()} == dict(sel.per_label), "selections differ"
    assert (py["n_U"], py["n_N"], py["a"], py["b"]) == (test.n_U, test.n_N, test.a, test.b), "U/N counts differ"
    assert abs(py["log10_pvalue"] - test.log10_pvalue) < 1e-8, (py["log10_pvalue"], test.log10_pvalue)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=550_000, help="training pairs (SNLI train: 549,367)")
    parser.add_argument("--eval-n", type=int, default=10_000, help="evaluation pairs (SNLI test: 9,824)")
    parser.add_argument("--vocab", type=int, default=40_000, help="word types (SNLI train: ~37k)")
    parser.add_argument("--steps", type=int, default=3000, help="Adam step budget for the full reweighting")
    parser.add_argument("--subsample", type=int, default=20_000, help="instances for the pure-Python comparison")
    parser.add_argument("--py-steps", type=int, default=3, help="Adam steps of the pure-Python reweighting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="threads of the lexical kernels (mlcore.threads)")
    parser.add_argument("--quick", action="store_true", help="Tiny sizes, same code path and checks (seconds)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "lexical_stats.json",
                        help="Where to write the JSON (default benchmarks/out/lexical_stats.json)")
    parser.add_argument("--json", action="store_true", help="Print the JSON on stdout (the report goes to stderr)")
    args = parser.parse_args()
    if args.quick:
        args.n, args.eval_n, args.steps, args.subsample, args.py_steps = 20_000, 2_000, 50, 2_000, 2
    with contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext():
        result = run(args)
    emit_result(result, args.out, as_json=args.json)


def run(args: argparse.Namespace) -> dict:
    """The three parts of the benchmark, reported as they run; returns the headline figures."""

    rng = np.random.default_rng(args.seed)
    t = time.perf_counter()
    vocab = make_vocabulary(rng, args.vocab)
    artifacts = rng.choice(np.arange(300, min(20_000, args.vocab)), size=(len(LABELS), 150), replace=False)
    first, second, labels, _ = make_split(rng, vocab, args.n, artifacts)
    e_first, e_second, gold, gold_idx = make_split(rng, vocab, args.eval_n, artifacts)
    pred = biased_predictions(rng, e_second, gold_idx, [set(vocab[a]) for a in artifacts])
    print(f"synthetic data: {args.n:,} training + {args.eval_n:,} evaluation pairs, "
          f"{sum(map(len, first)) + sum(map(len, second)):,} training characters "
          f"({time.perf_counter() - t:.1f} s to generate)\n")

    print("== (a) statistics, mlcore (compiled kernels + numpy/scipy) ==")
    t = time.perf_counter()
    lexical_tokens("warm-up")  # builds the Unicode punctuation table, once per process
    # numba compiles the tokenizer and matrix kernels on first use (or loads them from its disk cache).
    lexical_features(["warm-up"], ["text"])
    print(f"  one-time punctuation table and kernel compilation (not counted below)  {time.perf_counter() - t:5.2f} s")
    threads.set_max_threads(args.threads)
    print(f"  threads: up to {threads.MAX_THREADS} (--threads; mlcore.threads.set_max_threads); CPU time sums all threads")
    with Clock() as stats_clock:
        ml, timings = mlcore_statistics((first, second, labels), (e_first, e_second, gold, pred))
    for name, seconds in timings.items():
        print(f"  {name:<42s} {seconds:7.2f} s")
    n_stats = args.n + args.eval_n
    print(f"  {'total':<42s} {stats_clock.wall:7.2f} s wall, {stats_clock.cpu:.2f} s CPU "
          f"({stats_clock.wall / n_stats * 1e6:.2f} / {stats_clock.cpu / n_stats * 1e6:.2f} µs per instance, train + eval)")
    features, test = ml["features"], ml["test"]
    print(f"  vocabulary {len(features.vocabulary):,} types, {features.matrix.nnz:,} non-zeros; |S| = "
          f"{len(ml['selection'])}, {test.n_features_seen_in_eval} seen in evaluation")
    print(f"  test: n_U={test.n_U} n_N={test.n_N} overlap={test.n_overlap} a={test.a} b={test.b} "
          f"acc_U={test.acc_U:.4f} acc_N={test.acc_N:.4f} p={test.pvalue_display()}")
    cpus = threads.available_cpus()
    if cpus != args.threads:  # the same features split over every CPU, for comparison
        threads.set_max_threads(cpus)
        with Clock() as threads_clock:
            lexical_features(first, second)
        threads.set_max_threads(args.threads)
        print(f"  unigram features with {cpus} threads instead (comparison): {threads_clock.wall:.2f} s wall, "
              f"{threads_clock.cpu:.2f} s CPU")
    t = time.perf_counter()
    bigrams = lexical_features(first, second, ngram=2)
    bigram_seconds = time.perf_counter() - t
    print(f"  bigram features (separately): {bigram_seconds:.2f} s, {len(bigrams.vocabulary):,} bigram types\n")

    print("== (b) reweighting, mlcore ==")
    with Clock() as rw_clock:
        rw = reweight(features, labels, label_set=LABELS, min_count=100, max_steps=args.steps)
    steps_done = rw.n_steps + 1  # set-up included; n_steps updates = n_steps + 1 gradients
    print(f"  |F_R| = {len(rw.features_used):,} features (dropped: {len(rw.features_dropped)}), "
          f"{rw.n_steps} Adam steps in {rw_clock.wall:.1f} s wall, {rw_clock.cpu:.1f} s CPU "
          f"({rw_clock.wall / steps_done * 1e3:.1f} ms per step)")
    print(f"  Err {rw.err_initial:.4f} -> {rw.err_final:.4f}; Err_marg {rw.err_marg_initial:.4f} -> "
          f"{rw.err_marg_final:.4f}; loss {rw.loss_initial:.3g} -> {rw.loss_final:.3g}; "
          f"ESS {rw.ess:,.0f}; max weight {rw.max_weight:.2f}")
    t = time.perf_counter()
    check = bigram_balance_check(bigrams, labels, rw.q, label_set=LABELS, m=200, rng=args.seed)
    print(f"  bigram check ({time.perf_counter() - t:.2f} s): mean LB {check.mean_lb_uniform:.4f} -> "
          f"{check.mean_lb_q:.4f} over {len(check.sample)} of {check.n_eligible:,} eligible bigrams; "
          f"worsened={check.worsened}\n")

    sub = args.subsample
    print(f"== (c) straightforward pure-Python version on the first {sub:,} training instances ==")
    train_sub = (first[:sub], second[:sub], labels[:sub])
    evaluation = (e_first, e_second, gold, pred)
    with Clock() as py_clock:
        py = py_statistics(train_sub, evaluation)
    with Clock() as ml_sub_clock:
        ml_sub, _ = mlcore_statistics(train_sub, evaluation)
    check_same(py, ml_sub)
    print(f"  statistics: pure Python {py_clock.wall:.2f} s, mlcore {ml_sub_clock.wall:.2f} s on the same data; "
          f"same counts, z (1e-9), selection, U/N and log10 p (1e-8): OK")
    n_py = sub + args.eval_n
    stats_ratio = (py_clock.wall / n_py) / (stats_clock.wall / n_stats)
    stats_ratio_cpu = (py_clock.cpu / n_py) / (stats_clock.cpu / n_stats)
    print(f"  per instance (train + eval): pure Python {py_clock.wall / n_py * 1e6:.1f} µs wall / "
          f"{py_clock.cpu / n_py * 1e6:.1f} µs CPU, mlcore at n={args.n:,} {stats_clock.wall / n_stats * 1e6:.2f} / "
          f"{stats_clock.cpu / n_stats * 1e6:.2f} µs -> speed ratio {stats_ratio:.1f}x wall, {stats_ratio_cpu:.1f}x CPU "
          f"({py_clock.wall / ml_sub_clock.wall:.1f}x on the subsample itself)")

    sub_features = ml_sub["features"]
    min_count = max(2, round(100 * sub / args.n))
    fset = reweighting_features(sub_features, labels[:sub], label_set=LABELS, min_count=min_count)
    column_of = {j: k for k, j in enumerate(fset.columns.tolist())}
    csr = sub_features.matrix
    instances = [[column_of[j] for j in csr.indices[csr.indptr[i]:csr.indptr[i + 1]] if j in column_of]
                 for i in range(sub)]
    y = [LABELS.index(label) for label in labels[:sub]]
    with Clock() as py_rw_clock:
        py_q, py_loss = py_reweight(instances, y, len(fset.columns), args.py_steps)
    with Clock() as ml_rw_clock:
        ml_rw = reweight(sub_features, labels[:sub], label_set=LABELS, min_count=min_count, max_steps=args.py_steps, tol=0)
    assert np.allclose(py_q, ml_rw.q, rtol=1e-9, atol=0) and math.isclose(py_loss, ml_rw.loss_final, rel_tol=1e-9)
    py_unit = (args.py_steps + 1) * sub  # same convention as steps_done
    rw_ratio = (py_rw_clock.wall / py_unit) / (rw_clock.wall / steps_done / args.n)
    rw_ratio_cpu = (py_rw_clock.cpu / py_unit) / (rw_clock.cpu / steps_done / args.n)
    print(f"  reweighting: {args.py_steps} Adam steps over {len(fset.columns):,} features (min_count {min_count}): "
          f"pure Python {py_rw_clock.wall:.2f} s, mlcore {ml_rw_clock.wall:.2f} s; same q (1e-9) and loss: OK")
    print(f"  per instance-step: pure Python {py_rw_clock.wall / py_unit * 1e6:.2f} µs, mlcore "
          f"{rw_clock.wall / steps_done / args.n * 1e6:.3f} µs at n={args.n:,} -> speed ratio {rw_ratio:.0f}x wall, "
          f"{rw_ratio_cpu:.0f}x CPU")
    print(f"\nsummary: statistics {stats_clock.wall:.1f} s (aim < 20 s), reweighting {rw_clock.wall / 60:.1f} min "
          f"(aim < 5 min), speed ratios {stats_ratio:.1f}x wall / {stats_ratio_cpu:.1f}x CPU (statistics) and "
          f"{rw_ratio:.0f}x wall / {rw_ratio_cpu:.0f}x CPU (reweighting step)")
    return {
        "quick": args.quick, "n": args.n, "eval_n": args.eval_n, "vocab": args.vocab, "threads": args.threads,
        "subsample": sub,
        "statistics": {"wall_s": stats_clock.wall, "cpu_s": stats_clock.cpu,
                       "us_per_instance": stats_clock.wall / n_stats * 1e6},
        "reweighting": {"features": len(rw.features_used), "steps": rw.n_steps, "wall_s": rw_clock.wall,
                        "cpu_s": rw_clock.cpu, "ms_per_step": rw_clock.wall / steps_done * 1e3,
                        "err_initial": rw.err_initial, "err_final": rw.err_final},
        "ratios": {"statistics_wall": stats_ratio, "statistics_cpu": stats_ratio_cpu, "reweighting_wall": rw_ratio,
                   "reweighting_cpu": rw_ratio_cpu},
        "checks_passed": True,  # check_same and the reweighting asserts above raise otherwise
    }


if __name__ == "__main__":
    main()
