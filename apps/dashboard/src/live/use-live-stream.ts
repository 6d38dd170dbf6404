/**
 * Follows `GET /api/executions/:id/live` with an EventSource. Events are batched (one render per
 * 200 ms at most, however fast the agent talks) and only the newest `MAX_EVENTS` are kept.
 */
import type { HankweaveEvent } from '@hankweave/types';
import { useEffect, useRef, useState } from 'preact/hooks';
import { routes, urlOf } from '../api/routes.js';
import type { ExecutionDetail, ExecutionStatus } from '../api/types.js';
import { LIVE_EVENT_NAMES, parseLiveMessage } from './live-message.js';

export const MAX_EVENTS = 2000;
const FLUSH_MS = 200;

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'ended';

export interface LiveHandlers {
  onState: (detail: ExecutionDetail) => void;
  onEnd: (status: ExecutionStatus) => void;
}

export interface LiveStream {
  events: HankweaveEvent[];
  status: LiveStatus;
  /** Every event received, including the ones dropped from `events`. */
  received: number;
}

export function useLiveStream(
  executionId: string,
  enabled: boolean,
  handlers: LiveHandlers,
): LiveStream {
  const [events, setEvents] = useState<HankweaveEvent[]>([]);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [received, setReceived] = useState(0);
  const latest = useRef(handlers);
  latest.current = handlers;

  // Another execution (the page stays mounted when only the id changes): start a fresh tail.
  useEffect(() => {
    setEvents([]);
    setReceived(0);
  }, [executionId]);

  useEffect(() => {
    if (!enabled) return;
    setStatus('connecting');
    const source = new EventSource(urlOf(routes.live, { id: executionId }));
    let pending: HankweaveEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      setReceived((n) => n + batch.length);
      setEvents((old) => {
        const next = old.concat(batch);
        return next.length > MAX_EVENTS ? next.slice(next.length - MAX_EVENTS) : next;
      });
    };
    const onMessage = (message: MessageEvent<string>) => {
      const live = parseLiveMessage(message.type, message.data);
      if (live === undefined) return;
      if (live.kind === 'event') {
        pending.push(live.event);
        timer ??= setTimeout(flush, FLUSH_MS);
      } else if (live.kind === 'state') {
        latest.current.onState(live.detail);
      } else {
        // The run is over: stop EventSource's automatic reconnect.
        source.close();
        if (timer !== undefined) clearTimeout(timer);
        flush();
        setStatus('ended');
        latest.current.onEnd(live.status);
      }
    };
    for (const name of LIVE_EVENT_NAMES) source.addEventListener(name, onMessage);
    source.onopen = () => setStatus('open');
    source.onerror = () => {
      setStatus(source.readyState === EventSource.CLOSED ? 'ended' : 'reconnecting');
    };
    return () => {
      // Events already received are shown, not dropped with the stream.
      if (timer !== undefined) {
        clearTimeout(timer);
        flush();
      }
      source.close();
    };
  }, [executionId, enabled]);

  return { events, status, received };
}
