/** One parsed server-sent event. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Parses a complete SSE body (`event:` + `data:` frames separated by blank lines). */
export function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const fields = new Map<string, string>();
      for (const line of frame.split('\n')) {
        const colon = line.indexOf(':');
        fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      return {
        event: fields.get('event') ?? 'message',
        data: JSON.parse(fields.get('data') ?? '{}') as Record<string, unknown>,
      };
    });
}

/** POSTs a Messages request to a scripted model. */
export function postMessages(
  url: string,
  body: Record<string, unknown>,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'secret', ...init.headers },
    body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, ...body }),
    signal: init.signal,
  });
}
