import { eventCodonId } from '@hankweave/inspection';
import {
  EVENT_TYPES,
  type EventData,
  type EventEnvelope,
  type HankweaveEvent,
  isInterruption,
} from '@hankweave/types';
import { formatCost, formatCount, formatDuration, oneLine, shortSha, truncate } from './format.js';
import { runningCodonsLabel } from './lanes.js';
import { translateRuntimeMessage } from './runtime-words.js';

/**
 * An event as the CLI shows it: one of the typed {@link HankweaveEvent}s, or the bare envelope of
 * a type this version does not know. The journal checks only the envelope of what it reads, so a
 * journal written by a newer runtime yields such events; they are shown as JSON, never refused.
 */
export type CliEvent = HankweaveEvent | EventEnvelope;

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/**
 * True when the event is of a type this version knows, so `data` has its schema type. Data that is
 * not an object (a damaged line) counts as unknown: it is shown as JSON rather than read.
 */
export function isKnownEvent(event: CliEvent): event is HankweaveEvent {
  return KNOWN_TYPES.has(event.type) && typeof event.data === 'object' && event.data !== null;
}

export { eventCodonId };

// Tool inputs are whatever the agent sent (`toolInput` is `unknown` in the schema): read leniently.
type ToolInput = Partial<
  Record<
    | 'file_path'
    | 'path'
    | 'notebook_path'
    | 'command'
    | 'pattern'
    | 'url'
    | 'query'
    | 'description',
    unknown
  >
>;
const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

/** A short description of a tool call: the command, the file, the pattern. */
export function describeToolCall(toolName: string, input: unknown): string {
  const args: ToolInput = isRecord(input) ? input : {};
  const path = str(args.file_path ?? args.path ?? args.notebook_path);
  const detail =
    args.command !== undefined
      ? `$ ${oneLine(str(args.command))}`
      : path
        ? relativeToAgentRoot(path)
        : str(args.pattern ?? args.url ?? args.query ?? args.description);
  return detail ? `${toolName} ${detail}` : toolName;
}

/** Absolute paths inside an execution are shown from agentRoot on. */
function relativeToAgentRoot(path: string): string {
  const marker = '/agentRoot/';
  const index = path.indexOf(marker);
  return index >= 0 ? path.slice(index + marker.length) : path;
}

/** The JSON line an event without a description of its own is shown as. */
const asJson = (event: CliEvent): string =>
  truncate(oneLine(JSON.stringify(event.data ?? {})), 200);

/**
 * One line of text for an event (without time and codon, which the caller adds). A journal line
 * of a known type whose data lacks a field its schema requires (a damaged or foreign file) is
 * shown as JSON rather than ending the listing.
 */
export function describeEvent(event: CliEvent): string {
  if (!isKnownEvent(event)) return asJson(event);
  try {
    return describeKnownEvent(event);
  } catch {
    return asJson(event);
  }
}

