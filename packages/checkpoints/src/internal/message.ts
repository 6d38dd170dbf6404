import { CheckpointError } from '../errors.js';
import { CHECKPOINT_TYPES, type CheckpointType } from '../types.js';

/** Fields of a checkpoint message (seed 002 "Commit Message Format"). */
export interface CheckpointMessage {
  type: CheckpointType;
  codonId: string;
  runId: string;
  codonName: string;
  timestamp: string;
  durationMs: number | null;
}

const SUBJECT =
  /^(rig-setup|completed|error|skipped|exit|merge):(\S+) \[run:([^\]\s]+)\](?: (.*))?$/;

/** Folds line breaks and tabs so the name stays on the subject line. */
export function cleanName(name: string): string {
  return name.replace(/\s*[\r\n\t\v\f]+\s*/g, ' ').trim();
}

/** Throws `CHECKPOINT_INVALID_INPUT` for an unknown type, a bad codon id or a bad duration. */
export function assertMessageInput(type: string, codonId: string, durationMs: number): void {
  if (!(CHECKPOINT_TYPES as readonly string[]).includes(type)) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      `unknown checkpoint type ${JSON.stringify(type)}`,
      {
        details: { type, allowed: [...CHECKPOINT_TYPES] },
      },
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a codon id must be one printable word
  if (typeof codonId !== 'string' || codonId.length === 0 || /[\s\x00-\x1f\x7f]/.test(codonId)) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      `codon id ${JSON.stringify(codonId)} must be one word`,
      {
        details: { codonId },
      },
    );
  }
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      'durationMs must be a finite number >= 0',
      {
        details: { durationMs: String(durationMs) },
      },
    );
  }
}

/**
 * `{type}:{codonId} [run:{runId}] {codonName}`, a blank line, then the Codon / Status /
 * Timestamp / Duration body, ending with a newline as `git commit` would leave it.
 */
export function formatMessage(
  type: CheckpointType,
  codonId: string,
  runId: string,
  codonName: string,
  timestamp: Date,
  durationMs: number,
): string {
  const name = cleanName(codonName);
  const subject = `${type}:${codonId} [run:${runId}]${name ? ` ${name}` : ''}`;
  const body = [
    `Codon: ${name}`,
    `Status: ${type}`,
    `Timestamp: ${timestamp.toISOString()}`,
    `Duration: ${Math.round(durationMs)}ms`,
  ].join('\n');
  return `${subject}\n\n${body}\n`;
}

/** Parses a checkpoint message; undefined for other commits (the initial one, hand-made ones). */
export function parseMessage(message: string, commitTime: number): CheckpointMessage | undefined {
  const newline = message.indexOf('\n');
  const match = SUBJECT.exec(newline < 0 ? message : message.slice(0, newline));
  if (!match) return undefined;
  const line = (key: string): string | undefined => {
    const found = new RegExp(`^${key}: ?(.*)$`, 'm').exec(message);
    return found ? (found[1] as string) : undefined;
  };
  const duration = /^(\d+)ms$/.exec(line('Duration') ?? '');
  return {
    type: match[1] as CheckpointType,
    codonId: match[2] as string,
    runId: match[3] as string,
    codonName: line('Codon') ?? match[4] ?? '',
    timestamp: line('Timestamp') ?? new Date(commitTime * 1000).toISOString(),
    durationMs: duration ? Number(duration[1]) : null,
  };
}
