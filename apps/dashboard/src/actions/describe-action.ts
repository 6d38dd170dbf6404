/**
 * What a confirmation dialog says before an action runs. Pure, so the wording of each consequence
 * is pinned by tests: the person confirming must know exactly what will change.
 */

import type { ActionName, CheckpointWire } from '../api/types.js';
import { formatDateTime, shortSha } from '../format/format.js';

export interface ActionContext {
  hankName: string;
  executionId: string;
  /** The execution directory, for the command that continues it. */
  executionDir?: string;
  /** The codon running now (skip, stop). */
  runningCodon?: { name: string; codonId: string };
  /** The rollback target: a checkpoint, or `last-success`. */
  checkpoint?: CheckpointWire | 'last-success';
}

export interface ActionDescription {
  title: string;
  /** One paragraph per consequence. */
  consequences: string[];
  confirmLabel: string;
  /** Shown in red: it ends or discards work. */
  destructive: boolean;
  /** The `target` of the POST body: a rollback's checkpoint, or the codon to skip or stop. */
  target?: string;
}

function codonLabel(context: ActionContext): string {
  const codon = context.runningCodon;
  return codon === undefined
    ? 'the running codon'
    : `the running codon “${codon.name}” (${codon.codonId})`;
}

/** Skip and stop act on the codon the dialog named: if it ended meanwhile, the runtime refuses. */
function codonTarget(context: ActionContext): { target?: string } {
  return context.runningCodon === undefined ? {} : { target: context.runningCodon.codonId };
}

function checkpointLabel(checkpoint: CheckpointWire): string {
  const codon = checkpoint.codonId === undefined ? '' : ` of codon ${checkpoint.codonId}`;
  return `checkpoint ${shortSha(checkpoint.sha)} (${checkpoint.type}${codon}, ${formatDateTime(checkpoint.time)})`;
}

export function describeAction(action: ActionName, context: ActionContext): ActionDescription {
  switch (action) {
    case 'skip':
      return {
        title: `Skip ${codonLabel(context)}?`,
        consequences: [
          `The agent of ${codonLabel(context)} is stopped (SIGTERM) and the codon ends as skipped, with a skipped checkpoint of its files so far.`,
          `The execution of ${context.hankName} then goes on with the next codon.`,
        ],
        confirmLabel: 'Skip codon',
        destructive: true,
        ...codonTarget(context),
      };
    case 'stop':
      return {
        title: `Force-stop ${codonLabel(context)}?`,
        consequences: [
          `The agent is killed at once and the codon is marked failed (“Force stopped: user request”).`,
          'Its failure policy decides what happens next: a retry, the next codon, or the end of the run.',
        ],
        confirmLabel: 'Force-stop codon',
        destructive: true,
        ...codonTarget(context),
      };
    case 'next':
      return {
        title: `Start the next codon of ${context.hankName}?`,
        consequences: [
          'The idle runtime starts the next codon of the plan. It refuses while a codon is still running or when no codon is left.',
        ],
        confirmLabel: 'Start next codon',
        destructive: false,
      };
    case 'rollback': {
      const checkpoint = context.checkpoint ?? 'last-success';
      const label =
        checkpoint === 'last-success'
          ? 'the completion checkpoint of its newest completed codon'
          : checkpointLabel(checkpoint);
      return {
        title: `Roll back ${context.hankName} to ${checkpoint === 'last-success' ? 'the last success' : shortSha(checkpoint.sha)}?`,
        consequences: [
          `The execution’s tracked files are restored to ${label}, and a new continuation run (reason rollback) starts after it.`,
          `Codons after that point run again when you continue it: hankweave --execution ${context.executionDir ?? '<its directory>'}.`,
          'Nothing is deleted: earlier runs, their checkpoints and the journal stay in the history.',
        ],
        confirmLabel: 'Roll back',
        destructive: true,
        target: checkpoint === 'last-success' ? 'last-success' : checkpoint.sha,
      };
    }
  }
}
