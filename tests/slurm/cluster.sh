#!/usr/bin/env bash
# A one-node SLURM cluster on localhost for the integration test (issue 9).
#
#   tests/slurm/cluster.sh install   apt-get slurm-wlm + munge (Debian; needs root)
#   tests/slurm/cluster.sh start     write /etc/slurm/slurm.conf, start munged, slurmctld, slurmd
#   tests/slurm/cluster.sh stop      stop exactly the daemons `start` started (by their pid files)
#                                    and remove the slurm.conf `start` wrote
#   tests/slurm/cluster.sh status    sinfo / squeue
#
# Why the config sits at /etc/slurm/slurm.conf: the executor's job step (srun inside the batch
# script) drops SLURM_CONF from the environment, so a config anywhere else is not found there.
# Why MinJobAge=3600: without slurmdbd the executor must read job states with squeue, and squeue
# forgets a job MinJobAge seconds after it ends (the plugin even falls back to sacct, which hangs
# without accounting, when MinJobAge < 3 x its first status-check delay); the test's checker
# also asks squeue for every job of the run once it is over.
# Why `stop` removes the config again: the SLURM executor plugin asks `scontrol show config` at
# every Snakemake start (even `snakemake --version`), and with a config that names a stopped
# controller scontrol retries for 9 s; every Snakemake command on the machine was 9 s slower
# after a `make test-slurm` until the file went.
set -euo pipefail

STATE=${RLSBENCH_SLURM_STATE:-/var/tmp/rlsbench-slurm}
CONF=/etc/slurm/slurm.conf
MARKER="# written by rlsbench tests/slurm/cluster.sh"

log() { echo "[slurm-cluster] $*"; }

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v munged >/dev/null && command -v sbatch >/dev/null; then
        log "slurm-wlm and munge already installed ($(dpkg-query -W -f '${Version}' slurm-wlm))"
        return
    fi
    log "installing slurm-wlm and munge with apt-get"
    apt-get update -q >"$STATE/apt-update.log" 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        slurm-wlm munge >"$STATE/apt-install.log" 2>&1 \
        || { tail -20 "$STATE/apt-install.log"; exit 1; }
    log "installed slurm-wlm $(dpkg-query -W -f '${Version}' slurm-wlm)"
}

write_conf() {
    if [[ -e $CONF ]] && ! grep -qF "$MARKER" "$CONF"; then
        log "ERROR: $CONF exists and was not written by this script; refusing to overwrite it"
        exit 1
    fi
    # The node line is what slurmd itself detects (CPUs, sockets, cores, RealMemory), renamed
    # to localhost so that it does not depend on the machine's host name.
    local node
    node=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]*/NodeName=localhost NodeAddr=127.0.0.1/')
    mkdir -p /etc/slurm "$STATE/ctld" "$STATE/d"
    cat >"$CONF.tmp" <<CONF
$MARKER
ClusterName=rlsbench
SlurmctldHost=localhost(127.0.0.1)
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
$node State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
    mv "$CONF.tmp" "$CONF"
    log "wrote $CONF ($node)"
}

pid_alive() { [[ -s $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
    mkdir -p "$STATE"
    : >"$STATE/started"
    write_conf
    if pgrep -x munged >/dev/null; then
        log "munged already running; leaving it alone"
    else
        install -d -o munge -g munge -m 0755 /run/munge
        runuser -u munge -- /usr/sbin/munged
        echo munged:/run/munge/munged.pid >>"$STATE/started"
        log "started munged"
    fi
    if pid_alive "$STATE/slurmctld.pid"; then
        log "ERROR: a slurmctld from an earlier run is still alive; run '$0 stop' first"
        exit 1
    fi
    # -c: start from a clean state (no jobs or node states left over from an earlier run)
    slurmctld -c
    echo "slurmctld:$STATE/slurmctld.pid" >>"$STATE/started"
    local hostarg=()
    [[ $(hostname -s) != localhost ]] && hostarg=(-N localhost)
    slurmd "${hostarg[@]}"
    echo "slurmd:$STATE/slurmd.pid" >>"$STATE/started"
    for _ in $(seq 60); do
        if sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; then
            log "node localhost idle: $(sinfo -h -N -o '%N %c CPUs %m MB %P')"
            return
        fi
        sleep 0.5
    done
    log "ERROR: node did not become idle within 30 s"
    sinfo -N -l || true
    tail -20 "$STATE/slurmctld.log" "$STATE/slurmd.log" || true
    exit 1
}

stop() {
    [[ -s $STATE/started ]] || { log "nothing to stop"; remove_conf; return 0; }
    # reverse order: slurmd, slurmctld, munged
    tac "$STATE/started" | while IFS=: read -r name pidfile; do
        if pid_alive "$pidfile"; then
            local pid
            pid=$(cat "$pidfile")
            kill "$pid"
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
            log "stopped $name (pid $pid)"
        else
            log "$name not running"
        fi
    done
    rm -f "$STATE/started"
    remove_conf
}

remove_conf() {
    if [[ -e $CONF ]] && grep -qF "$MARKER" "$CONF"; then
        rm -f "$CONF"
        log "removed $CONF"
    fi
}

case ${1:-} in
    install) mkdir -p "$STATE"; install_packages ;;
    start) start ;;
    stop) stop ;;
    status) sinfo -N -l; squeue ;;
    *) echo "usage: $0 install|start|stop|status" >&2; exit 2 ;;
esac
