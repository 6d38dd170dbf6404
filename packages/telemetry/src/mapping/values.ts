// Readers of an event's `data`: the journal is read as untyped JSON (journals of other runtime
// versions map too), so every field is checked before it reaches a span.
import { MAX_CONTENT_LENGTH, type SpanAttributes } from '../span-record.js';

/** A finite number, else undefined. */
export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A string, else undefined. */
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** An object's fields, else none (so nested reads need no checks). */
export const obj = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Content cut at {@link MAX_CONTENT_LENGTH} characters, with `…` when cut. */
export function clip(text: string): string {
  return text.length > MAX_CONTENT_LENGTH ? `${text.slice(0, MAX_CONTENT_LENGTH)}…` : text;
}

/** A value as clipped JSON (a string as itself); empty when it cannot be serialised. */
export function asJson(value: unknown): string {
  if (typeof value === 'string') return clip(value);
  try {
    return clip(JSON.stringify(value) ?? '');
  } catch {
    return '';
  }
}

/**
 * The scalar fields `keys` of `data` as `hankweave.<snake_case key>` attributes (for span events
 * that copy an event's fields as they are); other values are left out.
 */
export function flatAttributes(data: Record<string, unknown>, keys: string[]): SpanAttributes {
  const out: SpanAttributes = {};
  for (const key of keys) {
    const value = data[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[`hankweave.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`] = value;
  }
  return out;
}
