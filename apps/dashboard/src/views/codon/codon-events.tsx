/**
 * The agent's actions and tool results of one codon execution, paged from
 * `/events?codon=<key>` (100 at a time, "Load more" follows the cursor).
 */
import type { HankweaveEvent } from '@hankweave/types';
import { useEffect, useState } from 'preact/hooks';
import { type ApiRequestError, asApiRequestError } from '../../api/api-error.js';
import { getJson } from '../../api/client.js';
import { routes } from '../../api/routes.js';
import { ErrorPanel } from '../../components/feedback.js';
import { describeToolCall, eventTone, summarizeEvent } from '../../events/summarize-event.js';
import { type ThreadItem, threadEvents } from '../../events/thread-events.js';
import { formatClock, formatDuration } from '../../format/format.js';

const PAGE = 100;
const ACTION_TYPES = ['assistant.action', 'tool.result'];

interface Loaded {
  events: HankweaveEvent[];
  cursor?: string;
  hasMore: boolean;
  total: number;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2) ?? '';

function ToolResult({ result }: { result: HankweaveEvent<'tool.result'> }) {
  const data = result.data;
  return (
    <details class={`tool-result${data.isError ? ' tone-bad' : ''}`} data-testid="tool-result">
      <summary>
        {data.isError ? 'error' : 'result'} · {formatDuration(data.executionTimeMs)}
        {data.truncated && ` · cut from ${data.originalLength} characters`}
      </summary>
      <pre>{data.result}</pre>
    </details>
  );
}

function Item({ item }: { item: ThreadItem }) {
  const { event } = item;
  let body = <span class="text">{summarizeEvent(event)}</span>;
  if (event.type === 'assistant.action') {
    const data = event.data;
    if (data.action === 'tool_use') {
      body = (
        <div class="text">
          <details>
            <summary class="mono">
              {describeToolCall(data.toolName ?? 'tool', data.toolInput)}
            </summary>
            <pre>{json(data.toolInput)}</pre>
          </details>
          {item.result !== undefined && <ToolResult result={item.result} />}
        </div>
      );
    } else {
      body = <div class={`text message ${data.action}`}>{data.content}</div>;
    }
  } else if (event.type === 'tool.result') {
    body = (
      <div class="text">
        <span class="mono">{event.data.toolName}</span> <ToolResult result={event} />
      </div>
    );
  }
  return (
    <li
      class={`codon-event tone-${eventTone(event)}`}
      data-testid="codon-event"
      data-type={event.type}
      data-id={event.id}
    >
      <span class="time mono">{formatClock(event.timestamp)}</span>
      <span class="type mono">
        {event.type === 'assistant.action' ? event.data.action : event.type}
      </span>
      {body}
    </li>
  );
}

export function CodonEvents({ executionId, codonKey }: { executionId: string; codonKey: string }) {
  const [allTypes, setAllTypes] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<ApiRequestError>();
  const [busy, setBusy] = useState(false);

  const load = async (
    after: string | undefined,
    previous: HankweaveEvent[],
    signal?: AbortSignal,
  ) => {
    setBusy(true);
    try {
      const page = await getJson(
        routes.events,
        {
          id: executionId,
          codon: codonKey,
          after,
          limit: PAGE,
          types: allTypes ? undefined : ACTION_TYPES,
        },
        signal,
      );
      setLoaded({
        events: previous.concat(page.events),
        cursor: page.nextCursor,
        hasMore: page.hasMore,
        total: page.total,
      });
      setError(undefined);
    } catch (failure) {
      if (!signal?.aborted) setError(asApiRequestError(failure));
    } finally {
      if (!signal?.aborted) setBusy(false);
    }
  };

  useEffect(() => {
    const controller = new AbortController();
    setLoaded(undefined);
    void load(undefined, [], controller.signal);
    return () => controller.abort();
  }, [executionId, codonKey, allTypes]);

  return (
    <section class="panel" data-testid="codon-events">
      <div class="toolbar">
        <h3>Agent actions</h3>
        <label class="check">
          <input
            type="checkbox"
            data-testid="all-event-types"
            checked={allTypes}
            onChange={(event) => setAllTypes(event.currentTarget.checked)}
          />
          all event types
        </label>
        <span class="spacer" />
        {loaded !== undefined && (
          <span class="muted" data-testid="codon-event-count">
            {loaded.events.length} of {loaded.total}
          </span>
        )}
      </div>
      {error !== undefined && (
        <ErrorPanel error={error} onRetry={() => void load(loaded?.cursor, loaded?.events ?? [])} />
      )}
      {loaded !== undefined && loaded.events.length === 0 && (
        <p class="muted">No {allTypes ? '' : 'agent '}events recorded for this codon execution.</p>
      )}
      {loaded !== undefined && (
        <ol class="codon-events">
          {threadEvents(loaded.events).map((item) => (
            <Item key={item.event.id} item={item} />
          ))}
        </ol>
      )}
      {(loaded === undefined || loaded.hasMore) && (
        <button
          type="button"
          data-testid="load-more"
          disabled={busy || loaded === undefined}
          onClick={() => loaded !== undefined && void load(loaded.cursor, loaded.events)}
        >
          {busy ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
