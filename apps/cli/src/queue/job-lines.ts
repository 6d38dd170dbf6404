import type { JobSummary } from '@hankweave/queue';
import { dateTime, formatCost, oneLine, truncate } from '../output/format.js';
import { tableLines } from '../output/table.js';
import type { Style } from '../output/terminal.js';

const HEADERS = ['ID', 'STATUS', 'HANK', 'PROGRESS', 'COST', 'WORKER', 'SUBMITTED'];

/** What a job has done so far, in a few words. */
export function progressText(job: JobSummary): string {
  if (job.status === 'completed' && job.result) {
    const done = job.result.codons.filter((codon) => codon.status === 'completed').length;
    return `${done}/${job.result.codons.length} codons`;
  }
  if (job.status === 'failed') return truncate(oneLine(job.failedReason ?? 'failed'), 60);
  const progress = job.progress;
  if (!progress) return '-';
  if (job.status === 'delayed' && progress.phase === 'locked') return 'waiting for runtime.lock';
  if (job.status === 'delayed' && progress.phase === 'requeued') return 'requeued (worker stopped)';
  const done = `${progress.completed} done`;
  const failed = progress.failed > 0 ? `, ${progress.failed} failed` : '';
  const running = progress.current ? ` · running ${progress.current}` : '';
  return `${done}${failed}${running}`;
}

/** One line per job, newest first, columns sized to their content, the status coloured. */
export function jobLines(jobs: readonly JobSummary[], style: Style): string[] {
  const rows = jobs.map((job) => [
    job.id,
    job.status,
    job.hankName,
    progressText(job),
    job.cost === null ? '-' : formatCost(job.cost),
    job.worker ?? '-',
    job.submittedAt ? dateTime(job.submittedAt) : '-',
  ]);
  return tableLines(HEADERS, rows, style, {
    column: 1,
    paint: (text) => colourStatus(text, style),
  });
}

function colourStatus(text: string, style: Style): string {
  const status = text.trim();
  if (status === 'completed') return style.green(text);
  if (status === 'failed') return style.red(text);
  if (status === 'active') return style.cyan(text);
  if (status === 'delayed') return style.yellow(text);
  return text;
}