function describeKnownEvent(event: HankweaveEvent): string {
  const { type, data } = event;
  switch (type) {
    case 'codon.started':
      return `started ${data.codonName} (session ${data.sessionId.slice(0, 8)})`;
    case 'codon.completed': {
      const reason = data.failureReason?.message;
      if (data.success)
        return `completed in ${formatDuration(data.duration)}, ${formatCost(data.cost)}`;
      if (data.skipReason) return `skipped: ${oneLine(data.skipReason)}`;
      if (isInterruption(data.failureReason))
        return `${oneLine(reason ?? 'Interrupted').replace(/^Interrupted/, 'interrupted')} (after ${formatDuration(data.duration)})`;
      return `failed after ${formatDuration(data.duration)}${reason ? `: ${oneLine(reason)}` : ''}${data.failureIgnored ? ' (ignored: onFailure=ignore)' : ''}`;
    }
    case 'rig.output':
      return `rig ${data.stream}: ${data.line}`;
    case 'rig.setup.completed':
      return `rig setup done: ${data.commandCount} operation(s) in ${formatDuration(data.durationMs)}`;
    case 'rig.setup.failed':
      return `rig setup failed (${data.failureType}${data.exitCode !== undefined ? `, exit ${data.exitCode}` : ''})${data.ignored ? ', ignored' : ''}`;
    case 'assistant.action':
      if (data.action === 'tool_use')
        return `tool ${describeToolCall(data.toolName ?? '', data.toolInput)}`;
      return `${data.action === 'thinking' ? 'thinks' : 'says'}: ${oneLine(data.content)}`;
    case 'tool.result':
      return `${data.toolName} ${data.isError ? 'failed' : 'done'} in ${formatDuration(data.executionTimeMs)}${data.isError ? `: ${oneLine(data.result)}` : ''}`;
    case 'file.updated':
      // The codon-start announcement lists every tracked file as `created` (reference §5.5 step
      // 3, kept on the wire for compatibility); to a reader most of them existed long before.
      return data.source?.kind === 'codon-start'
        ? `tracked ${data.path} (present at codon start)`
        : `${data.action} ${data.path}`;
    case 'filetree.updated':
      return `file tree: ${data.tree.length} top-level entries`;
    case 'token.usage':
      return `tokens: ${formatCount(data.inputTokens)} in, ${formatCount(data.outputTokens)} out, ${formatCost(data.totalCost)}`;
    case 'info':
      return oneLine(translateRuntimeMessage(data.message));
    case 'error':
      // `|| 'error'`: kept from before the events were typed, for journals of other versions.
      return `error (${data.severity || 'error'}): ${oneLine(data.message)}`;
    case 'state.transition':
      return describeTransition(data);
    case 'state.snapshot': {
      // A parallel block runs several codons at once: name each with its lane.
      const running = runningCodonsLabel(data);
      return `snapshot: ${data.completedCodons.length} completed${running ? `, running ${running}` : ''}, total ${formatCost(data.totalCost)}`;
    }
    case 'server.idle':
      return `idle (${data.reason}): ${translateRuntimeMessage(data.message)}`;
    case 'loop.iteration.completed':
      return `loop ${data.loopId} iteration ${data.iteration} done${data.isFinal ? ` (final${data.terminationReason ? `: ${data.terminationReason}` : ''})` : ''}`;
    case 'loop.iteration.decision':
      return `loop ${data.loopId} iteration ${data.iteration}: ${data.decision === 'stop' ? 'plateau' : data.decision}${data.reason ? ` (${oneLine(data.reason)})` : ''}${data.source ? ` [${data.source}]` : ''}`;
    case 'rollback.started':
      return `rollback started: to ${data.toCodon || 'initial'} (${data.checkpointType}) ${shortSha(data.toCheckpoint)}`;
    case 'rollback.progress':
    case 'rollback.codonCheckpoint':
      return `rollback: ${oneLine(data.message)}`;
    case 'rollback.rigCleanup':
      return `rollback: rig cleanup ${data.status} (${data.directories.join(', ')})`;
    case 'rollback.archiveRestore':
      return `rollback: archive restore ${data.status}`;
    case 'rollback.completed':
      return `rollback completed: at ${data.codonId || 'initial'} (${data.checkpointType}) ${shortSha(data.checkpoint)}, run ${data.toRun}${data.debris?.count ? `, ${data.debris.count} file(s) moved aside into ${data.debris.directory}` : ''}`;
    case 'checkpoint.list':
      return `${data.checkpoints.length} checkpoint(s)`;
    case 'budget.summary':
      return `budget summary: ${formatCost(data.totals.actualDollars)}`;
    case 'codon.extended':
      return `extended (${data.extensionNumber}): exhaustWithPrompt "${truncate(oneLine(data.exhaustWithPrompt), 60)}", ${formatCost(data.cumulativeCost)} so far`;
    case 'archive.completed':
      return `archived ${listPaths(data.archivedPaths)}`;
    case 'archive.partial':
      return `archived ${listPaths(data.archivedPaths)}; ${data.failedPaths.length} failed: ${truncate(data.failedPaths.map((failed) => `${failed.path} (${oneLine(failed.error)})`).join(', '), 120)}`;
    case 'sentinel.loaded':
      return `sentinel ${data.sentinelId} loaded: ${data.model}, ${data.triggerType} trigger, ${data.executionStrategy}${data.conversational ? ', conversational' : ''}${data.sourcePath ? ` (${data.sourcePath})` : ''}`;
    case 'sentinel.triggered':
      return `sentinel ${data.sentinelId} triggered (#${data.triggerNumber}, ${data.strategy}): ${data.eventCount} event(s), ${data.queueSize} queued`;
    case 'sentinel.output':
      return `sentinel ${data.sentinelId} output #${data.triggerNumber}: ${describeSentinelContent(data.content)} (${formatCost(data.cost)})`;
    case 'sentinel.error':
      return `sentinel ${data.sentinelId} ${data.errorType} (${data.consecutiveFailureCount} in a row${data.retriable ? ', retried' : ''}): ${oneLine(data.message)}`;
    case 'sentinel.unloaded':
      return `sentinel ${data.sentinelId} unloaded (${data.reason}${data.errorType ? `, ${data.errorType} error` : ''}): ${data.llmCallCount} call(s), ${formatCost(data.finalCost)}`;
    case 'server.ready':
      return `server ready on port ${data.port}: ${data.executionPath}`;
    case 'pong':
      return `pong: ${oneLine(data.message)}`;
    case 'history.batch':
      return `history: ${data.events.length} event(s)${data.hasMore ? ', more to come' : ''}`;
    case 'incomplete.codon':
      return `incomplete codon ${data.codonName}: ${oneLine(data.message)}`;
    default:
      return asJson(event);
  }
}

