# SPDX-License-Identifier: MIT
"""xrt-run under mpirun: a lost process, and a run across a real network.

- A process killed while the others wait at a collective: with mpirun's
  --enable-recovery the survivors live on, give up at the run's deadline,
  say which rank on their host is gone, and end with status 1 soon after
  the deadline (mpirun itself then exits 0: Open MPI 4.1 does so in that
  mode); without it, mpirun ends the job at once, non-zero.
- Two network namespaces joined by a veth pair: mpirun runs in one, its
  daemon and second process in the other (through an rsh agent that
  enters the namespace), MPI over TCP only; a module of 4 devices (2 per
  process) gives the bits it gives in one process, and the veth carried
  at least the all-reduced bytes.
- With XRT_TEST_FAKE_CUDA (the directory of the CPU stand-ins of CUDA and
  NCCL): the module on 2 processes of 2 fake GPUs gives the host's bits,
  and a killed process ends the others' wait in NCCL at the deadline,
  naming it.

Usage: test_mpi.py XRT_RUN MPIRUN DIR   (DIR: stall.hlo, replicas.hlo)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

RUN, MPIRUN, DIR = sys.argv[1:4]
BASE = [MPIRUN, '--allow-run-as-root', '--oversubscribe']
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
FAILS = []


def rank_pid(rank, marker, wait=20.0):
    """The pid of the xrt-run process of that rank whose command line has marker."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        for pid in filter(str.isdigit, os.listdir('/proc')):
            try:
                with open(f'/proc/{pid}/cmdline', 'rb') as f:
                    cmd = f.read()
                with open(f'/proc/{pid}/environ', 'rb') as f:
                    env = f.read().split(b'\0')
            except OSError:
                continue
            if marker.encode() in cmd and b'OMPI_COMM_WORLD_RANK=%d' % rank in env \
                    and os.path.basename(RUN).encode() in cmd.split(b'\0')[0]:
                return int(pid)
        time.sleep(0.05)
    return None


def fake_gpus(n):
    """The environment of n fake GPUs a process (the CPU stand-ins of CUDA and NCCL)."""
    lib = os.environ['XRT_TEST_FAKE_CUDA']
    return dict(ENV, FAKE_CUDA_DEVICES=str(n), XRT_CUDA_LOAD_SOURCE='1',
                LD_LIBRARY_PATH=lib + ':' + ENV.get('LD_LIBRARY_PATH', ''))


def killed(tmp, recovery, cuda=False):
    """Rank 1 killed while ranks 0 and 2 wait at the all-reduce (in MPI, or in NCCL)."""
    deadline = 4 if recovery else 60
    marker = f'--timeout={deadline}'
    # each process's status, as mpirun --enable-recovery exits 0 whatever they do
    status = os.path.join(tmp, 'status')
    cmd = BASE + (['--enable-recovery'] if recovery else []) + \
        ['-np', '3', 'sh', '-c', f'"$0" "$@"; echo $? > {status}.$OMPI_COMM_WORLD_RANK',
         RUN, marker] + (['--devices=cuda:0'] if cuda else []) + \
        [os.path.join(DIR, 'stall.hlo')]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=fake_gpus(1) if cuda else ENV)
    pid = rank_pid(1, marker)
    what = ('with recovery' if recovery else 'without recovery') + (' on cuda' if cuda else '')
    if pid is None:
        p.kill()
        FAILS.append(f'{what}: rank 1 never started: {p.communicate()[0]}')
        return
    time.sleep(1.0)     # the others reach the all-reduce
    os.kill(pid, 9)
    try:
        out = p.communicate(timeout=deadline + 30)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        FAILS.append(f'{what}: the job outlived the deadline by 30 s: '
                     f'{p.communicate()[0]}')
        return
    took = time.monotonic() - t0
    if p.returncode == 0 and not recovery:
        FAILS.append(f'{what}: the job ended with status 0:\n{out}')
    if cuda:
        killed_in_nccl(what, out, status, pid, took, deadline)
    elif recovery:
        for r in (0, 2):
            with open(f'{status}.{r}') as f:
                if f.read().strip() != '1':
                    FAILS.append(f'{what}: rank {r} did not end with status 1')
        for r in (0, 2):
            # (a survivor that ended first may be named gone too)
            want = (f'xrt-run: rank {r}: ', 'DEADLINE_EXCEEDED', 'waiting for the other '
                    'processes; rank ', f'rank 1 (pid {pid} on ', ') is gone')
            lines = [ln for ln in out.splitlines() if ln.startswith(want[0])]
            if not any(all(w in ln for w in want) for ln in lines):
                FAILS.append(f'{what}: rank {r} did not say rank 1 is gone:\n{out}')
        if took > deadline + 15:
            FAILS.append(f'{what}: ended {took:.1f} s after its start, deadline {deadline}')
    else:
        if 'rank 1' not in out:
            FAILS.append(f'{what}: mpirun did not name rank 1:\n{out}')
        if took > 20:
            FAILS.append(f'{what}: mpirun took {took:.1f} s to end the job')


