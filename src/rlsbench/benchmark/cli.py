"""Command-line entry point ``rlsbench``.

Subcommand groups register themselves in :data:`COMMANDS` (name -> function adding a subparser);
each subparser sets ``func`` to the handler taking the parsed namespace and returning an exit code.
Adding a group later = one function and one line in :data:`COMMANDS`.

``rlsbench datasets list | info NAME | fetch NAME`` serve people who want a dataset without the
workflow; ``rlsbench datasets download | prepare`` are what the Snakemake rules run.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys


def _registry(args):
    from rlsbench.benchmark.datasets import load_registry

    return load_registry(args.registry)


def _network_options(parser) -> None:
    from rlsbench.benchmark.datasets import DEFAULT_BACKOFF, DEFAULT_RETRIES, DEFAULT_TIMEOUT

    parser.add_argument(
        "--mirror",
        action="append",
        default=[],
        metavar="URL_OR_PATH",
        help="mirror base (http://, file:// or a path relative to the repository "
        "root), laid out like shared/datasets/; repeatable, tried in order "
        "before the upstream URLs",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="seconds per network operation (default %(default)s)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=DEFAULT_RETRIES,
        help="attempts per URL for transient failures (default %(default)s)",
    )
    parser.add_argument(
        "--backoff",
        type=float,
        default=DEFAULT_BACKOFF,
        help="first wait between attempts in seconds, doubling (default %(default)s)",
    )


def _datasets_list(args) -> int:
    registry = _registry(args)
    rows = [("name", "task", "format", "n_samples", "n_features", "source")]
    for name, spec in registry.items():
        source = (
            "mirror/upstream"
            if any(f.upstream for f in spec.files)
            else "mirror only"
            if spec.files
            else spec.format
        )
        rows.append(
            (
                name,
                spec.task,
                spec.format,
                str(spec.expected["n_samples"]),
                str(spec.expected["n_features"]),
                source,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return 0


def _datasets_info(args) -> int:
    spec = _registry(args).get_spec(args.name)
    print(json.dumps(spec.to_dict(), indent=2, default=str))
    return 0


def _datasets_fetch(args) -> int:
    from rlsbench.benchmark.datasets import fetch, load_prepared

    path = fetch(
        args.name,
        cache_dir=args.cache_dir,
        mirrors=args.mirror,
        registry=_registry(args),
        timeout=args.timeout,
        retries=args.retries,
        backoff=args.backoff,
        force=args.force,
    )
    dataset = load_prepared(path)
    print(
        f"{dataset.name}: {dataset.task}, X {dataset.X.shape[0]} x {dataset.X.shape[1]}, "
        f"classes {dataset.class_counts() or '-'}",
        file=sys.stderr,
    )
    print(path)
    return 0


def _datasets_download(args) -> int:
    from rlsbench.benchmark.datasets import download

    spec = _registry(args).get_spec(args.name)
    print(
        download(
            spec,
            args.raw_dir,
            mirrors=args.mirror,
            root=args.root or _root(),
            timeout=args.timeout,
            retries=args.retries,
            backoff=args.backoff,
        )
    )
    return 0


def _datasets_prepare(args) -> int:
    from rlsbench.benchmark.datasets import prepare

    spec = _registry(args).get_spec(args.name)
    dataset = prepare(spec, args.raw_dir, args.output)
    print(
        f"{dataset.name}: X {dataset.X.shape}, class counts {dataset.class_counts() or '-'} "
        f"-> {args.output}"
    )
    return 0


def _root():
    from rlsbench.benchmark.datasets import REPO_ROOT

    return REPO_ROOT


def add_datasets_commands(subparsers) -> None:
    parser = subparsers.add_parser(
        "datasets",
        help="benchmark datasets: list, inspect, fetch",
        description="Benchmark datasets (registry config/datasets.yaml).",
    )
    parser.add_argument(
        "--registry",
        default=None,
        help="registry YAML (default: the repository's config/datasets.yaml)",
    )
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = sub.add_parser("list", help="one line per registry dataset")
    p.set_defaults(func=_datasets_list)

    p = sub.add_parser("info", help="the registry entry of NAME (JSON)")
    p.add_argument("name")
    p.set_defaults(func=_datasets_info)

    p = sub.add_parser(
        "fetch",
        help="download (mirrors, then upstream), verify and prepare NAME "
        "into a cache; prints the prepared .npz path",
    )
    p.add_argument("name")
    p.add_argument("--cache-dir", default=None, help="default $RLSBENCH_DATA or ~/.cache/rlsbench")
    p.add_argument("--force", action="store_true", help="prepare again even if cached")
    _network_options(p)
    p.set_defaults(func=_datasets_fetch)

    p = sub.add_parser("download", help="(workflow step) fetch and verify NAME's raw files")
    p.add_argument("name")
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--root", default=None, help="directory relative mirror paths resolve against")
    _network_options(p)
    p.set_defaults(func=_datasets_download)

    p = sub.add_parser("prepare", help="(workflow step) raw files of NAME -> prepared .npz")
    p.add_argument("name")
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--output", required=True)
    p.set_defaults(func=_datasets_prepare)


#: Subcommand groups: name -> function(subparsers) adding it.
COMMANDS = {"datasets": add_datasets_commands}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rlsbench", description="Wrapper feature selection with RLS, benchmarked."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(sub)
    return parser


def main(argv=None) -> int:
    from rlsbench.benchmark.datasets import DatasetError

    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return args.func(args)
    except DatasetError as exc:
        print(f"rlsbench: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
