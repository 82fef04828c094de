"""`boolrules solve`: solve one depth-one problem on the training rows of a stratified split, on a
backend (`DepthOneClassifier`)."""

from __future__ import annotations

import math
import time

from ..metrics import score_counts
from .backend import configured_backend, running
from .data import depth_one_classifier, load_data, resolve_caps, split
from .report import Steps, data_info, data_lines, held_out_score, print_json, rows_text, split_info

__all__ = ["run"]


def run(args) -> int:
    """`boolrules solve`: solve the depth-one problem of the training rows and print the rule, the
    solver's status and bounds, the scores and the time."""
    backend = configured_backend(args.backend, args.config, args.seed, args.time_limit, polish=args.polish)
    resolve_caps(args, args.config if args.config is not None else args.backend)
    with Steps(args, 3) as step:
        step("loading data")
        data = load_data(args)
        X_train, X_test, y_train, y_test = split(data, args)
        clf = depth_one_classifier(args, data, backend)
        step(f"building and solving the model with {backend.name}")
        start = time.perf_counter()
        with running(f"backend {backend.name!r}"):
            clf.fit(X_train, y_train)
        seconds = time.perf_counter() - start
        step("scoring the rule")
        r = clf.result_
        result = {
            **data_info(data, args),
            **split_info(args, len(y_train), len(y_test), min(len(y_train), args.max_samples or len(y_train))),
            "operator": ("~" if args.negated else "") + args.operator,
            "min_num_literals": args.min_num_literals,
            "max_num_literals": args.max_num_literals,
            "max_features": args.max_features,
            "lam": args.lam,
            "backend": backend.name,
            "backend_options": {k: v for k, v in backend.options().items()
                                if v is None or isinstance(v, (bool, int, float, str, dict))},
            "rule": r.rule.to_str(clf.feature_names_),  # the depth-one problem's answer, in its operator
            "rule_indices": str(r.rule),
            "num_literals": len(r.rule.literals()),
            "status": r.status,
            "objective": r.objective,
            "bound": r.bound,
            "gap": r.gap,
            "message": r.message,
            "stage": r.stage,
            "stages": {name: stage.to_dict(clf.feature_names_) for name, stage in r.stages.items()},
            "timing": r.timing,
            "solver_info": r.info,
            "train_balanced_accuracy": score_counts("balanced_accuracy", y_train, clf.predict(X_train)),
            "test_balanced_accuracy": (score_counts("balanced_accuracy", y_test, clf.predict(X_test))
                                       if len(y_test) else None),  # --test-size 0: no test rows
            "seconds": seconds,
            "solver_seconds": r.seconds,
        }
    if args.json:
        print_json(result)
        return 0
    print("\n".join(data_lines(data, args, f"{result['train_rows']} train, {result['test_rows']} test")))
    print(f"rows:       the problem takes {rows_text(result)}")
    kept = "" if args.max_features is None else f", on the {args.max_features} best features by {args.feature_score}"
    print(f"problem:    {result['operator']} with {args.min_num_literals}..{args.max_num_literals} literals, "
          f"λ = {args.lam:g}{kept}")
    print(f"backend:    {backend.name}")
    print(f"rule:       {result['rule']}")
    detail = f" ({r.message})" if r.message and r.message.lower() != r.status.replace("_", " ") else ""
    print(f"status:     {r.status}{detail}")
    proof = [f"bound {r.bound:.6g}"] if r.bound is not None and math.isfinite(r.bound) else []
    proof += [f"gap {100 * r.gap:.2f}%"] if r.gap is not None else []
    print(f"objective:  {r.objective:.6g}" + (f" ({', '.join(proof)})" if proof else "")
          + "  (weighted errors + λ × literals on the problem's rows)")
    print(f"balanced accuracy: train {result['train_balanced_accuracy']:.4f}, "
          f"test {held_out_score(result['test_balanced_accuracy'])}")
    steps = "".join(f", {step} {s:.2f}" for step, s in r.timing.items())
    print(f"time:       {seconds:.2f} s (solver {r.seconds:.2f} s{steps})")
    return 0
