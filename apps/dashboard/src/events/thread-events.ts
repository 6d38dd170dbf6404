/**
 * Pairs each tool call with its result (by `toolUseId`) so the codon view shows a result under the
 * call that asked for it; results whose call is not on the loaded pages stay on their own.
 */
import type { HankweaveEvent } from '@hankweave/types';

export interface ThreadItem {
  event: HankweaveEvent;
  /** The `tool.result` answering this `assistant.action` tool call, when loaded. */
  result?: HankweaveEvent<'tool.result'>;
}

const toolUseIdOf = (event: HankweaveEvent): string | undefined => {
  const id = (event.data as { toolUseId?: unknown }).toolUseId;
  return typeof id === 'string' ? id : undefined;
};

export function threadEvents(events: readonly HankweaveEvent[]): ThreadItem[] {
  const calls = new Map<string, ThreadItem>();
  const items: ThreadItem[] = [];
  for (const event of events) {
    const id = toolUseIdOf(event);
    if (event.type === 'tool.result' && id !== undefined) {
      const call = calls.get(id);
      if (call !== undefined && call.result === undefined) {
        call.result = event;
        continue;
      }
    }
    const item: ThreadItem = { event };
    if (event.type === 'assistant.action' && id !== undefined) calls.set(id, item);
    items.push(item);
  }
  return items;
}
