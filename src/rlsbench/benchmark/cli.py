"""Command-line entry point ``rlsbench`` (also ``python -m rlsbench``).

Subcommand groups register themselves in :data:`COMMANDS` (name -> function adding a subparser);
each subparser sets ``func`` to the handler taking the parsed namespace and returning an exit code.
Adding a group later = one function and one line in :data:`COMMANDS`.

``rlsbench run [--configfile F] [--cores N] [-n] [TARGET ...] [-- SNAKEMAKE OPTIONS]`` runs the
workflow (:mod:`rlsbench.benchmark.runner`); ``rlsbench methods list`` lists the installed
methods. ``rlsbench datasets list | info NAME | fetch NAME | hash FILE`` serve people who want a
dataset without the workflow; ``rlsbench datasets download | prepare`` are the workflow's steps.
``rlsbench investigate PART NAME`` runs one of a part's investigations
(:mod:`rlsbench.benchmark.investigate`).

Every option is range-checked by the parser, and every error a user can cause (unknown dataset,
bad registry file, corrupt cache, unreadable file, out-of-range option) ends the command with one
readable line naming the file, line, key or parameter and a non-zero exit status, never a
traceback (``--traceback`` shows one for errors that are bugs).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys


# ----------------------------------------------------------------------------------- option types
def _number(kind, text, low, inclusive, what):
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    if value < low or (value == low and not inclusive):
        bound = ">=" if inclusive else ">"
        raise argparse.ArgumentTypeError(f"{text!r} is out of range: must be {bound} {low:g}")
    return value


def positive_float(text):
    """argparse type: a finite number > 0 (timeouts, deadlines)."""
    return _number(float, text, 0, False, "a number")


def nonnegative_float(text):
    """argparse type: a finite number >= 0 (back-off)."""
    return _number(float, text, 0, True, "a number")


def positive_int(text):
    """argparse type: an integer >= 1 (attempts, counts)."""
    return _number(int, text, 1, True, "an integer")


# ----------------------------------------------------------------------------------- datasets
def _registry(args):
    from rlsbench.benchmark.datasets import load_registry

    return load_registry(args.registry, extra=args.registry_extra)


def _network_options(parser) -> None:
    from rlsbench.benchmark.datasets import DEFAULT_BACKOFF, DEFAULT_RETRIES, DEFAULT_TIMEOUT
    from rlsbench.benchmark.datasets.download import DEFAULT_DEADLINE

    parser.add_argument(
        "--mirror",
        action="append",
        default=[],
        metavar="URL_OR_PATH",
        help="mirror base (http://, file:// or a path relative to the current directory), laid "
        "out like shared/datasets/; repeatable, tried in order before the upstream URLs",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=DEFAULT_TIMEOUT,
        help="seconds per network operation, > 0 (default %(default)s)",
    )
    parser.add_argument(
        "--retries",
        type=positive_int,
        default=DEFAULT_RETRIES,
        help="attempts per URL for transient failures, >= 1 (default %(default)s)",
    )
    parser.add_argument(
        "--backoff",
        type=nonnegative_float,
        default=DEFAULT_BACKOFF,
        help="first wait between attempts in seconds, doubling, >= 0 (default %(default)s)",
    )
    parser.add_argument(
        "--deadline",
        type=positive_float,
        default=DEFAULT_DEADLINE,
        help="seconds the whole download of a dataset may take, > 0 (default %(default)s)",
    )


def _network(args) -> dict:
    return {
        "timeout": args.timeout,
        "retries": args.retries,
        "backoff": args.backoff,
        "deadline": args.deadline,
    }


def _datasets_list(args) -> int:
    registry = _registry(args)
    rows = [("name", "task", "format", "n_samples", "n_features", "source")]
    for name, spec in registry.items():
        if not spec.files:
            source = spec.format
        elif all(f.upstream or f.path for f in spec.files):
            source = "mirror/upstream" if any(f.mirror for f in spec.files) else "upstream"
        else:
            source = "mirror only"
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
        force=args.force,
        **_network(args),
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
    print(download(spec, args.raw_dir, mirrors=args.mirror, root=args.root, **_network(args)))
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


def _datasets_hash(args) -> int:
    from pathlib import Path

    from rlsbench.benchmark.atomic import atomic_path
    from rlsbench.benchmark.datasets import DatasetError
    from rlsbench.benchmark.datasets.entry import entry_for_file, render_entry

    output = Path(args.output) if args.output else None
    if output is not None and output.exists():
        raise DatasetError(
            "exists: `datasets hash --output` writes a new registry file (copy the entry into "
            "an existing one by hand, or name another file)",
            file=output,
        )
    # a registry resolves a relative `path:` against its own directory
    registry_dir = output.absolute().parent if output is not None else Path.cwd()
    name, entry, problem = entry_for_file(
        args.file,
        name=args.name,
        format=args.format,
        task=args.task,
        target=args.target,
        sep=args.sep,
        header=args.header,
        urls=args.url,
        registry_dir=registry_dir,
    )
    text = render_entry(name, entry, problem=problem, registry_dir=registry_dir)
    if output is None:
        print(text, end="")
    else:
        with atomic_path(output) as tmp:
            Path(tmp).write_text(text)
        print(f"rlsbench: wrote the entry of {name!r} to {output}", file=sys.stderr)
    if problem:
        print(f"rlsbench: warning: {problem}", file=sys.stderr)
    return 0


def add_datasets_commands(subparsers) -> None:
    parser = subparsers.add_parser(
        "datasets",
        help="benchmark datasets: list, inspect, fetch, register your own",
        description="Benchmark datasets: the built-in registry (package data) plus your own "
        "registry files (--registry-extra; `rlsbench datasets hash FILE` writes an entry).",
    )
    parser.add_argument(
        "--registry",
        default=None,
        metavar="FILE",
        help="a registry YAML replacing the built-in one",
    )
    parser.add_argument(
        "--registry-extra",
        action="append",
        default=[],
        metavar="FILE",
        help="a user registry (same schema) merged over the built-in one; repeatable. An entry "
        "may reuse a registered name only with `override: true`",
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
    p.add_argument(
        "--root",
        default=None,
        help="directory relative mirror paths resolve against (default: the current directory)",
    )
    _network_options(p)
    p.set_defaults(func=_datasets_download)

    p = sub.add_parser("prepare", help="(workflow step) raw files of NAME -> prepared .npz")
    p.add_argument("name")
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--output", required=True)
    p.set_defaults(func=_datasets_prepare)

    p = sub.add_parser(
        "hash",
        help="print a registry entry (YAML) for a local data file: its digests, a guessed "
        "format, reader options, task and the shape it reads as",
        description="Print a user registry file with one entry for FILE. Check the guesses "
        "(marked in comments), save it, and pass it with --registry-extra or the workflow's "
        "dataset_registries key.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--name", help="dataset name (default: from the file name)")
    p.add_argument(
        "--format",
        choices=["libsvm", "uci-csv", "dense-text", "arff"],
        help="default: guessed from the content",
    )
    p.add_argument("--task", choices=["binary", "multiclass", "regression"])
    p.add_argument(
        "--target",
        help="target column: 0-based index (negative from the end) or name (default: the last "
        "column; LIBSVM: the label)",
    )
    p.add_argument("--sep", choices=[",", ";", "\t", "whitespace"], help="delimited text only")
    p.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether the first line names the columns (default: guessed)",
    )
    p.add_argument(
        "--url",
        action="append",
        default=[],
        help="where others can download the same bytes (repeatable); replaces the local path",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="REGISTRY",
        help="write the registry file REGISTRY (a new file) instead of printing it; the local "
        "path is written relative to REGISTRY's directory (default: printed, relative to the "
        "current directory, where the file is meant to be saved)",
    )
    p.set_defaults(func=_datasets_hash)


def _config_check(args) -> int:
    from rlsbench.benchmark.config import read_config_file

    for path in args.files:
        read_config_file(path)
        print(f"{path}: readable (YAML/JSON, no key given twice, no templating, no alias bomb)")
    return 0


def add_config_commands(subparsers) -> None:
    parser = subparsers.add_parser(
        "config",
        help="check config files before a run",
        description="Snakemake reads a --configfile before the workflow's own checks run, and "
        "its message of a YAML error (a tab in the indentation, say) names neither the file "
        "nor the line: `rlsbench config check FILE` does. It also refuses what Snakemake "
        "would read silently: a key given twice (YAML or JSON), the `__use_yte__` marker of "
        "YTE templating (Python run while the file is read) and aliases that expand beyond "
        "any config's size. The values themselves are checked by the workflow (snakemake -n).",
    )
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser("check", help="read FILE... as Snakemake would; name the file, line "
                       "and column of the first error")  # fmt: skip
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=_config_check)


# ----------------------------------------------------------------------------------- run
def _run_workflow(args) -> int:
    from rlsbench.benchmark.runner import run

    return run(
        configfile=args.configfile,
        targets=args.targets,
        cores=args.cores,
        dry_run=args.dry_run,
        extra=args.extra,
    )


def _cores(text):
    return text if text == "all" else str(positive_int(text))


def add_run_command(subparsers) -> None:
    p = subparsers.add_parser(
        "run",
        help="run the benchmark workflow (Snakemake) with the current directory as results root",
        description="Run the workflow shipped with rlsbench (the checkout's, or the wheel's "
        "copy) with Snakemake, writing results/ under the current directory. Relative paths in "
        "the config (dataset_registries, mirrors, datasets' files) resolve against the config "
        "file's directory. Options after `--` go to Snakemake as given, e.g. "
        "`rlsbench run main_all -- --report results/report.html`.",
    )
    p.add_argument(
        "--configfile",
        metavar="FILE",
        help="the run's config (default: the embedded default config)",
    )
    p.add_argument(
        "--cores",
        type=_cores,
        help="an integer >= 1 or `all` (default: the workflow profile's, all)",
    )
    p.add_argument("-n", "--dry-run", action="store_true", help="print the plan, run nothing")
    p.add_argument(
        "targets",
        nargs="*",
        metavar="TARGET",
        help="rules or files to build, e.g. main_all (default: every enabled part)",
    )
    p.set_defaults(func=_run_workflow)


# ----------------------------------------------------------------------------------- init
def _init_project(args) -> int:
    from rlsbench.benchmark.starter import init_project

    written = init_project(args.directory, force=args.force)
    for path in written:
        print(path)
    print(
        f"rlsbench: {len(written)} files in {args.directory}; there: "
        "rlsbench run --configfile config.yaml --dry-run",
        file=sys.stderr,
    )
    return 0


def add_init_command(subparsers) -> None:
    p = subparsers.add_parser(
        "init",
        help="write a starter project: the default config, the SLURM profile, the next-paper "
        "example",
        description="Write into DIRECTORY (created if missing) what the documentation works "
        "with, from this install: config.yaml (the embedded default config), profiles/slurm/ "
        "(docs: Running on a SLURM cluster) and the next-paper example (next_paper.yaml, "
        "make_my_data.py, my-ranker/; docs: Getting started). Refuses to overwrite a file "
        "unless --force; nothing is written then.",
    )
    p.add_argument("directory", metavar="DIRECTORY", help="the project folder")
    p.add_argument("--force", action="store_true", help="overwrite files that exist")
    p.set_defaults(func=_init_project)


# ----------------------------------------------------------------------------------- methods
def _methods_list(args) -> int:
    from rlsbench.benchmark.methods import (
        MethodPluginError,
        distribution_of,
        get_method,
        method_names,
    )

    rows = [("name", "distribution", "tasks", "description")]
    failed = []
    for name in method_names():
        where = distribution_of(name).removeprefix("distribution ")
        try:
            method = get_method(name)
        except MethodPluginError as exc:
            failed.append(str(exc))
            continue
        # tasks=(): a method that selects nothing, run only by a study (e.g. its K-fold runner)
        rows.append((name, where, ",".join(method.tasks) or "-", method.description))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row[:3], widths)) + "  " + row[3])
    for message in failed:
        print(f"rlsbench: error: {message}", file=sys.stderr)
    return 1 if failed else 0


def add_methods_commands(subparsers) -> None:
    parser = subparsers.add_parser(
        "methods",
        help="the installed selection methods (entry-point group rlsbench.methods)",
    )
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser(
        "list", help="one line per installed method: name, distribution, tasks, description"
    )
    p.set_defaults(func=_methods_list)


# ----------------------------------------------------------------------------------- investigate
def _investigate(args) -> int:
    from rlsbench.benchmark.investigate import main

    return main(args)


def add_investigate_command(subparsers) -> None:
    p = subparsers.add_parser(
        "investigate",
        help="run a part's investigations (runs that isolate why a result differs)",
        description="Run one investigation of a part: the paper run with one thing changed. "
        "Its grid is the section NAME of --config (default config/investigations/PART.yaml); "
        "--set KEY=VALUE replaces one of its keys. Without NAME: list the part's "
        "investigations; without PART: the parts that have some.",
    )
    p.add_argument("part", nargs="?", metavar="PART")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("--list", action="store_true", help="list PART's investigations")
    p.add_argument(
        "--config", metavar="FILE", help="the grids (default: config/investigations/PART.yaml)"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="replace a key of the investigation's section (value read as YAML)",
    )
    p.add_argument(
        "--paper-config", metavar="FILE", help="the paper run's config (default: config/paper.yaml)"
    )
    p.add_argument(
        "--variant",
        metavar="NAME",
        help="lay config/variants/NAME.yaml on the paper config; --out then defaults to the "
        "variant's published folder (<publish_dir>/PART/investigations)",
    )
    p.add_argument("--data", metavar="DIR", help="prepared datasets (results/datasets/prepared)")
    p.add_argument("--mirror", action="append", default=[], help="dataset mirror path or URL")
    p.add_argument("--cache", metavar="DIR", help="dataset cache (results/datasets/cache)")
    p.add_argument(
        "--out", metavar="DIR", help="output folder (default: results/paper/PART/investigations)"
    )
    p.add_argument("--jobs", type=positive_int, default=1, help="processes (default 1)")
    p.add_argument("--seed", type=int, help="the run's seed (default: the investigation's)")
    p.add_argument(
        "--markdown-only",
        action="store_true",
        help="only rewrite NAME.md from the CSV(s) already in --out",
    )
    p.set_defaults(func=_investigate)


#: Subcommand groups: name -> function(subparsers) adding it.
COMMANDS = {
    "datasets": add_datasets_commands,
    "config": add_config_commands,
    "methods": add_methods_commands,
    "run": add_run_command,
    "init": add_init_command,
    "investigate": add_investigate_command,
}


def _version() -> str:
    from rlsbench import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rlsbench", description="Wrapper feature selection with RLS, benchmarked."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="on an unexpected error (a bug), show the Python traceback",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(sub)
    return parser


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def main(argv=None) -> int:
    from rlsbench.benchmark.config import ConfigError
    from rlsbench.benchmark.datasets import DatasetError
    from rlsbench.benchmark.progress import terminal_bars

    argv = list(sys.argv[1:] if argv is None else argv)
    # `rlsbench run ... -- OPTIONS`: what follows `--` goes to Snakemake untouched
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    parser = build_parser()
    args = parser.parse_args(argv[: len(argv) - len(extra) - 1] if "--" in argv else argv)
    if extra and args.command != "run":
        parser.error(f"`-- {' '.join(extra)}`: only `rlsbench run` passes options on")
    args.extra = extra
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        # progress bars for downloads on a terminal only (never in logs or pipes)
        with terminal_bars():
            return args.func(args)
    except (DatasetError, ConfigError) as exc:
        print(f"rlsbench: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")
        return 0
    except OSError as exc:  # unreadable input, unwritable output, full disk
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"rlsbench: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rlsbench: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.traceback:
            raise
        print(
            f"rlsbench: internal error (a bug; rerun with --traceback and report it): "
            f"{type(exc).__name__}: {_one_line(exc)}",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
