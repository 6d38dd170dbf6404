import { emit, type RuntimeContext, reportError } from '../runtime/runtime-context.js';
import { containmentRecord, describeContainment } from './containment.js';

/** The `code` of the warning said at start when no sandbox is available. */
export const SANDBOX_UNAVAILABLE = 'SANDBOX_UNAVAILABLE';

/**
 * Says at start which containment this run has, once: an `info` event (with the record in its
 * `details`) for a sandbox or one turned off on purpose; for a machine without one, a single
 * warning line that says what to install (the run goes on with the deny rules and the guard).
 */
export function announceContainment(context: RuntimeContext): void {
  const { containment } = context;
  const record = containmentRecord(containment, context.clock().toISOString());
  if (containment.sandbox === 'none' && containment.hint !== undefined) {
    reportError(
      context,
      `No OS sandbox: ${containment.reason}; ${containment.hint}. Codons run with Claude Code's deny rules and the data guard only (--require-sandbox refuses instead)`,
      { severity: 'warning', code: SANDBOX_UNAVAILABLE, context: record },
    );
    return;
  }
  const message = `Containment: ${describeContainment(containment)}`;
  context.log.info(message);
  emit(context, 'info', { message, details: [record] });
  // Info, not a warning: fakes and replays start no process, and say nothing either way.
  if (containment.sandbox === 'bubblewrap' && context.harness.appliesSandbox !== true) {
    context.log.info(
      `The harness ${context.harness.name} does not say that it runs its agents in the sandbox: rig and beforeCopy commands are contained, its agent processes may not be`,
    );
  }
}