def killed_in_nccl(what, out, status, pid, took, deadline):
    """A wait in NCCL given up breaks the group as one in MPI does: each
    survivor names the lost rank and exits with status 1, no MPI_Abort
    (which Open MPI 4.1's mpirun, under --enable-recovery, at times
    answers with a crash of its own)."""
    want = ('DEADLINE_EXCEEDED', 'deadline passed waiting for the group',
            f'rank 1 (pid {pid} on ', ') is gone')
    for r in (0, 2):
        lines = [ln for ln in out.splitlines() if ln.startswith(f'xrt-run: rank {r}: ')]
        if not any(all(w in ln for w in want) for ln in lines):
            FAILS.append(f'{what}: rank {r} did not say rank 1 is gone:\n{out}')
        with open(f'{status}.{r}') as f:
            if f.read().strip() != '1':
                FAILS.append(f'{what}: rank {r} did not end with status 1')
    if 'MPI_ABORT' in out:
        FAILS.append(f'{what}: a survivor aborted the job:\n{out}')
    if took > deadline + 15:
        FAILS.append(f'{what}: ended {took:.1f} s after its start, deadline {deadline}')


def sh(*args, check=True):
    return subprocess.run(args, capture_output=True, text=True, check=check)


def veth_bytes(ns, dev):
    out = sh('ip', '-n', ns, '-s', 'link', 'show', dev).stdout.split('\n')
    rx = out[out.index(next(ln for ln in out if 'RX:' in ln)) + 1].split()[0]
    return int(rx)


AGENT = '''#!/bin/sh
# mpirun's rsh agent: host nsa, nsb is network namespace $XRT_NS_A, $XRT_NS_B
host=$1; shift
case $host in nsa) ns=$XRT_NS_A ;; nsb) ns=$XRT_NS_B ;; *) exit 1 ;; esac
exec ip netns exec "$ns" sh -c "$*"
'''

MODULE = '''HloModule across, replica_count=4
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = s32[] add(a, b)
}
ENTRY e {
  x = s32[65536] parameter(0)
  s = s32[65536] all-reduce(x), replica_groups={}, to_apply=add
  l = s32[8] slice(x), slice={[0:8]}
  g = s32[32] all-gather(l), replica_groups={}, dimensions={0}
  ROOT r = (s32[65536], s32[32]) tuple(s, g)
}
'''


def same_outputs(tmp, name, what, whose):
    """MODULE's outputs written as NAME.npy give the bits of one.npy (4 replicas)."""
    for r in range(4):
        for k in range(2):
            x, y = (f'{tmp}/{w}.r{r}.{k}.npy' for w in ('one', name))
            with open(x, 'rb') as f1, open(y, 'rb') as f2:
                if f1.read() != f2.read():
                    FAILS.append(f'{what}: replica {r} element {k} differs from {whose}')


def netns(tmp):
    """Ranks 0 and 1 in namespaces joined by a veth pair, MPI over TCP."""
    tag = str(os.getpid())
    a, b, va, vb = f'xrt-a{tag}', f'xrt-b{tag}', f'xa{tag}', f'xb{tag}'
    try:
        sh('ip', 'netns', 'add', a)
        sh('ip', 'netns', 'add', b)
        sh('ip', 'link', 'add', va, 'type', 'veth', 'peer', 'name', vb)
        sh('ip', 'link', 'set', va, 'netns', a)
        sh('ip', 'link', 'set', vb, 'netns', b)
        for ns, dev, addr in ((a, va, '10.77.0.1/24'), (b, vb, '10.77.0.2/24')):
            sh('ip', '-n', ns, 'addr', 'add', addr, 'dev', dev)
            sh('ip', '-n', ns, 'link', 'set', dev, 'up')
            sh('ip', '-n', ns, 'link', 'set', 'lo', 'up')
    except subprocess.CalledProcessError as e:
        FAILS.append(f'netns: could not make the namespaces (root?): {e.stderr}')
        sh('ip', 'netns', 'del', a, check=False)
        sh('ip', 'netns', 'del', b, check=False)
        return
    # the pair carries nothing until both ends are up
    end = time.monotonic() + 10
    while time.monotonic() < end and not all(
            'state UP' in sh('ip', '-n', ns, 'link', 'show', dev).stdout
            for ns, dev in ((a, va), (b, vb))):
        time.sleep(0.05)
    try:
        netns_run(tmp, a, b, vb)
    finally:
        sh('ip', 'netns', 'del', a, check=False)
        sh('ip', 'netns', 'del', b, check=False)


