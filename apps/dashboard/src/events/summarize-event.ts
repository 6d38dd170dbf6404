/**
 * One line of text per event for the live tail and the codon view. Events come from the journal of
 * any version, so data is read defensively: a field missing or of another shape falls back to the
 * event's JSON instead of throwing in the middle of a render.
 */
import type { HankweaveEvent } from '@hankweave/types';
import { formatDuration, formatTokens, formatUsd, shortSha } from '../format/format.js';

type Data = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Collapses whitespace and cuts to `max` characters. */
export function oneLine(value: string, max = 160): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The codon id an event names, if any. */
export function eventCodonId(event: { data: unknown }): string | undefined {
  const data = event.data as Data | null;
  return typeof data === 'object' && data !== null && typeof data.codonId === 'string'
    ? data.codonId
    : undefined;
}

/** `Bash $ npm test`, `Edit src/a.ts`, `Grep TODO`: what a tool call was about. */
export function describeToolCall(toolName: string, input: unknown): string {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Data;
  const command = text(args.command);
  if (command !== '') return `${toolName} $ ${oneLine(command, 120)}`;
  const target = text(args.file_path) || text(args.path) || text(args.pattern) || text(args.url);
  const shown = target.includes('/agentRoot/')
    ? target.slice(target.indexOf('/agentRoot/') + 11)
    : target;
  return shown === '' ? toolName : `${toolName} ${oneLine(shown, 120)}`;
}

/** A branch as the timeline names its lane: `review/left`. */
function branchLabel(value: unknown): string {
  const branch = (typeof value === 'object' && value !== null ? value : {}) as Data;
  return text(branch.blockId) && text(branch.branchId)
    ? `${text(branch.blockId)}/${text(branch.branchId)}`
    : '';
}

/**
 * The codons a `state.snapshot` says are running, each with its parallel branch: `l1
 * (review/left), r1 (review/right)`. A parallel block runs several (`activeCodons`, issue 36); a
 * journal of the original names one (`currentCodon`, a record or a bare id). Empty: none runs.
 */
function runningCodons(d: Data): string {
  const running = Array.isArray(d.activeCodons)
    ? d.activeCodons
    : d.currentCodon
      ? [d.currentCodon]
      : [];
  return running
    .map((entry: unknown) => {
      if (typeof entry === 'string') return entry;
      const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Data;
      const lane = branchLabel(record.branch);
      return `${text(record.codonId) || '?'}${lane ? ` (${lane})` : ''}`;
    })
    .join(', ');
}

function describe(type: string, d: Data): string | undefined {
  switch (type) {
    case 'codon.started':
      return `started ${text(d.codonName) || text(d.codonId)}`;
    case 'codon.completed': {
      const reason = text((d.failureReason as Data | undefined)?.message);
      const cost = formatUsd(num(d.cost));
      const skipReason = text(d.skipReason);
      if (d.success !== true && skipReason !== '') return `skipped: ${oneLine(skipReason)}`;
      return d.success === true
        ? `completed in ${formatDuration(num(d.duration))}, ${cost}`
        : `failed after ${formatDuration(num(d.duration))}${reason ? `: ${oneLine(reason)}` : ''}`;
    }
    case 'codon.extended':
      return `extension ${num(d.extensionNumber) ?? '?'}, ${formatUsd(num(d.cumulativeCost))} so far`;
    case 'assistant.action':
      return d.action === 'tool_use'
        ? describeToolCall(text(d.toolName), d.toolInput)
        : `${d.action === 'thinking' ? 'thinks' : 'says'}: ${oneLine(text(d.content))}`;
    case 'tool.result':
      return `${text(d.toolName)} ${d.isError === true ? 'failed' : 'done'} in ${formatDuration(num(d.executionTimeMs))}${d.isError === true ? `: ${oneLine(text(d.result), 100)}` : ''}`;
    case 'token.usage':
      return `tokens ${formatTokens(num(d.inputTokens))} in / ${formatTokens(num(d.outputTokens))} out, ${formatUsd(num(d.totalCost))}`;
    case 'file.updated':
      return `${text(d.action)} ${text(d.path)}`;
    case 'filetree.updated':
      return `file tree: ${Array.isArray(d.tree) ? d.tree.length : '?'} top-level entries`;
    case 'state.snapshot': {
      const running = runningCodons(d);
      return `snapshot: ${Array.isArray(d.completedCodons) ? d.completedCodons.length : '?'} codons done${running ? `, running ${running}` : ''}, ${formatUsd(num(d.totalCost))} total`;
    }
    case 'checkpoint.list':
      return `${Array.isArray(d.checkpoints) ? d.checkpoints.length : '?'} checkpoints`;
    case 'budget.summary':
      return `budget summary: ${formatUsd(num((d.totals as Data | undefined)?.actualDollars))} spent`;
    case 'rig.setup.completed':
      return `rig setup done in ${formatDuration(num(d.durationMs))}`;
    case 'rig.setup.failed':
      return `rig setup failed (${text(d.failureType)})${d.ignored === true ? ', ignored' : ''}`;
    case 'rig.output':
      return `rig ${text(d.stream)}: ${oneLine(text(d.line))}`;
    case 'info':
      return oneLine(text(d.message));
    case 'error':
      return `error (${text(d.severity) || 'error'}): ${oneLine(text(d.message))}`;
    case 'server.idle':
      return `idle: ${oneLine(text(d.message))}`;
    case 'state.transition':
      return `transition ${text(d.transitionType)}${d.codonId ? ` (${text(d.codonId)})` : ''}`;
    case 'loop.iteration.completed':
      return `loop ${text(d.loopId)} iteration ${num(d.iteration) ?? '?'} done${d.isFinal === true ? ' (final)' : ''}`;
    case 'rollback.started':
      return `rollback to ${text(d.toCodon) || 'start'} ${shortSha(text(d.toCheckpoint))}`;
    case 'rollback.completed':
      return `rollback done at ${text(d.codonId) || 'start'} ${shortSha(text(d.checkpoint))}, run ${text(d.toRun)}`;
    case 'sentinel.output':
      return `sentinel ${text(d.sentinelId)} #${num(d.triggerNumber) ?? '?'}: ${typeof d.content === 'string' ? oneLine(d.content, 100) : 'structured output'}`;
    case 'sentinel.loaded':
    case 'sentinel.triggered':
    case 'sentinel.unloaded':
      return `sentinel ${text(d.sentinelId)} ${type.slice('sentinel.'.length)}`;
    case 'sentinel.error':
      return `sentinel ${text(d.sentinelId)} ${text(d.errorType)}: ${oneLine(text(d.message))}`;
    default:
      return undefined;
  }
}

/** The line shown for an event (without time and codon; the caller adds those). */
export function summarizeEvent(
  event: Pick<HankweaveEvent, 'type' | 'data'> | { type: string; data: unknown },
): string {
  const data = event.data;
  const fallback = () => oneLine(JSON.stringify(data ?? {}), 200);
  if (typeof data !== 'object' || data === null) return fallback();
  return describe(event.type, data as Data) ?? fallback();
}

/** The tone of an event's line: failures red, completions green, the rest plain. */
export function eventTone(event: { type: string; data: unknown }): 'bad' | 'good' | 'plain' {
  const data = (event.data ?? {}) as Data;
  if (event.type === 'error' || event.type === 'sentinel.error') return 'bad';
  if (event.type === 'tool.result' && data.isError === true) return 'bad';
  if (event.type === 'codon.completed') return data.success === true ? 'good' : 'bad';
  return 'plain';
}
