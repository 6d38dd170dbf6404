import { formatJsonPath, type HankIssue } from './hank-issue.js';

/**
 * The bounds `validateHank` puts on what it reads, far above any real hank (a large real hank has
 * a few thousand values, nests about 15 levels deep with a JSON Schema in a sentinel, and keeps
 * long prompts in files), so that a hostile or broken input is refused with one clear issue
 * instead of exhausting the stack, the heap or the CPU.
 */
export const HANK_INPUT_LIMITS = {
  /** Objects and arrays nested inside each other (the root object is level 1). */
  maxDepth: 100,
  /** Values of every kind: objects, arrays, strings, numbers, booleans, nulls. */
  maxValues: 100_000,
  /** Characters of text, in keys and in string values together. */
  maxChars: 10_000_000,
} as const;

/** What a snapshot is of: hank.json itself, or a sentinel file it names. */
export interface SnapshotSubject {
  /** How messages name the input: "hank.json" or "The sentinel file sentinels/x.json". */
  name: string;
  /** Prefixed to issue paths (`sentinels/x.json: `), empty for hank.json. */
  pathPrefix: string;
}

const HANK_JSON: SnapshotSubject = { name: 'hank.json', pathPrefix: '' };

type Frame = { source: object; target: unknown[] | Record<string, unknown>; path: PropertyKey[] };

/**
 * Copies `input` into plain data (own enumerable string keys, arrays, primitives) while checking
 * the limits, with an explicit stack so no input can overflow the call stack. Everything after it
 * reads the copy: a getter or a proxy runs once, here, and a key named `__proto__` stays an own
 * key (as `JSON.parse` makes it) instead of changing the copy's prototype. Functions, symbols and
 * bigints are kept as they are for the schema to refuse; a Map, a Date or a class instance is read
 * through its own enumerable keys, as any object.
 */
export function snapshotInput(
  input: unknown,
  subject: SnapshotSubject = HANK_JSON,
): { value: unknown } | { issue: HankIssue } {
  let values = 0;
  let chars = 0;
  const issueAt = (path: PropertyKey[], code: HankIssue['code'], message: string): HankIssue => ({
    path: `${subject.pathPrefix}${formatJsonPath(path)}`,
    code,
    message,
  });
  const tooLarge = (path: PropertyKey[]) =>
    values > HANK_INPUT_LIMITS.maxValues
      ? issueAt(
          path,
          'too_large',
          `${subject.name} holds more than ${HANK_INPUT_LIMITS.maxValues.toLocaleString('en-US')} values; a real hank holds a few thousand. Split it into several hanks, or move data it carries into files`,
        )
      : issueAt(
          path,
          'too_large',
          `${subject.name} holds more than ${HANK_INPUT_LIMITS.maxChars.toLocaleString('en-US')} characters of text; move long text into files (promptFile, userPromptFile)`,
        );
  const overLimit = () =>
    values > HANK_INPUT_LIMITS.maxValues || chars > HANK_INPUT_LIMITS.maxChars;

  // Copies one value: primitives directly, containers as an empty shell pushed on the stack.
  const stack: Frame[] = [];
  const copy = (value: unknown, path: PropertyKey[]): unknown => {
    values++;
    if (typeof value === 'string') chars += value.length;
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    if (typeof value === 'function') return value;
    if (path.length >= HANK_INPUT_LIMITS.maxDepth) {
      throw new Stop(
        issueAt(
          path,
          'too_deep',
          `${subject.name} nests objects and arrays more than ${HANK_INPUT_LIMITS.maxDepth} levels deep here; no hank needs that many. Flatten this value (a value built in code that contains itself ends here too)`,
        ),
      );
    }
    // Boxed primitives are read as their value, as JSON.stringify does; a typed array as an
    // array (its length is counted before it is walked, like any array's).
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value.valueOf();
    }
    const target: unknown[] | Record<string, unknown> =
      Array.isArray(value) || ArrayBuffer.isView(value) ? [] : {};
    stack.push({ source: value, target, path });
    return target;
  };

  try {
    const root = copy(input, []);
    while (stack.length > 0) {
      const { source, target, path } = stack.pop() as Frame;
      if (Array.isArray(target)) {
        const claimed = ArrayBuffer.isView(source)
          ? ((source as { length?: unknown }).length ?? 0)
          : (source as unknown[]).length;
        // A proxy may claim any length; a real array's is a safe integer.
        const length =
          typeof claimed === 'number' && Number.isSafeInteger(claimed) && claimed >= 0
            ? claimed
            : 0;
        // Counted before the walk: a sparse array of length 1e9 is refused without visiting it.
        values += length;
        if (overLimit()) return { issue: tooLarge(path) };
        values -= length;
        for (let index = 0; index < length; index++) {
          target.push(copy(read(source, index, path, issueAt), [...path, index]));
        }
      } else {
        const keys = Object.keys(source);
        values += keys.length;
        if (overLimit()) return { issue: tooLarge(path) };
        values -= keys.length;
        for (const key of keys) {
          chars += key.length;
          const child = copy(read(source, key, path, issueAt), [...path, key]);
          // defineProperty keeps `__proto__` an ordinary own key.
          Object.defineProperty(target, key, {
            value: child,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
      if (overLimit()) return { issue: tooLarge(path) };
    }
    if (overLimit()) return { issue: tooLarge([]) };
    return { value: root };
  } catch (caught) {
    if (caught instanceof Stop) return { issue: caught.issue };
    // Array.isArray or Object.keys on a revoked proxy, and the like: not data.
    return {
      issue: issueAt([], 'invalid_value', `${subject.name} could not be read: ${describe(caught)}`),
    };
  }
}

function read(
  source: object,
  key: string | number,
  path: PropertyKey[],
  issueAt: (path: PropertyKey[], code: HankIssue['code'], message: string) => HankIssue,
): unknown {
  try {
    return (source as Record<string | number, unknown>)[key];
  } catch (caught) {
    throw new Stop(
      issueAt([...path, key], 'invalid_value', `could not be read: ${describe(caught)}`),
    );
  }
}

/** Ends the walk with an issue; a class of its own, so nothing the input throws can pose as one. */
class Stop {
  constructor(readonly issue: HankIssue) {}
}

function describe(caught: unknown): string {
  try {
    return clip(caught instanceof Error ? caught.message : String(caught));
  } catch {
    return 'an unreadable value was thrown';
  }
}

/** Shortens user text quoted in a message, so no message grows with the input. */
export function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** A short description of any value for a message: a clipped quote of a string, else its kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(clip(value));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
