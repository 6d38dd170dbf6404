import type { EventEnvelope, HankweaveEvent } from '@hankweave/types';
import {
  codonCompleted,
  codonExtended,
  codonStarted,
  endCodon,
  fileUpdated,
} from './mapping/codon-spans.js';
import { errorEvent } from './mapping/error-events.js';
import { rigOutput, rigSetup } from './mapping/rig-spans.js';
import {
  endOpenRollback,
  rollbackCompleted,
  rollbackStarted,
  rollbackStep,
} from './mapping/rollback-spans.js';
import { endRun, loopEvent } from './mapping/run-spans.js';
import {
  endOpenSentinelCalls,
  sentinelCall,
  sentinelError,
  sentinelLoaded,
  sentinelOutput,
  sentinelUnloaded,
} from './mapping/sentinel-spans.js';
import { SpanBook } from './mapping/span-book.js';
import { stateTransition } from './mapping/state-transitions.js';
import { assistantAction, closeTurn, tokenUsage, toolResult } from './mapping/turn-spans.js';
import { obj } from './mapping/values.js';
import type { SpanMapperOptions, SpanRecord } from './span-record.js';

// The mapping's other public names: index.ts exports them from here with the mapper, as one
// list, since its export snapshot records that list's order.
export { providerOf } from './mapping/provider.js';
export { usageAttributes } from './mapping/usage.js';
export {
  MAX_CONTENT_LENGTH,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanEventRecord,
  type SpanMapperOptions,
  type SpanRecord,
} from './span-record.js';

type AnyEvent = HankweaveEvent | EventEnvelope;

/**
 * Turns hankweave's event stream (a journal, read from the start, or the live events of a
 * runtime) into a span tree, one event at a time:
 *
 * ```
 * run                                  RunStarted … RunCompleted | RunFailed
 * ├─ codon <id>                        CodonStarted … codon.completed (one span per attempt)
 * │  ├─ rig setup                      rig.setup.completed | rig.setup.failed
 * │  ├─ chat <model>                   one model request: token.usage and its actions
 * │  ├─ execute_tool <name>            assistant.action tool_use … tool.result
 * │  ├─ sentinel <id>                  sentinel.triggered … sentinel.output | sentinel.error
 * │  └─ checkpoint <type>              CheckpointCreated
 * └─ rollback                          rollback.started … rollback.completed
 * ```
 *
 * Pure: the only inputs are the events (their timestamps give every time) and the options; the
 * outputs are the `onStart`/`onEnd` calls. Unknown event types are ignored, so journals of newer
 * runtimes map too. Each family of events is mapped in its own module under `mapping/`.
 */
export class SpanMapper {
  private readonly book: SpanBook;

  constructor(options: SpanMapperOptions = {}) {
    this.book = new SpanBook(options);
  }

  /** Maps one event. Events must come in journal order. */
  push(event: AnyEvent): void {
    const book = this.book;
    const t = book.advanceClock(event.timestamp);
    const data = obj(event.data);
    // Transitions move these marks themselves (a checkpoint needs the codon's previous one).
    if (event.type !== 'state.transition') {
      const codon = book.codonOf(data);
      if (codon) {
        // A model request's span ends at the first event of its codon that is not its action.
        if (event.type !== 'assistant.action') closeTurn(book, codon);
        codon.lastEventMs = t;
      }
      const run = book.currentRun();
      if (run) run.lastEventMs = t;
    }
    switch (event.type) {
      case 'state.transition':
        stateTransition(book, data, t);
        break;
      case 'codon.started':
        codonStarted(book, data);
        break;
      case 'token.usage':
        tokenUsage(book, data, t);
        break;
      case 'assistant.action':
        assistantAction(book, data, t);
        break;
      case 'tool.result':
        toolResult(book, data, t);
        break;
      case 'rig.output':
        rigOutput(book, data, t);
        break;
      case 'rig.setup.completed':
      case 'rig.setup.failed':
        rigSetup(book, event.type, data, t);
        break;
      case 'file.updated':
        fileUpdated(book, data);
        break;
      case 'codon.extended':
        codonExtended(book, data, t);
        break;
      case 'codon.completed':
        codonCompleted(book, data, t);
        break;
      case 'sentinel.loaded':
        sentinelLoaded(book, data);
        break;
      case 'sentinel.triggered':
        sentinelCall(book, data, t);
        break;
      case 'sentinel.output':
        sentinelOutput(book, data, t);
        break;
      case 'sentinel.error':
        sentinelError(book, data, t);
        break;
      case 'sentinel.unloaded':
        sentinelUnloaded(book, data, t);
        break;
      case 'rollback.started':
        rollbackStarted(book, data, t);
        break;
      case 'rollback.progress':
      case 'rollback.codonCheckpoint':
      case 'rollback.rigCleanup':
      case 'rollback.archiveRestore':
        rollbackStep(book, event.type, data, t);
        break;
      case 'rollback.completed':
        rollbackCompleted(book, data, t);
        break;
      case 'error':
        errorEvent(book, data, t);
        break;
      case 'loop.iteration.completed':
      case 'loop.iteration.decision':
        loopEvent(book, event.type, data, t);
        break;
      default:
        break;
    }
  }

  /**
   * Ends every span still open (a journal cut short, a crashed run, the end of a live run) at the
   * time of its last event, marked `hankweave.span.incomplete`.
   */
  finish(): void {
    const book = this.book;
    endOpenSentinelCalls(book);
    for (const codon of [...book.codons.values()])
      endCodon(book, codon, undefined, !codon.terminal);
    endOpenRollback(book);
    for (const run of [...book.runs.values()]) endRun(book, run, run.lastEventMs, true);
  }
}

/**
 * The span tree of a whole event stream (a journal read from its start): every span, in the
 * order they end, the open ones ended at their last event and marked incomplete.
 */
export function mapEventsToSpans(
  events: Iterable<AnyEvent>,
  options: Omit<SpanMapperOptions, 'onEnd'> = {},
): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const mapper = new SpanMapper({ ...options, onEnd: (span) => spans.push(span) });
  for (const event of events) mapper.push(event);
  mapper.finish();
  return spans;
}
