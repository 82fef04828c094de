"""`boolrules fit`: learn a rule with the native search (`RuleClassifier`) on a stratified split."""

from __future__ import annotations

import time
from contextlib import nullcontext

from ..datasets import Dataset
from ..localsearch import RuleClassifier
from ..localsearch.classifier import auto_moves, builds_within, configured_max_samples
from ..metrics import score_counts
from .backend import configured_backend, running
from .data import binarizer, load_data, split
from .errors import UsageError
from .report import data_info, data_lines, held_out_score, print_json, show_progress, split_info

__all__ = ["fitted", "run"]


def nonlocal_shapes(names: list[str], operators: tuple[str, ...], backend, policy: str) -> tuple:
    """The moves of `--nonlocal-shapes` besides the operators: the named ones, none for "none", or for
    "auto" (the default) the classifier's `nonlocal_operators="auto"` ones on this backend and policy
    that build operators among `operators` (a shape both of its own, "keep" And or Or)."""
    if "auto" in names or "none" in names:
        if len(names) > 1:
            raise UsageError(f"--nonlocal-shapes: {' '.join(names)}: auto and none stand alone")
        return tuple(move for move in auto_moves(backend, policy) if names == ["auto"]
                     and builds_within(move, operators))
    return tuple(dict.fromkeys(names))


def fitted(args, data: Dataset):
    """`RuleClassifier` fitted with the search options of `fit` on the training split of `data`:
    the classifier, the split, the non-local backend (or None) and the seconds it took."""
    backend = None
    if args.nonlocal_backend is not None or args.config is not None:
        backend = configured_backend(args.nonlocal_backend, args.config, args.seed, option="--nonlocal-backend",
                                     polish=args.polish)
    elif not args.polish:
        raise UsageError("--no-polish applies to a QUBO sampler backend: give --nonlocal-backend or --config")
    X_train, X_test, y_train, y_test = split(data, args)
    operators = tuple(dict.fromkeys(args.operators))
    clf = RuleClassifier(
        binarizer=binarizer(data, args),
        max_complexity=args.max_complexity,
        max_depth=args.max_depth,
        operators=operators,
        num_starts=args.num_starts,
        num_iterations=args.num_iterations,
        time_budget=args.time_budget,
        lam=args.lam,
        metric=args.metric,
        n_jobs=args.n_jobs,
        random_state=args.seed,
        verbose=show_progress(args),
        nonlocal_backend=backend,
        nonlocal_operators=operators + nonlocal_shapes(args.nonlocal_shapes, operators, backend, args.nonlocal_policy),
        max_samples=configured_max_samples(args.max_samples, args.config or args.nonlocal_backend),
        nonlocal_time_limit=args.nonlocal_time_limit,
        nonlocal_time_share=args.nonlocal_time_share,
        nonlocal_policy=args.nonlocal_policy,
        scan_moves=args.scan_moves,
        quench=args.quench,
    )
    start = time.perf_counter()
    with running(f"non-local backend {backend.name!r}") if backend is not None else nullcontext():
        clf.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    return clf, (X_train, X_test, y_train, y_test), backend, seconds


def run(args) -> int:
    """`boolrules fit`: learn a rule on the training split and print it with its scores and time."""
    data = load_data(args)
    clf, (X_train, X_test, y_train, y_test), backend, seconds = fitted(args, data)
    held_out = len(y_test) > 0  # --test-size 0 holds no rows out: no test scores
    result = {
        **data_info(data, args),
        **split_info(args, len(y_train), len(y_test)),
        "rule": clf.rule_text_,
        "rule_indices": str(clf.rule_),
        "complexity": clf.rule_.complexity,
        "search_rule": clf.best_rule_.to_str(clf.feature_names_),
        "search_complexity": clf.best_rule_.complexity,
        "train_balanced_accuracy": score_counts("balanced_accuracy", y_train, clf.predict(X_train)),
        "test_balanced_accuracy": score_counts("balanced_accuracy", y_test, clf.predict(X_test)) if held_out else None,
        "metric": args.metric,
        "train_score": clf.score(X_train, y_train),
        "test_score": clf.score(X_test, y_test) if held_out else None,
        "seconds": seconds,
        "time_budget": args.time_budget,
        "iterations": clf.n_iter_,
        "quench_steps": [start.quench_steps for start in clf.starts_],
    }
    if clf.nonlocal_stats_ is not None:
        stats = clf.nonlocal_stats_
        result["nonlocal"] = {"backend": backend.name, "calls": stats.calls, "proposed": stats.proposed,
                              "failed": stats.failed, "solved": stats.solved, "raw_feasible": stats.raw_feasible,
                              "moves_by_stage": stats.moves_by_stage}
    if args.describe:
        result["description"] = clf.rule_description_
    if args.json:
        print_json(result)
        return 0
    print("\n".join(data_lines(data, args, f"{result['train_rows']} train, {result['test_rows']} test; binarized on "
                                           "the training rows")))
    print(f"rule:       {result['rule']}")
    print(f"complexity: {result['complexity']}")
    if result["search_rule"] != result["rule"]:
        print(f"as found:   {result['search_rule']} (complexity {result['search_complexity']}; "
              "the rule above is its canonical form, with the same predictions)")
    if args.describe:
        print("in words:\n" + "\n".join("  " + line for line in result["description"].splitlines()))
    print(f"balanced accuracy: train {result['train_balanced_accuracy']:.4f}, "
          f"test {held_out_score(result['test_balanced_accuracy'])}")
    if args.metric != "balanced_accuracy":
        print(f"{args.metric}: train {result['train_score']:.4f}, test {held_out_score(result['test_score'])}")
    print(f"time:       {seconds:.2f} s ({_effort(args, clf.n_iter_)})")
    if "nonlocal" in result:
        nonlocal_ = result["nonlocal"]
        print(f"non-local:  {nonlocal_['calls']} oracle calls to {nonlocal_['backend']}, {nonlocal_['proposed']} "
              f"moves proposed, {nonlocal_['failed']} failed")
        stages = ", ".join(f"{count} {stage}" for stage, count in nonlocal_["moves_by_stage"].items())
        print(f"            the solver's own answer valid in {nonlocal_['raw_feasible']} of {nonlocal_['solved']} "
              f"answered calls; moves by the stage that made them: {stages or 'none'}")
    return 0


def _effort(args, iterations) -> str:
    """The search effort: starts x iterations, or with a time budget the iterations the starts ran."""
    if args.time_budget is None:
        return f"{args.num_starts} starts x {args.num_iterations} iterations"
    low, high = int(iterations.min()), int(iterations.max())
    ran = f"{low}" if low == high else f"{low} to {high}"
    cap = "" if args.num_iterations is None else f" of at most {args.num_iterations}"
    return f"budget {args.time_budget:g} s; {args.num_starts} starts ran {ran} iterations{cap}"
