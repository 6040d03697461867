#!/usr/bin/env bash
# `make test-slurm`: the workflow through a real SLURM controller on localhost (issue 9).
#
# 1. install slurm-wlm + munge (apt-get) and start munged, slurmctld, slurmd (tests/slurm/cluster.sh)
# 2. run a slice of config/benchmark.yaml (tests/slurm/benchmark_slice.py) with
#    `--profile profiles/slurm` and, at the same
#    time, locally with plain `snakemake --cores all`, each in its own work directory
# 3. tests/slurm/check_run.py: every job went through SLURM (job ids in Snakemake's log, each
#    COMPLETED in squeue, its SLURM log naming the jobs it ran) and the result tables are equal
# 4. stop the daemons this script started, also on failure or Ctrl-C (trap)
#
# Needs root and apt-get (Debian/Ubuntu). Environment: PYTHON / SNAKEMAKE (default: .venv),
# RLSBENCH_SLURM_KEEP=1 keeps the work directory after success.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-.venv/bin/python}
SNAKEMAKE=${SNAKEMAKE:-.venv/bin/snakemake}
# a slice of the reference benchmark's own config (tests/slurm/benchmark_slice.py: two bundled
# datasets, two of its methods, 2 folds, k <= 5; its protocol, grid and budgets as they are)
RUN_NAME=benchmark_slice
TABLES=results/runs/$RUN_NAME/main/tables
# the tables are the targets (not `main_all`), so that no job is a local rule of the controller
TARGETS=("$TABLES/summary.csv" "$TABLES/curves.csv" "$TABLES/runtime.csv")

# Skipped, with the reason, where slurm-wlm or munge is missing and cannot be installed
# (tests/_tools.py: no root or no apt-get).
if ! why=$("$PYTHON" tests/_tools.py slurm); then
    echo "[test-slurm] SKIPPED: $why"
    exit 0
fi

T0=$(date +%s)
WORK=$(mktemp -d /tmp/rlsbench-test-slurm.XXXXXX)
CONFIG=$WORK/benchmark_slice.yaml
"$PYTHON" tests/slurm/benchmark_slice.py config/benchmark.yaml "$CONFIG"
LOCAL_PID=
SLURM_PID=
log() { echo "[test-slurm +$(( $(date +%s) - T0 ))s] $*"; }

# Each Snakemake runs in its own process group (setsid), so that it and the jobs it spawned can
# be stopped together: TERM (Snakemake then cancels its SLURM jobs), KILL after 30 s.
stop_run() {
    local pid=$1
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    local pid
    for pid in $SLURM_PID $LOCAL_PID; do stop_run "$pid"; done
    # jobs of an interrupted run must not outlive the daemons: cancel the ones this run submitted
    local ids
    ids=$(grep -oP 'submitted with SLURM jobid \K[0-9]+' "$WORK/slurm.log" 2>/dev/null || true)
    [[ -n $ids ]] && scancel $ids 2>/dev/null || true
    tests/slurm/cluster.sh stop || true
    if [[ $rc -eq 0 && -z ${RLSBENCH_SLURM_KEEP:-} ]]; then
        rm -rf "$WORK"
    else
        log "work directory kept: $WORK (slurm.log, local.log, slurm/.snakemake/slurm_logs/)"
    fi
    log "done, exit status $rc"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

tests/slurm/cluster.sh install
log "slurm-wlm and munge installed"
tests/slurm/cluster.sh start

log "local run (plain snakemake --cores all; profiles/default applies by itself) -> $WORK/local"
setsid nice -n 5 "$SNAKEMAKE" --cores all --configfile "$CONFIG" \
    --directory "$WORK/local" "${TARGETS[@]}" >"$WORK/local.log" 2>&1 &
LOCAL_PID=$!

# --retries 0: a job that needs a retry is a failure here, not something to hide;
# --slurm-keep-successful-logs: the checker reads what each SLURM job executed;
# a short first status check: the tiny jobs take seconds, the default waits 40 s.
log "SLURM run (profiles/slurm) -> $WORK/slurm"
# in the background + wait: a TERM to this script then stops it at once, not after the run
setsid "$SNAKEMAKE" --profile profiles/slurm --configfile "$CONFIG" \
    --directory "$WORK/slurm" --retries 0 --slurm-keep-successful-logs \
    --slurm-init-seconds-before-status-checks 2 \
    -- "${TARGETS[@]}" >"$WORK/slurm.log" 2>&1 &
SLURM_PID=$!
if ! wait "$SLURM_PID"; then
    SLURM_PID=
    tail -40 "$WORK/slurm.log"
    log "FAIL: the SLURM run failed"
    exit 1
fi
SLURM_PID=
log "SLURM run done"
if ! wait "$LOCAL_PID"; then
    LOCAL_PID=
    tail -40 "$WORK/local.log"
    log "FAIL: the local run failed"
    exit 1
fi
LOCAL_PID=

"$PYTHON" tests/slurm/check_run.py --slurm-dir "$WORK/slurm" --slurm-log "$WORK/slurm.log" \
    --local-dir "$WORK/local" --run-name "$RUN_NAME"
log "PASS"
