import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptedModelError } from './errors.js';
import { generateContentTarget } from './internal/generate-content-request.js';
import { handleChatCompletions } from './internal/handle-chat-completions.js';
import { handleGenerateContent } from './internal/handle-generate-content.js';
import { handleMessages } from './internal/handle-messages.js';
import { handleResponses } from './internal/handle-responses.js';
import { modelList } from './internal/list-models.js';
import { parseJsonLoosely, readBody } from './internal/read-body.js';
import { TurnSelector } from './internal/select-turn.js';
import { parseScript } from './load-script.js';
import type { RecordedRequest, RequestKind } from './recorded-request.js';
import type { Script, ScriptInput } from './script-schema.js';

/** Options of {@link startScriptedModel}. */
export interface ScriptedModelOptions {
  /** The script: a parsed {@link Script} or anything {@link parseScript} accepts. */
  script: ScriptInput | Script;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string;
}

/** A running scripted model server. */
export interface ScriptedModel {
  /**
   * Base URL without a trailing slash, e.g. `http://127.0.0.1:43117`: the `ANTHROPIC_BASE_URL`;
   * OpenAI and Gemini clients take it with or without a version (`/v1`, `/v1beta`): the server
   * routes by the end of the path.
   */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Every request received so far, in arrival order (a live array). */
  readonly requests: readonly RecordedRequest[];
  /** Stops listening and ends every open response (stalled ones included). Idempotent. */
  close(): Promise<void>;
  /** Same as {@link ScriptedModel.close}, for `await using model = await startScriptedModel(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const HIDDEN_HEADERS = new Set([
  'x-api-key',
  'x-goog-api-key',
  'authorization',
  'cookie',
  'proxy-authorization',
]);

// Gemini clients may pass the key as `?key=…`; it must not reach the request log either.
function recordPath(path: string): string {
  return path.replace(/([?&]key=)[^&]*/g, '$1[hidden]');
}

function recordHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HIDDEN_HEADERS.has(name)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return headers;
}

function kindOf(method: string, pathname: string): RequestKind {
  if (method !== 'POST') return 'other';
  // Suffix match: a base URL configured with or without `/v1` still reaches the handlers.
  if (pathname.endsWith('/messages/count_tokens')) return 'count-tokens';
  if (pathname.endsWith('/messages')) return 'messages';
  if (pathname.endsWith('/chat/completions')) return 'chat-completions';
  if (pathname.endsWith('/responses')) return 'responses';
  if (generateContentTarget(pathname) !== undefined) return 'generate-content';
  return 'other';
}

function sendJson(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// Start-up probes (`HEAD /api/hello`, `GET /v1/models`, …) only need a 2xx to let the agent
// proceed; the model list names the script's models for clients that pick from it.
function answerOther(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  script: Script,
): void {
  if (req.method === 'HEAD') {
    res.writeHead(200);
    res.end();
    return;
  }
  if (req.method === 'GET' && pathname.endsWith('/models')) {
    sendJson(res, modelList(script));
    return;
  }
  sendJson(res, {});
}

/**
 * Starts an HTTP server on loopback that answers, from `script`, the Anthropic Messages API, the
 * OpenAI Chat Completions and Responses APIs and the Gemini API's generateContent. Point Claude
 * Code at it with `ANTHROPIC_BASE_URL=<url>`, Pi with a `models.json` provider (`baseUrl: url +
 * '/v1'` and any of Pi's `openai-completions`, `openai-responses`, `anthropic-messages` or
 * `google-generative-ai` APIs), or the Vercel AI SDK with `createAnthropic({ baseURL: url + '/v1' })`.
 *
 * @throws {ScriptedModelError} SCRIPTED_MODEL_INVALID_SCRIPT when the script is invalid;
 * SCRIPTED_MODEL_LISTEN_FAILED when the port cannot be bound.
 */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const script = parseScript(options.script);
  const selector = new TurnSelector(script);
  const requests: RecordedRequest[] = [];
  const host = options.host ?? '127.0.0.1';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const pathname = path.split('?')[0] ?? path;
    const entry: RecordedRequest = {
      seq: requests.length + 1,
      receivedAt: new Date().toISOString(),
      method,
      path: recordPath(path),
      headers: recordHeaders(req),
      body: undefined,
      kind: kindOf(method, pathname),
    };
    requests.push(entry);
    const text = await readBody(req);
    entry.body = parseJsonLoosely(text);
    if (entry.kind === 'messages') return handleMessages(req, res, entry, { script, selector });
    if (entry.kind === 'chat-completions') return handleChatCompletions(res, entry, { selector });
    if (entry.kind === 'responses') return handleResponses(res, entry, { selector });
    if (entry.kind === 'generate-content') return handleGenerateContent(res, entry, { selector });
    // A rough count (4 characters a token) is all agents use count_tokens for.
    if (entry.kind === 'count-tokens')
      return sendJson(res, { input_tokens: Math.ceil(text.length / 4) });
    answerOther(req, res, pathname, script);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((cause: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(cause) } }),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (cause) =>
      reject(
        new ScriptedModelError(
          'SCRIPTED_MODEL_LISTEN_FAILED',
          `cannot listen on ${host}:${options.port ?? 0}`,
          {
            cause,
            details: { host, port: options.port ?? 0 },
          },
        ),
      ),
    );
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Stalled responses never end by themselves; without this, close() would wait for them.
      server.closeAllConnections();
    });
    return closing;
  };
  return {
    url: `http://${urlHost}:${port}`,
    port,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}
