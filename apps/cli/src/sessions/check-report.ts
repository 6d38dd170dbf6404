import { basename } from 'node:path';
import type { CheckAndRepairResult } from '@hankweave/runtime';
import { commandHint } from '../output/command-hint.js';
import { formatDuration } from '../output/format.js';
import type { Terminal } from '../output/terminal.js';

/** Stale kills the user was not asked about or said no to, and why. */
export interface DeclinedKill {
  key: string;
  why: 'declined' | 'no-tty';
}

/**
 * The anomalies `sessions --check` leaves unfixed: orphans, stale sessions not killed, stale
 * registry locks, failed kills. A zombie's runtime.lock is not counted: the next run of that
 * execution takes it over, and removing it here could race with that run.
 */
export function unfixedCount(result: CheckAndRepairResult): number {
  const { anomalies } = result;
  const killed = new Set(result.killed);
  return (
    anomalies.orphans.length +
    anomalies.zombies.filter((zombie) => !result.fixed.includes(zombie.key)).length +
    anomalies.stale.filter((stale) => !killed.has(stale.key)).length +
    anomalies.staleLocks.filter((lock) => !isRuntimeLock(lock.file)).length +
    result.errors.length
  );
}

/** Prints what `sessions --check` found and did, each finding with what to do next. */
export function printCheck(
  terminal: Terminal,
  result: CheckAndRepairResult,
  registryFile: string,
  declined: readonly DeclinedKill[],
): void {
  const { style } = terminal;
  const { orphans, zombies, stale, staleLocks } = result.anomalies;
  const next = (text: string) => `    ${style.dim('→')} ${text}`;
  if (orphans.length + zombies.length + stale.length + staleLocks.length === 0) {
    terminal.out(
      `${style.green('✓')} No anomalies in ${registryFile}: no orphaned state files, zombies, stale sessions or stale locks.`,
    );
    return;
  }
  if (orphans.length > 0) {
    terminal.out(
      style.bold(`Orphaned state files (${orphans.length}): no registry entry names them`),
    );
    for (const orphan of orphans) terminal.out(`  ${orphan.kind.padEnd(12)} ${orphan.file}`);
    terminal.out(next('Inspect them, then delete them by hand if nothing needs them.'));
  }
  if (zombies.length > 0) {
    terminal.out(style.bold(`Zombies (${zombies.length}): running, but the process is gone`));
    for (const zombie of zombies) {
      const fixed = result.fixed.includes(zombie.key);
      terminal.out(
        `  ${zombie.key}  pid ${zombie.pid}  ${fixed ? style.green('→ marked unknown_termination') : style.yellow('not changed')}`,
      );
    }
  }
  if (stale.length > 0) {
    terminal.out(style.bold(`Stale sessions (${stale.length}): running for a long time`));
    for (const session of stale) {
      const running = formatDuration(session.runningForMs);
      terminal.out(
        `  ${session.key}  running for ${running}  ${staleVerdict(session, result, declined, style)}`,
      );
    }
  }
  if (staleLocks.length > 0) {
    terminal.out(style.bold(`Stale locks (${staleLocks.length})`));
    for (const lock of staleLocks) {
      terminal.out(`  ${lock.file}  ${formatDuration(lock.ageMs)} old`);
      terminal.out(
        next(
          isRuntimeLock(lock.file)
            ? 'Left by a process that died; the next run of that execution takes it over.'
            : `Left by a process that died while updating ${basename(registryFile)}; the next update takes it over. Remove it by hand (rm -r) only if no hankweave process runs.`,
        ),
      );
    }
  }
  for (const error of result.errors) {
    terminal.out(`${style.red('!')} Could not kill ${error.key}: ${error.message}`);
  }
}

function staleVerdict(
  session: CheckAndRepairResult['anomalies']['stale'][number],
  result: CheckAndRepairResult,
  declined: readonly DeclinedKill[],
  style: Terminal['style'],
): string {
  if (session.level === 'warn')
    return style.yellow('(over 2h: check that it still makes progress)');
  if (session.level === 'suggest-kill')
    return style.yellow(`→ over 4h: consider \`${commandHint('kill', session.key)}\``);
  if (result.killed.includes(session.key)) return style.green('→ over 8h: killed');
  const reason = declined.find((kill) => kill.key === session.key)?.why;
  return style.red(
    reason === 'no-tty'
      ? `→ over 8h: not killed (no terminal to ask); rerun with --yes, or \`${commandHint('kill', session.key)}\``
      : `→ over 8h: not killed; \`${commandHint('kill', session.key)}\` stops it`,
  );
}

const isRuntimeLock = (file: string): boolean => basename(file) === 'runtime.lock';
