import { join } from 'node:path';
import type { AgentOutcome } from '@hankweave/harness';
import type { LoopIterationRecord } from '@hankweave/sessions';
import { isoSeconds } from '@hankweave/sessions';
import type { CodonAttempt } from '../codon/codon-attempt.js';
import type { BuiltPrompts } from '../prompt/prompt-builder.js';
import { emit, reportError } from '../runtime/runtime-context.js';
import {
  type DecisionFileBaseline,
  decisionFileBaseline,
  decisionInstructions,
  readReportedDecision,
} from './loop-decision.js';
import { countEntries, prepareProgressFile, progressInstructions } from './progress-notes.js';
import { loopOfEntry, type ProgressFileSpec, progressFileOf } from './session-names.js';
import { threadHistory } from './thread-history.js';

// The seed-004 side of one codon attempt: the loop iteration it opens, the progress file it is
// told about, and the plateau decision it reports.

interface AttemptSession {
  decisionBaseline?: DecisionFileBaseline;
  progress?: { spec: ProgressFileSpec; file: string; entriesBefore: number };
}
const sessions = new WeakMap<CodonAttempt, AttemptSession>();

const plateauLoopOf = (attempt: CodonAttempt) => {
  const loop = loopOfEntry(attempt.context.config, attempt.entry);
  return loop?.terminateOn.type === 'plateau' ? loop : undefined;
};

/**
 * A codon attempt began: the pipeline state shows its stage running, and the first codon of a
 * loop iteration opens the iteration in the loop's session files.
 */
export async function openCodonSession(attempt: CodonAttempt): Promise<void> {
  const { context, entry } = attempt;
  void context.sessions.syncPipeline(context.store.state);
  const loopContext = entry.loopContext;
  const loop = loopOfEntry(context.config, entry);
  if (!loop || !loopContext || loopContext.codonIndexInLoop !== 0) return;
  await context.sessions.iterationStarting(loop, loopContext.iteration + 1);
}

/**
 * Just before the agent starts: remembers result.json as it is (plateau loops), creates the
 * progress file when missing, and tells a fresh agent about both. Returns the prompts to use.
 */
export async function beforeAgent(
  attempt: CodonAttempt,
  prompts: BuiltPrompts,
): Promise<BuiltPrompts> {
  const { context, entry, codon } = attempt;
  const state: AttemptSession = {};
  sessions.set(attempt, state);
  const notes: string[] = [];
  const fresh = codon.continuationMode !== 'continue-previous';
  const spec = progressFileOf(context.config, entry, context.layout.executionDir);
  if (spec) {
    const file = join(context.layout.agentRoot, spec.relativePath);
    try {
      state.progress = { spec, file, entriesBefore: await prepareProgressFile(file, spec) };
      if (fresh) notes.push(progressInstructions(spec));
    } catch (error) {
      context.log.warn(`Cannot create the progress file ${file}: ${(error as Error).message}`);
    }
  }
  const loop = plateauLoopOf(attempt);
  if (loop) {
    state.decisionBaseline = await decisionFileBaseline(context.layout.agentRoot);
    const last = entry.loopContext?.codonIndexInLoop === loop.codons.length - 1;
    if (last) notes.push(decisionInstructions(loop.name));
  }
  if (notes.length === 0) return prompts;
  return { ...prompts, prompt: [prompts.prompt.trimEnd(), ...notes].join('\n\n') };
}

/**
 * After the agent of a codon ended (before its loop decides whether to go on): the progress
 * file's new entry is checked, and in a plateau loop the decision is read and recorded in the
 * loop's history (on disk before `loop.iteration.decision` goes out). The last codon of an
 * iteration without any decision records `missing`, counted as "continue", with a warning.
 */
export async function afterAgent(
  attempt: CodonAttempt,
  status: 'completed' | 'failed' | 'skipped',
  outcome: AgentOutcome | undefined,
): Promise<void> {
  const { context, entry, codonId } = attempt;
  const state = sessions.get(attempt);
  if (state?.progress && status === 'completed') {
    const after = await countEntries(state.progress.file);
    if (after <= state.progress.entriesBefore) {
      warn(
        attempt,
        'PROGRESS_NOT_APPENDED',
        `Codon ${codonId} did not append an entry to its progress file ${state.progress.spec.relativePath}`,
      );
    }
  }
  const loopContext = entry.loopContext;
  const anyLoop = loopOfEntry(context.config, entry);
  if (!anyLoop || !loopContext) return;
  const iteration = loopContext.iteration + 1;
  const loop = plateauLoopOf(attempt);
  if (!loop) {
    // Other loops keep the seed's history too, one plain record per iteration that ran.
    if (loopContext.codonIndexInLoop === anyLoop.codons.length - 1 && status !== 'failed') {
      await context.sessions.recordIteration(anyLoop.id, {
        iteration,
        timestamp: isoSeconds(context.clock()),
        plateau: false,
        reasoning: null,
        codon_id: codonId,
      });
    }
    return;
  }
  const reported =
    status === 'completed' && state
      ? await readReportedDecision(
          context.layout.agentRoot,
          state.decisionBaseline,
          outcome?.resultText,
        )
      : { kind: 'none' as const };
  const lastOfIteration = loopContext.codonIndexInLoop === loop.codons.length - 1;
  const decided = threadHistory(context, loop.id).some(
    (record) => record.iteration === iteration && record.decision !== 'missing',
  );
  if (reported.kind === 'invalid') {
    warn(
      attempt,
      'LOOP_DECISION_INVALID',
      `Codon ${codonId} wrote an unreadable decision (${reported.problem}); it counts as "continue"`,
    );
  }
  if (reported.kind !== 'decision' && (!lastOfIteration || decided)) return;
  const decision = reported.kind === 'decision' ? reported.decision : undefined;
  if (!decision) {
    warn(
      attempt,
      'LOOP_DECISION_MISSING',
      `Codon ${codonId} reported no plateau decision (no PLATEAU: line, no result.json); iteration ${iteration} of loop ${loop.id} counts as "continue"`,
    );
  }
  const record: LoopIterationRecord = {
    iteration,
    timestamp: isoSeconds(context.clock()),
    plateau: decision?.decision === 'stop',
    reasoning: decision?.reason ?? null,
    decision: decision?.decision ?? 'missing',
    source: decision?.source ?? null,
    codon_id: codonId,
    // Ties the decision to this execution: one that a rollback or a resume cuts off never counts.
    run_id: attempt.runId,
  };
  await context.sessions.recordIteration(loop.id, record);
  emit(context, 'loop.iteration.decision', {
    loopId: loop.id,
    iteration: loopContext.iteration,
    codonId,
    decision: record.decision ?? 'missing',
    plateau: record.plateau,
    reason: record.reasoning,
    source: record.source ?? null,
  });
}

function warn(attempt: CodonAttempt, code: string, message: string): void {
  reportError(attempt.context, message, { severity: 'warning', codon: attempt.codonId, code });
}
