import { errnoCode } from '@hankweave/durable-io';
import { HankweaveError } from '@hankweave/types';

/** Reports a failure: `what` failed because of `error` (the event bus's `onError`). */
export type FailureReporter = (error: unknown, what: string) => void;

const ERRNO_PATTERN = /^E[A-Z0-9]+$/;

/**
 * The errno behind `error`, looking through wrappers: a `JournalError` or `StateError` records it
 * in `details.errno` or keeps the system error as its `cause`. Undefined for other failures.
 */
export function errnoBehind(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (HankweaveError.is(current)) {
      const recorded = (current.details as { errno?: unknown }).errno;
      if (typeof recorded === 'string' && ERRNO_PATTERN.test(recorded)) return recorded;
    } else {
      const code = errnoCode(current);
      if (code && ERRNO_PATTERN.test(code)) return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Keeps one failing file system from flooding the log: a full disk fails every journal append
 * and every state save, hundreds per codon. The first failure of each kind and errno in a codon
 * is reported as it happens, naming the errno; the later ones are only counted, and the count is
 * reported once when the codon changes or on {@link flush}. Failures without an errno (a bug, an
 * invalid event) are each reported: they differ from one another.
 */
export class RepeatedFailures {
  readonly #report: FailureReporter;
  /** Per `scope \0 kind \0 errno`: failures counted since the last report of the count. */
  readonly #counts = new Map<string, number>();
  #scope = '';

  constructor(report: FailureReporter) {
    this.#report = report;
  }

  /** The codon the next failures belong to; a new one reports the counts of the previous. */
  enter(scope: string): void {
    if (scope === this.#scope) return;
    this.flush();
    this.#scope = scope;
  }

  /** The codon failures are attributed to now (captured when an append starts). */
  get scope(): string {
    return this.#scope;
  }

  /** Reports `error` (a failure of `kind`, e.g. "journal append of x") or counts a repeat. */
  fail(error: unknown, kind: string, what: string, scope = this.#scope): void {
    const errno = errnoBehind(error);
    if (!errno) {
      this.#report(error, what);
      return;
    }
    const key = `${scope}\0${kind}\0${errno}`;
    const count = this.#counts.get(key);
    if (count !== undefined) {
      this.#counts.set(key, count + 1);
      return;
    }
    this.#counts.set(key, 0);
    const message = error instanceof Error ? error.message : String(error);
    const said = message.includes(errno) ? message : `${message} (${errno})`;
    this.#report(
      new Error(
        `${said}; further ${errno} failures of ${kind}${scope ? ` in codon ${scope}` : ''} are counted, not repeated`,
        { cause: error },
      ),
      what,
    );
  }

  /** Reports the repeats counted so far, one line per kind and errno, and starts counting anew. */
  flush(): void {
    for (const [key, count] of this.#counts) {
      if (count === 0) continue;
      const [scope, kind, errno] = key.split('\0') as [string, string, string];
      this.#counts.set(key, 0);
      this.#report(
        new Error(`${errno} again, ${count} more time(s) (the first is reported above)`),
        `${kind}${scope ? ` in codon ${scope}` : ''}`,
      );
    }
  }
}
