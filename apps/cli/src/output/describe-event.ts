import { formatCost, formatCount, formatDuration, oneLine, shortSha, truncate } from './format.js';

/** An event as read from the journal or the bus; unknown types (newer runtimes) are allowed. */
export interface AnyEvent {
  id?: string;
  type: string;
  timestamp: string;
  data: unknown;
}

type Data = Record<string, unknown>;
const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** The codon an event is about, when it names one. */
export function eventCodonId(event: AnyEvent): string | undefined {
  const data = (event.data ?? {}) as Data;
  return typeof data.codonId === 'string' ? data.codonId : undefined;
}

/** A short description of a tool call: the command, the file, the pattern. */
export function describeToolCall(toolName: string, input: unknown): string {
  const args = (input ?? {}) as Data;
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

/** One line of text for an event (without time and codon, which the caller adds). */
export function describeEvent(event: AnyEvent): string {
  const d = (event.data ?? {}) as Data;
  switch (event.type) {
    case 'codon.started':
      return `started ${str(d.codonName)} (session ${str(d.sessionId).slice(0, 8)})`;
    case 'codon.completed': {
      const reason = (d.failureReason as Data | undefined)?.message;
      if (d.success)
        return `completed in ${formatDuration(num(d.duration))}, ${formatCost(num(d.cost))}`;
      return `failed after ${formatDuration(num(d.duration))}${reason ? `: ${oneLine(str(reason))}` : ''}${d.failureIgnored ? ' (ignored: onFailure=ignore)' : ''}`;
    }
    case 'rig.output':
      return `rig ${str(d.stream)}: ${str(d.line)}`;
    case 'rig.setup.completed':
      return `rig setup done: ${num(d.commandCount)} operation(s) in ${formatDuration(num(d.durationMs))}`;
    case 'rig.setup.failed':
      return `rig setup failed (${str(d.failureType)}${d.exitCode !== undefined ? `, exit ${str(d.exitCode)}` : ''})${d.ignored ? ', ignored' : ''}`;
    case 'assistant.action':
      if (d.action === 'tool_use') return `tool ${describeToolCall(str(d.toolName), d.toolInput)}`;
      return `${d.action === 'thinking' ? 'thinks' : 'says'}: ${oneLine(str(d.content))}`;
    case 'tool.result':
      return `${str(d.toolName)} ${d.isError ? 'failed' : 'done'} in ${formatDuration(num(d.executionTimeMs))}${d.isError ? `: ${oneLine(str(d.result))}` : ''}`;
    case 'file.updated':
      return `${str(d.action)} ${str(d.path)}`;
    case 'filetree.updated':
      return `file tree: ${Array.isArray(d.tree) ? d.tree.length : 0} top-level entries`;
    case 'token.usage':
      return `tokens: ${formatCount(num(d.inputTokens))} in, ${formatCount(num(d.outputTokens))} out, ${formatCost(num(d.totalCost))}`;
    case 'info':
      return oneLine(str(d.message));
    case 'error':
      return `error (${str(d.severity) || 'error'}): ${oneLine(str(d.message))}`;
    case 'state.transition':
      return describeTransition(d);
    case 'state.snapshot':
      return `snapshot: ${Array.isArray(d.completedCodons) ? d.completedCodons.length : 0} completed, total ${formatCost(num(d.totalCost))}`;
    case 'server.idle':
      return `idle (${str(d.reason)}): ${str(d.message)}`;
    case 'loop.iteration.completed':
      return `loop ${str(d.loopId)} iteration ${num(d.iteration)} done${d.isFinal ? ` (final${d.terminationReason ? `: ${str(d.terminationReason)}` : ''})` : ''}`;
    case 'rollback.started':
      return `rollback started: to ${str(d.toCodon) || 'initial'} (${str(d.checkpointType)}) ${shortSha(str(d.toCheckpoint))}`;
    case 'rollback.progress':
    case 'rollback.codonCheckpoint':
      return `rollback: ${oneLine(str(d.message))}`;
    case 'rollback.rigCleanup':
      return `rollback: rig cleanup ${str(d.status)} (${Array.isArray(d.directories) ? d.directories.join(', ') : ''})`;
    case 'rollback.archiveRestore':
      return `rollback: archive restore ${str(d.status)}`;
    case 'rollback.completed':
      return `rollback completed: at ${str(d.codonId) || 'initial'} (${str(d.checkpointType)}) ${shortSha(str(d.checkpoint))}, run ${str(d.toRun)}`;
    case 'checkpoint.list':
      return `${Array.isArray(d.checkpoints) ? d.checkpoints.length : 0} checkpoint(s)`;
    case 'budget.summary':
      return `budget summary: ${formatCost(num((d.totals as Data | undefined)?.actualDollars))}`;
    default:
      return truncate(oneLine(JSON.stringify(event.data ?? {})), 200);
  }
}

function describeTransition(d: Data): string {
  const kind = str(d.transitionType);
  const inner = ((d.transition as Data | undefined)?.data ?? {}) as Data;
  if (kind === 'CodonTransitioned') return `${str(inner.from)} → ${str(inner.to)}`;
  if (kind === 'CheckpointCreated')
    return `checkpoint ${str(inner.checkpointType)} ${shortSha(str(inner.sha ?? inner.checkpointSha))}`;
  if (kind === 'RunStarted') return `run ${str(inner.runId)} started`;
  return kind;
}

/** Whether the plain (non-TTY) progress shows an event: the ones a person follows a run by. */
export function isProgressEvent(event: AnyEvent): boolean {
  const d = (event.data ?? {}) as Data;
  switch (event.type) {
    case 'token.usage':
    case 'filetree.updated':
    case 'state.snapshot':
    case 'checkpoint.list':
      return false;
    case 'assistant.action':
      return d.action !== 'thinking';
    case 'tool.result':
      return d.isError === true;
    case 'file.updated':
      return (d.source as Data | undefined)?.kind !== 'codon-start';
    case 'state.transition':
      return d.transitionType === 'CheckpointCreated';
    case 'info':
      // codon.started already says it, with the session id.
      return !String(d.message ?? '').startsWith('Started codon ');
    default:
      return true;
  }
}
