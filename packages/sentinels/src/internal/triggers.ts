import type { HankweaveEvent, SentinelTrigger } from '@hankweave/types';
import { allConditionsHold } from './conditions.js';

/** Decides, event by event, whether a sentinel fires and with which events. */
export interface TriggerMatcher {
  /** The events that make up the match, or `undefined` when the trigger does not fire. */
  match(event: HankweaveEvent): HankweaveEvent[] | undefined;
}

const SEQUENCE_HISTORY_LIMIT = 1000;

const typeMatches = (types: readonly string[], type: string): boolean =>
  types.includes('*') || types.includes(type);

/** Builds the matcher for a trigger config. */
export function createTriggerMatcher(trigger: SentinelTrigger): TriggerMatcher {
  if (trigger.type === 'event') {
    return {
      match: (event) =>
        typeMatches(trigger.on, event.type) && allConditionsHold(trigger.conditions, event.data)
          ? [event]
          : undefined,
    };
  }
  return new SequenceMatcher(trigger);
}

type SequenceTrigger = Extract<SentinelTrigger, { type: 'sequence' }>;
type PatternStep = SequenceTrigger['pattern'][number];

const stepMatches = (step: PatternStep, event: HankweaveEvent): boolean =>
  (step.type === '*' || step.type === event.type) && allConditionsHold(step.conditions, event.data);

/**
 * Stateful pattern matching over the events that pass `interestFilter`. The window holds only
 * events after the last match, so an event is never part of two matches. It is evaluated on every
 * interesting event (the original only evaluated on the filter's last type, which silently never
 * fires for patterns that end with another type); the first complete match always ends at the
 * current event, so this finds the same matches sooner.
 */
class SequenceMatcher implements TriggerMatcher {
  private window: HankweaveEvent[] = [];
  private readonly consecutive: boolean;

  constructor(private readonly trigger: SequenceTrigger) {
    this.consecutive = trigger.options?.consecutive ?? true;
  }

  match(event: HankweaveEvent): HankweaveEvent[] | undefined {
    if (!typeMatches(this.trigger.interestFilter.on, event.type)) return undefined;
    this.window.push(event);
    if (this.window.length > SEQUENCE_HISTORY_LIMIT) this.window.shift();
    const matched = this.consecutive ? this.matchTail() : this.matchWithGaps();
    if (matched) this.window = [];
    return matched;
  }

  private matchTail(): HankweaveEvent[] | undefined {
    const { pattern } = this.trigger;
    if (this.window.length < pattern.length) return undefined;
    const tail = this.window.slice(-pattern.length);
    return pattern.every((step, index) => stepMatches(step, tail[index] as HankweaveEvent))
      ? tail
      : undefined;
  }

  // Greedy in-order match; it must use the newest event, or it would have fired earlier.
  private matchWithGaps(): HankweaveEvent[] | undefined {
    const { pattern } = this.trigger;
    const matched: HankweaveEvent[] = [];
    for (const event of this.window) {
      const step = pattern[matched.length];
      if (step && stepMatches(step, event)) matched.push(event);
      if (matched.length === pattern.length) return matched;
    }
    return undefined;
  }
}
