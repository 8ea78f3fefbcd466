// Who holds a task's lease: a worker id that names this process beyond doubt (host, boot, the process's
// start, pid), and the test that a holder on this host is gone, so a restart need not wait out its lease.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

let boot: string | undefined;
/** The kernel's id of this boot (Linux), or "-" where there is none: a crash of the machine changes it. Read once: it cannot change while this process runs. */
function bootId(): string {
  if (boot === undefined) {
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/-/g, '').slice(0, 16) || '-';
    } catch {
      boot = '-';
    }
  }
  return boot;
}

/** When process `pid` started, in clock ticks since boot (Linux), or undefined when it does not exist or cannot be read. */
function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (in parentheses) may hold spaces: the fields are counted after its ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * This process's worker id: `host:boot:start:pid:random`. The pid stays the second-to-last field, as in
 * the older `host:pid:random` form. A pid alone proves nothing after a restart — containers give the
 * new process the old one's pid — but a pid with its start time and boot does.
 */
export function newWorkerId(): string {
  return `${hostname()}:${bootId()}:${startTicks(process.pid) ?? '-'}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, but belongs to another user.
    return (e as { code?: string }).code !== 'ESRCH';
  }
}

/**
 * True only when `workerId` names a process of this host that no longer runs: the machine rebooted
 * since, or no process with its pid and start time exists. Another host's holder, or one that cannot be
 * proved gone (the older id form with a live pid), is false: its lease is waited out.
 */
export function holderIsGone(workerId: string): boolean {
  const parts = workerId.split(':');
  if (parts.length < 3) return false;
  const pid = Number(parts.at(-2));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (parts.length >= 5) {
    const [boot, start] = [parts.at(-4)!, parts.at(-3)!];
    if (parts.slice(0, -4).join(':') !== hostname()) return false;
    const bootNow = bootId();
    if (boot !== '-' && bootNow !== '-' && boot !== bootNow) return true;
    if (start !== '-') {
      const now = startTicks(pid);
      if (now !== undefined) return now !== start;
    }
    return !pidExists(pid);
  }
  // host:pid:random, written before the boot and start fields: only a pid that does not exist is proof.
  if (parts.slice(0, -2).join(':') !== hostname()) return false;
  return pid !== process.pid && !pidExists(pid);
}
