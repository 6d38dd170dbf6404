import type { ApiContentBlock, ApiMessage, ApiUsage } from './render-message.js';
import { chunks } from './sse.js';

/** A part of a Gemini `model` content. */
export type GeminiPart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: { id: string; name: string; args: Record<string, unknown> } };

/** Gemini's usage object. */
export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
}

/** Why a candidate ended: Gemini says `STOP` after function calls too. */
export type GeminiFinishReason = 'STOP' | 'MAX_TOKENS';

/** A generateContent response body, and each chunk of a stream. */
export interface GenerateContentResponse {
  candidates: {
    content: { role: 'model'; parts: GeminiPart[] };
    index: 0;
    finishReason?: GeminiFinishReason;
  }[];
  usageMetadata?: UsageMetadata;
  modelVersion: string;
  responseId: string;
}

/**
 * Script usage in Gemini's terms: `promptTokenCount` counts every input token, cached ones
 * included (the script's uncached `inputTokens` plus both cache counts),
 * `cachedContentTokenCount` the cache reads. Gemini has no cache-write count: clients read cache
 * creation back as plain input.
 */
export function usageMetadataOf(usage: ApiUsage): UsageMetadata {
  const read = usage.cache_read_input_tokens;
  const prompt = usage.input_tokens + read + usage.cache_creation_input_tokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output_tokens,
    totalTokenCount: prompt + usage.output_tokens,
    ...(read === 0 ? {} : { cachedContentTokenCount: read }),
  };
}

/** The finish reason of a turn's stop reason (`max_tokens` → `MAX_TOKENS`, else `STOP`). */
export function geminiFinishReasonOf(stopReason: string): GeminiFinishReason {
  return stopReason === 'max_tokens' ? 'MAX_TOKENS' : 'STOP';
}

// Thinking is a text part marked `thought` (its signature on the first piece, which clients
// keep for the block); a function call is one whole part, as Gemini never splits one.
function blockParts(block: ApiContentBlock, split: boolean): GeminiPart[] {
  if (block.type === 'tool_use') {
    return [{ functionCall: { id: block.id, name: block.name, args: block.input } }];
  }
  if (block.type === 'text') {
    return (split ? chunks(block.text) : [block.text]).map((text) => ({ text }));
  }
  return (split ? chunks(block.thinking) : [block.thinking]).map((text, index) => ({
    text,
    thought: true as const,
    ...(index === 0 && { thoughtSignature: block.signature }),
  }));
}

/** The non-streaming body: one candidate holding every part, the finish reason and the usage. */
export function toGenerateContentResponse(
  message: ApiMessage,
  meta: { responseId: string },
): GenerateContentResponse {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: message.content.flatMap((block) => blockParts(block, false)),
        },
        index: 0,
        finishReason: geminiFinishReasonOf(message.stop_reason),
      },
    ],
    usageMetadata: usageMetadataOf(message.usage),
    modelVersion: message.model,
    responseId: meta.responseId,
  };
}

function chunkOf(
  parts: GeminiPart[],
  message: ApiMessage,
  meta: { responseId: string },
  last: boolean,
): string {
  const chunk: GenerateContentResponse = {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(last && { finishReason: geminiFinishReasonOf(message.stop_reason) }),
      },
    ],
    ...(last && { usageMetadata: usageMetadataOf(message.usage) }),
    modelVersion: message.model,
    responseId: meta.responseId,
  };
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

/**
 * The `streamGenerateContent?alt=sse` stream of one message: one `data:` chunk per part piece
 * (text in small pieces, a function call whole), the last one also carrying the finish reason
 * and the usage. Gemini's stream has no terminator: it ends with the connection.
 */
export function generateContentChunks(message: ApiMessage, meta: { responseId: string }): string[] {
  const parts = message.content.flatMap((block) => blockParts(block, true));
  // A message without parts still needs one chunk for the finish reason and the usage.
  if (parts.length === 0) return [chunkOf([], message, meta, true)];
  return parts.map((part, index) => chunkOf([part], message, meta, index === parts.length - 1));
}

/** What a mid-stream failure sends: the first piece, without a finish reason or usage. */
export function partialGenerateContentChunk(
  message: ApiMessage,
  meta: { responseId: string },
): string {
  const first = message.content.flatMap((block) => blockParts(block, true)).slice(0, 1);
  return chunkOf(first, message, meta, false);
}
