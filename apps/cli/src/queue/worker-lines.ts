import type { WorkerEvent } from '@hankweave/queue';
import { formatCost, formatDuration, oneLine } from '../output/format.js';
import type { Style } from '../output/terminal.js';

/** A job id shortened for lines: its random part is what tells jobs apart at a glance. */
const tag = (jobId: string, style: Style) => style.dim(`[${jobId}]`);

/**
 * One progress line per worker event, or undefined for events not worth a line. Colour comes
 * from `style` (none without a TTY or with NO_COLOR).
 */
export function workerLine(event: WorkerEvent, style: Style): string | undefined {
  switch (event.type) {
    case 'worker.ready':
      return `${style.bold('hankweave worker')} ${event.worker} · queue ${event.queue} · concurrency ${event.concurrency}`;
    case 'job.started':
      return `${tag(event.jobId, style)} ${style.cyan('started')} ${event.hankName} ${event.resumed ? '(resuming)' : '(new)'} in ${event.executionDir}`;
    case 'codon.started':
      return `${tag(event.jobId, style)} ${style.cyan('▸')} ${event.codonId}`;
    case 'codon.completed':
      return `${tag(event.jobId, style)} ${event.success ? style.green('✓') : style.red('✗')} ${event.codonId} ${style.dim(formatCost(event.cost))}`;
    case 'job.completed': {
      const { result } = event;
      const done = result.codons.filter((codon) => codon.status === 'completed').length;
      return `${tag(event.jobId, style)} ${style.green('completed')} · ${done}/${result.codons.length} codons · ${formatCost(result.cost)} · ${formatDuration(result.durationMs)}`;
    }
    case 'job.failed':
      return `${tag(event.jobId, style)} ${style.red('failed')}: ${oneLine(event.message)}`;
    case 'job.abandoned':
      return `${tag(event.jobId, style)} ${style.yellow('abandoned')}: ${oneLine(event.message)}`;
    case 'job.delayed':
      return `${tag(event.jobId, style)} ${style.yellow('delayed')}: ${oneLine(event.message)}`;
    case 'job.stopping':
      return `${tag(event.jobId, style)} ${style.yellow('stopping')} (${event.cause}${event.detail ? `: ${event.detail}` : ''})`;
    case 'job.log':
      return `${tag(event.jobId, style)} ${event.level === 'error' ? style.red('!') : style.yellow('!')} ${oneLine(event.message)}`;
    case 'worker.error':
      return `${style.yellow('! worker:')} ${oneLine(event.message)}`;
    case 'worker.closed':
      return style.dim(`worker ${event.worker} closed`);
  }
}
