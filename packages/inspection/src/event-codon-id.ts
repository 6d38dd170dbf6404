import type { EventEnvelope, HankweaveEvent } from '@hankweave/types';

/** The codon an event is about, when it names one (any type, unknown ones included, may). */
export function eventCodonId(event: HankweaveEvent | EventEnvelope): string | undefined {
  const { data } = event;
  return typeof data === 'object' &&
    data !== null &&
    'codonId' in data &&
    typeof data.codonId === 'string'
    ? data.codonId
    : undefined;
}
