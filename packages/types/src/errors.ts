const BRAND = Symbol.for('hankweave.error');

/** JSON-serialisable details attached to an error (paths, ids, counts). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The base of every hankweave error. Each package subclasses it once with its own list of
 * SCREAMING_SNAKE codes (`STATE_CORRUPT`, `JOURNAL_INVALID`, ...). `HankweaveError.is` survives
 * duplicate copies of this package because the brand is a global symbol.
 */
export class HankweaveError<Code extends string = string> extends Error {
  readonly [BRAND] = true;
  override name = 'HankweaveError';
  readonly code: Code;
  readonly details: ErrorDetails;

  constructor(
    code: Code,
    message: string,
    options: { cause?: unknown; details?: ErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True for any hankweave error, from any copy of this package. */
  static is(value: unknown): value is HankweaveError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  /** The wire form: `{name, code, message, details}`. */
  toJSON(): { name: string; code: Code; message: string; details: ErrorDetails } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
