/**
 * The live event tail: newest at the bottom, following as events arrive unless paused. Scrolling
 * up pauses (reading older lines should not be yanked away); Resume jumps back to the end.
 */
import type { HankweaveEvent } from '@hankweave/types';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { eventCodonId, eventTone, summarizeEvent } from '../events/summarize-event.js';
import { formatClock } from '../format/format.js';
import type { LiveStream } from './use-live-stream.js';

/** Lines drawn at once; older ones stay in memory but off screen. */
const SHOWN = 500;

function LiveLine({ event }: { event: HankweaveEvent }) {
  return (
    <li
      class={`live-line tone-${eventTone(event)}`}
      data-testid="live-event"
      data-type={event.type}
    >
      <span class="time">{formatClock(event.timestamp)}</span>
      <span class="type">{event.type}</span>
      <span class="codon">{eventCodonId(event) ?? ''}</span>
      <span class="text">{summarizeEvent(event)}</span>
    </li>
  );
}

export function LiveTail({ stream }: { stream: LiveStream }) {
  const list = useRef<HTMLOListElement>(null);
  const [paused, setPaused] = useState(false);
  // While paused, the lines on screen stay the ones seen at the moment of pausing.
  const [frozen, setFrozen] = useState<{ events: HankweaveEvent[]; received: number }>();
  const shown = (frozen?.events ?? stream.events).slice(-SHOWN);
  const waiting = frozen === undefined ? 0 : stream.received - frozen.received;

  useEffect(() => {
    setFrozen(paused ? { events: stream.events, received: stream.received } : undefined);
  }, [paused]);

  useLayoutEffect(() => {
    const element = list.current;
    if (element !== null && !paused) element.scrollTop = element.scrollHeight;
  }, [shown.length, paused, stream.events]);

  return (
    <section class="panel live-tail" data-testid="live-tail" data-status={stream.status}>
      <div class="toolbar">
        <h3>Live events</h3>
        <span class={`live-status ${stream.status}`} data-testid="live-status">
          {stream.status}
        </span>
        <span class="spacer" />
        {waiting > 0 && <span class="muted">{waiting} new while paused</span>}
        <button type="button" data-testid="live-pause" onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      <ol
        ref={list}
        class="live-lines mono"
        onScroll={(event) => {
          const element = event.currentTarget;
          const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
          if (!atBottom && !paused) setPaused(true);
        }}
      >
        {shown.length === 0 && <li class="muted">Waiting for events…</li>}
        {shown.map((event) => (
          <LiveLine key={event.id} event={event} />
        ))}
      </ol>
    </section>
  );
}
