import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One HTTP answer, read whole. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

/** What a request may carry: the path is sent as written (`..` and `%2e` are not normalised). */
export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A raw HTTP/1.1 request to `origin` (`http://127.0.0.1:PORT`), no client-side URL cleanup. */
export function send(origin: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname, port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** One server-sent event. */
export interface StreamMessage {
  event: string;
  data: unknown;
}

/**
 * Opens a server-sent event stream and collects its messages until the server closes it (or
 * `timeoutMs`, which rejects). `onMessage` sees each one as it arrives.
 */
export function readEventStream(
  origin: string,
  path: string,
  headers: Record<string, string>,
  onMessage: (message: StreamMessage) => void = () => undefined,
  // A bound for a stalled stream, not a pace: a whole live run on a loaded CI machine took over 30 s.
  timeoutMs = 90_000,
): Promise<{ status: number; headers: IncomingHttpHeaders; messages: StreamMessage[] }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const messages: StreamMessage[] = [];
    const outgoing = httpRequest({ hostname, port, path, headers }, (incoming) => {
      let buffered = '';
      const timer = setTimeout(() => {
        outgoing.destroy();
        reject(
          new Error(
            `The stream did not end within ${timeoutMs} ms: ${JSON.stringify(messages.map((m) => m.event))}`,
          ),
        );
      }, timeoutMs);
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        buffered += chunk;
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === undefined || data === undefined) continue;
          const message = { event, data: JSON.parse(data) as unknown };
          messages.push(message);
          onMessage(message);
        }
      });
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, messages });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The server side of a request: its origin and its token. */
export interface ServerSide {
  origin: string;
  token: string;
}

/**
 * POSTs an action as the dashboard page does (bearer token, JSON, same origin, the
 * `x-hankweave-action` header); `headers` override those, `undefined` leaves one out.
 */
export function postAction(
  server: ServerSide,
  path: string,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<Answer> {
  const all: Record<string, string | undefined> = {
    authorization: `Bearer ${server.token}`,
    'content-type': 'application/json',
    origin: server.origin,
    'x-hankweave-action': '1',
    ...headers,
  };
  return send(server.origin, path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: Object.fromEntries(
      Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  });
}