/** `3 path(s): a, b, c` (cut to stay one readable line). */
const listPaths = (paths: readonly string[]): string =>
  `${paths.length} path(s)${paths.length > 0 ? `: ${truncate(paths.join(', '), 120)}` : ''}`;

/**
 * A sentinel's output as one line: text as it is (cut), structured output by its field names, so
 * a reader sees what it produced without a JSON dump (`--json` has the whole content).
 */
function describeSentinelContent(content: unknown): string {
  if (typeof content === 'string') return `"${truncate(oneLine(content), 80)}"`;
  if (Array.isArray(content)) return `${content.length} item(s)`;
  if (isRecord(content)) {
    const keys = Object.keys(content);
    return keys.length > 0 ? `fields ${truncate(keys.join(', '), 80)}` : 'empty';
  }
  return content === undefined || content === null ? 'nothing' : String(content);
}

/** True for a JSON object (or array): something whose fields can be read. */
const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null;

/**
 * `transition.data` is `unknown` in the event schema (the event carries the state transition as
 * it was applied), so the three kinds shown are read leniently, like a tool input.
 */
function describeTransition(data: EventData<'state.transition'>): string {
  const kind = data.transitionType;
  const inner = isRecord(data.transition.data) ? data.transition.data : {};
  if (kind === 'CodonTransitioned') return `${str(inner.from)} → ${str(inner.to)}`;
  if (kind === 'CheckpointCreated')
    // `checkpointSha` is not a field of CheckpointCreated (its schema has `sha`); kept as before.
    return `checkpoint ${str(inner.checkpointType)} ${shortSha(str(inner.sha ?? inner.checkpointSha))}`;
  if (kind === 'RunStarted') return `run ${str(inner.runId)} started`;
  return kind;
}

/** Whether the plain (non-TTY) progress shows an event: the ones a person follows a run by. */
export function isProgressEvent(event: CliEvent): boolean {
  if (!isKnownEvent(event)) return true;
  try {
    return isProgressKnownEvent(event);
  } catch {
    return true;
  }
}

function isProgressKnownEvent(event: HankweaveEvent): boolean {
  const { type, data } = event;
  switch (type) {
    case 'token.usage':
    case 'filetree.updated':
    case 'state.snapshot':
    case 'checkpoint.list':
      return false;
    case 'assistant.action':
      return data.action !== 'thinking';
    case 'tool.result':
      return data.isError === true;
    case 'file.updated':
      return data.source?.kind !== 'codon-start';
    case 'state.transition':
      return data.transitionType === 'CheckpointCreated';
    case 'info':
      // codon.started already says it, with the session id.
      return !data.message.startsWith('Started codon ');
    default:
      return true;
  }
}