def netns_run(tmp, a, b, vb):
    agent = os.path.join(tmp, 'agent.sh')
    with open(agent, 'w') as f:
        f.write(AGENT)
    os.chmod(agent, 0o755)
    with open(os.path.join(tmp, 'hosts'), 'w') as f:
        f.write('nsa slots=1\nnsb slots=1\n')
    module = os.path.join(tmp, 'across.hlo')
    with open(module, 'w') as f:
        f.write(MODULE)
    # the reference: the same four devices in one process
    one = subprocess.run([RUN, '--devices=host:0,host:1,host:2,host:3',
                          f'--output={tmp}/one.npy', module], capture_output=True, text=True)
    if one.returncode:
        FAILS.append(f'netns: one process failed: {one.stderr}')
        return
    before = veth_bytes(b, vb)
    env = dict(ENV, XRT_NS_A=a, XRT_NS_B=b)
    # (rtc hwloc: its daemon's shared topology crashes at times in Open MPI 4.1)
    net = ['--mca', 'rtc', '^hwloc', '--mca', 'oob_tcp_if_include', '10.77.0.0/24',
           '--mca', 'btl', 'tcp,self', '--mca', 'btl_tcp_if_include', '10.77.0.0/24']
    cmd = ['ip', 'netns', 'exec', a] + BASE + \
        ['--hostfile', os.path.join(tmp, 'hosts'), '--mca', 'plm_rsh_agent', agent] + net + \
        ['-np', '2', RUN, '--devices=host:0,host:1', '--timeout=60',
         f'--output={tmp}/two.npy', module]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if p.returncode:
        FAILS.append(f'netns: mpirun failed ({p.returncode}): {p.stdout}{p.stderr}')
        return
    crossed = veth_bytes(b, vb) - before
    same_outputs(tmp, 'two', 'netns', 'one process')
    if crossed < 65536 * 4:
        FAILS.append(f'netns: the veth carried {crossed} bytes, less than one operand')
    print(f'netns: {crossed} bytes crossed the veth pair')


def cuda_across(tmp):
    """2 processes of 2 fake GPUs, meeting over NCCL: the bits of 4 host devices in one."""
    module = os.path.join(tmp, 'across.hlo')
    with open(module, 'w') as f:
        f.write(MODULE)
    one = subprocess.run([RUN, '--devices=host:0,host:1,host:2,host:3',
                          f'--output={tmp}/one.npy', module], capture_output=True, text=True)
    p = subprocess.run(BASE + ['-np', '2', RUN, '--devices=cuda:0,cuda:1', '--timeout=60',
                               f'--output={tmp}/gpus.npy', module],
                       capture_output=True, text=True, env=fake_gpus(2), timeout=120)
    if one.returncode or p.returncode:
        FAILS.append(f'cuda: a run failed: {one.stderr}{p.stdout}{p.stderr}')
        return
    same_outputs(tmp, 'gpus', 'cuda', 'host devices')


def main():
    tmp = tempfile.mkdtemp()
    try:
        only = os.environ.get('XRT_TEST_MPI_ONLY')   # killed or netns: that part alone
        if only in (None, 'killed'):
            killed(tmp, recovery=True)
            killed(tmp, recovery=False)
            print('killed: with and without recovery, checked')
        if only in (None, 'netns'):
            netns(tmp)
        if only in (None, 'cuda') and os.environ.get('XRT_TEST_FAKE_CUDA'):
            cuda_across(tmp)
            killed(tmp, recovery=True, cuda=True)
            print('cuda: across processes and killed, checked')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in FAILS:
        print('FAIL:', f)
    print(f'{len(FAILS)} failures')
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
