import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import { findSymlinkOnPath } from '@hankweave/durable-io';
import { type ConditionFacts, evaluateCondition, type Lookup } from '@hankweave/hank';
import { executionThread } from '@hankweave/state';
import {
  type Condition,
  type ConditionStatus,
  conditionFiles,
  conditionSentinelIds,
  describeCondition,
  type ExecutionCodonEntry,
  hankLoops,
  isTerminalCodonStatus,
  type LoopConfig,
} from '@hankweave/types';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/** A codon the runtime skips without running it, and why. */
export interface ConditionSkip {
  /**
   * Whose `when` did not hold: the codon's own, its loop's (every codon of iteration 0), or its
   * parallel block's (every codon of every branch's first pass, and the block's merge).
   */
  of: 'codon' | 'loop' | 'block';
  /** `when (<condition>) does not hold: <the deciding fact>`. */
  reason: string;
}

/** A JSON file a condition reads is parsed only up to this size; above, it counts as absent. */
export const CONDITION_JSON_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The `when` gate before a codon that is not an automatic retry (the rules are the reference
 * interpreter's, `@hankweave/hank`): its loop's condition at the first codon of the loop's first
 * iteration, then its own. The later codons of a loop skipped by its condition are skipped too,
 * decided from the durable record of the loop's first codon, so a crash between two of those
 * skips cannot let the rest of the iteration run. Undefined: the codon may run.
 */
export async function conditionGate(
  context: RuntimeContext,
  entry: ExecutionCodonEntry,
): Promise<ConditionSkip | undefined> {
  const loop = loopOf(context, entry);
  const place = entry.loopContext;
  if (loop?.when && place?.iteration === 0) {
    if (place.codonIndexInLoop === 0) {
      const result = await evaluate(context, loop.when);
      if (!result.holds) return { of: 'loop', reason: result.reason };
    } else {
      const first = newestOnThread(context, `${loop.codons[0]?.id}#0`);
      if (first?.status === 'skipped' && first.conditionOf === 'loop') {
        return { of: 'loop', reason: String(first.skipReason ?? '') };
      }
    }
  }
  const when = entry.codon.when as Condition | undefined;
  if (!when) return undefined;
  const result = await evaluate(context, when);
  return result.holds ? undefined : { of: 'codon', reason: result.reason };
}

/** A parallel block's `when`, evaluated once before its first codon: the skip, if it does not hold. */
export async function blockConditionSkip(
  context: RuntimeContext,
  when: Condition,
): Promise<ConditionSkip | undefined> {
  const result = await evaluate(context, when);
  return result.holds ? undefined : { of: 'block', reason: result.reason };
}

const loopOf = (context: RuntimeContext, entry: ExecutionCodonEntry): LoopConfig | undefined =>
  hankLoops(context.config).find((item) => item.id === entry.loopContext?.loopId);

type LooseRecord = { status: string } & Record<string, unknown>;

/** The newest terminal record on the thread of a runtime codon id. */
function newestOnThread(context: RuntimeContext, codonId: string): LooseRecord | undefined {
  return executionThread(context.store.state).codons.find(
    ({ codon }) => codon.codonId === codonId && isTerminalCodonStatus(codon.status),
  )?.codon as LooseRecord | undefined;
}

async function evaluate(context: RuntimeContext, condition: Condition) {
  const facts = await readFacts(context, condition);
  const result = evaluateCondition(condition, facts);
  return {
    holds: result.holds,
    reason: `when (${describeCondition(condition)}) does not hold: ${result.reason}`,
  };
}

/** Reads what the condition names (files, sentinel outputs) once, then answers synchronously. */
async function readFacts(context: RuntimeContext, condition: Condition): Promise<ConditionFacts> {
  const root = context.layout.agentRoot;
  const paths = { exists: new Map<string, boolean>(), json: new Map<string, Lookup>() };
  for (const { key, path } of conditionFiles(condition)) {
    if (key === 'exists') paths.exists.set(path, await existsInside(root, path));
    else paths.json.set(path, await readJsonInside(root, path));
  }
  const sentinels = await newestSentinelOutputs(context, conditionSentinelIds(condition));
  const thread = executionThread(context.store.state).codons;
  return {
    statusOf: (codonId): ConditionStatus => {
      const newest = thread.find(
        ({ codon }) =>
          (codon.codonId.split('#')[0] ?? codon.codonId) === codonId &&
          isTerminalCodonStatus(codon.status),
      );
      return (newest?.codon.status as ConditionStatus | undefined) ?? 'not-run';
    },
    exists: (path) => paths.exists.get(path) ?? false,
    jsonFile: (path) => paths.json.get(path) ?? { absent: 'not read' },
    sentinelOutput: (id) => sentinels.get(id) ?? { absent: 'no structured output yet' },
  };
}

/**
 * True when the path exists in agentRoot. A link is itself (a dangling one exists); a path
 * reached through a linked directory does not exist for a condition: the runtime never looks
 * through a link an agent may have planted.
 */
async function existsInside(root: string, path: string): Promise<boolean> {
  if ((await findSymlinkOnPath(root, path, { includeLast: false })) !== undefined) return false;
  try {
    await lstat(join(root, path));
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON file of agentRoot, parsed; never through a link (any component), never a FIFO or a
 * device (opened non-blocking, regular files only), never more than
 * {@link CONDITION_JSON_MAX_BYTES}.
 */
async function readJsonInside(root: string, path: string): Promise<Lookup> {
  const link = await findSymlinkOnPath(root, path).catch(() => path);
  if (link !== undefined) return { absent: `not read: ${link} is a link` };
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(
      join(root, path),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    const stats = await handle.stat();
    if (!stats.isFile()) return { absent: 'not a regular file' };
    if (stats.size > CONDITION_JSON_MAX_BYTES) {
      return { absent: `larger than ${CONDITION_JSON_MAX_BYTES / 1024 / 1024} MiB` };
    }
    const text = await handle.readFile('utf8');
    try {
      return { value: JSON.parse(text) };
    } catch {
      // Not the parser's message: it quotes the file, which the reason must not carry into state.
      return { absent: 'not JSON' };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      absent: code === 'ENOENT' || code === 'ENOTDIR' ? 'not found' : `unreadable (${code})`,
    };
  } finally {
    await handle?.close();
  }
}

/** The newest structured `sentinel.output` of each id, from the execution's journal. */
async function newestSentinelOutputs(
  context: RuntimeContext,
  ids: readonly string[],
): Promise<Map<string, Lookup>> {
  const found = new Map<string, Lookup>();
  if (ids.length === 0) return found;
  await context.bus.settled();
  for await (const event of context.journal.getAllEvents()) {
    if (event.type !== 'sentinel.output') continue;
    const data = event.data as { sentinelId: string; outputType: string; content: unknown };
    if (ids.includes(data.sentinelId) && data.outputType === 'structured') {
      found.set(data.sentinelId, { value: data.content });
    }
  }
  return found;
}
