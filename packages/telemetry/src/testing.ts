import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { decodeOtlpProtobuf } from './otlp-protobuf.js';

/** A plain attribute value, decoded from OTLP/JSON's `AnyValue`. */
export type ReceivedValue = string | number | boolean | ReceivedValue[] | null;

/** One span as a collector received it, with its attributes decoded. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's kind number: 1 internal, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, ReceivedValue>;
  events: Array<{ name: string; timeMs: number; attributes: Record<string, ReceivedValue> }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, ReceivedValue>;
}

/** A loopback OTLP/HTTP receiver (JSON encoding) for tests; see {@link startOtlpReceiver}. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:port`: what `OTEL_EXPORTER_OTLP_ENDPOINT` takes. */
  readonly url: string;
  /** Every span received so far, in arrival order. */
  spans(): ReceivedSpan[];
  /** Every metrics request body received so far (`ExportMetricsServiceRequest`, as JSON). */
  metrics(): unknown[];
  /** Requests received, by path. */
  requests(): Array<{ path: string; contentType: string; bytes: number }>;
  /** Resolves once `predicate(spans())` holds (polls every 20 ms), rejects after `timeoutMs`. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };

function decodeValue(value: AnyValue | undefined): ReceivedValue {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return null;
}

/** OTLP/JSON attributes (`[{key, value: {stringValue}}]`) as a plain record. */
export function decodeAttributes(list: KeyValue[] | undefined): Record<string, ReceivedValue> {
  const out: Record<string, ReceivedValue> = {};
  for (const { key, value } of list ?? []) out[key] = decodeValue(value);
  return out;
}

const nanosToMs = (nanos: unknown) => Number(BigInt(String(nanos ?? 0)) / 1_000_000n);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * Starts an OTLP/HTTP receiver on a free loopback port: `POST /v1/traces` and `/v1/metrics` with
 * `Content-Type: application/x-protobuf` (OTLP/HTTP's default encoding) or `application/json`,
 * gzip or not, answered as a collector answers; another content type gets 415. Nothing is
 * mocked: exporters talk to it over TCP. `requests()` says which encoding each request had.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: unknown[] = [];
  const requests: Array<{ path: string; contentType: string; bytes: number }> = [];
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const contentType = String(request.headers['content-type'] ?? '');
      const path = request.url ?? '';
      requests.push({ path, contentType, bytes: body.length });
      const json = contentType.startsWith('application/json');
      const proto = contentType.startsWith('application/x-protobuf');
      if (request.method !== 'POST' || !(json || proto)) {
        response.writeHead(request.method !== 'POST' ? 405 : 415).end();
        return;
      }
      const kind = path === '/v1/metrics' ? 'metrics' : 'traces';
      // biome-ignore lint/suspicious/noExplicitAny: an OTLP request of either encoding, read loosely
      const payload: any = json
        ? JSON.parse(body.toString('utf8'))
        : decodeOtlpProtobuf(kind, body);
      // A collector answers in the encoding it was sent.
      const answer = () =>
        json
          ? response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
          : response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      if (path === '/v1/traces') {
        for (const resourceSpans of payload.resourceSpans ?? []) {
          const resource = decodeAttributes(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                startMs: nanosToMs(span.startTimeUnixNano),
                endMs: nanosToMs(span.endTimeUnixNano),
                attributes: decodeAttributes(span.attributes),
                events: (span.events ?? []).map(
                  (event: { name: string; timeUnixNano: string; attributes?: KeyValue[] }) => ({
                    name: event.name,
                    timeMs: nanosToMs(event.timeUnixNano),
                    attributes: decodeAttributes(event.attributes),
                  }),
                ),
                status: { code: span.status?.code ?? 0, message: span.status?.message },
                resource,
              });
            }
          }
        }
        answer();
      } else if (path === '/v1/metrics') {
        metrics.push(payload);
        answer();
      } else response.writeHead(404).end();
    })().catch(() => {
      if (!response.headersSent) response.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    metrics: () => [...metrics],
    requests: () => [...requests],
    async waitFor(predicate, timeoutMs = 10_000) {
      const started = Date.now();
      while (!predicate([...spans])) {
        if (Date.now() - started > timeoutMs) {
          throw new Error(`the receiver did not get the spans expected in ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then closed): a dead collector. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One metric family of a Prometheus scrape, as `parse-prometheus-text-format` reads it. */
export interface PrometheusFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Array<{
    labels?: Record<string, string>;
    value?: string;
    count?: string;
    sum?: string;
    buckets?: Record<string, string>;
  }>;
}

/** A Prometheus endpoint's answer, read by a real text-format parser; see {@link scrapePrometheus}. */
export interface PrometheusScrape {
  families: PrometheusFamily[];
  /** The family of that name; throws naming the families there are when it is missing. */
  family(name: string): PrometheusFamily;
  /** The sum of a family's sample values whose labels satisfy `where` (default: all). */
  sum(name: string, where?: (labels: Record<string, string>) => boolean): number;
}

/**
 * GETs a Prometheus endpoint (`/metrics`) and parses its text format with
 * `parse-prometheus-text-format` (not ours, so the format is checked by another reader).
 *
 * @throws {Error} when the endpoint does not answer 200, or a family asked for is missing.
 */
export async function scrapePrometheus(url: string): Promise<PrometheusScrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`);
  const families = parsePrometheusTextFormat(await response.text()) as PrometheusFamily[];
  const family = (name: string) => {
    const found = families.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no ${name} in ${families.map((f) => f.name).join(', ')}`);
    return found;
  };
  return {
    families,
    family,
    sum: (name, where = () => true) =>
      family(name)
        .metrics.filter((metric) => where(metric.labels ?? {}))
        .reduce((total, metric) => total + Number(metric.value), 0),
  };
}
