const BRAND = Symbol.for('hankweave.error');

/** JSON-serialisable details attached to an error (paths, ids, counts). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** What an error may carry besides its code and message. */
export interface HankweaveErrorOptions {
  cause?: unknown;
  details?: ErrorDetails;
}

/**
 * The base of every hankweave error. Each package defines one subclass with
 * {@link defineErrorClass} and its own closed list of SCREAMING_SNAKE codes (`STATE_CORRUPT`,
 * `JOURNAL_INVALID`, ...). `HankweaveError.is` survives duplicate copies of this package because
 * the brand is a global symbol.
 */
export class HankweaveError<Code extends string = string> extends Error {
  readonly [BRAND] = true;
  override readonly name: string = 'HankweaveError';
  readonly code: Code;
  readonly details: ErrorDetails;

  constructor(code: Code, message: string, options: HankweaveErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True for any hankweave error from any copy of this package, optionally with `code`. */
  static is(value: unknown, code?: string): value is HankweaveError {
    return (
      typeof value === 'object' &&
      value !== null &&
      BRAND in value &&
      (code === undefined || (value as { code?: unknown }).code === code)
    );
  }

  /** The wire form: `{name, code, message, details}`. */
  toJSON(): { name: string; code: Code; message: string; details: ErrorDetails } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** The class {@link defineErrorClass} makes: a {@link HankweaveError} with a name and codes. */
export interface HankweaveErrorClass<Name extends string, Code extends string> {
  new (
    code: Code,
    message: string,
    options?: HankweaveErrorOptions,
  ): HankweaveError<Code> & { readonly name: Name };
  /** The `name` every instance carries (`StateError`). */
  readonly errorName: Name;
  /** The closed list of codes, in the order the package declared them. */
  readonly codes: readonly Code[];
  /**
   * True when `value` is an error of this class, from any copy of its package (matched by brand
   * and name, not `instanceof`), optionally with `code`.
   */
  is<T>(this: abstract new (...args: never[]) => T, value: unknown, code?: Code): value is T;
}

/**
 * Makes a package's one error class. The codes are a runtime list (for README tables, snapshots
 * and exhaustive switches) and a type at once:
 *
 * ```ts
 * export const STATE_ERROR_CODES = ['STATE_CORRUPT', 'STATE_LOCKED'] as const;
 * export type StateErrorCode = (typeof STATE_ERROR_CODES)[number];
 * export class StateError extends defineErrorClass('StateError', STATE_ERROR_CODES) {}
 * // throw new StateError('STATE_LOCKED', '...', { details: { pid } });
 * // if (StateError.is(error, 'STATE_LOCKED')) ...
 * ```
 */
export function defineErrorClass<const Name extends string, const Code extends string>(
  name: Name,
  codes: readonly Code[],
): HankweaveErrorClass<Name, Code> {
  const known = new Set<string>(codes);
  class PackageError extends HankweaveError<Code> {
    static readonly errorName = name;
    static readonly codes = codes;
    override readonly name: Name = name;

    constructor(code: Code, message: string, options?: HankweaveErrorOptions) {
      super(code, message, options);
      // A code outside the list is a bug in the package that throws it: say so loudly in tests.
      if (!known.has(code)) {
        throw new TypeError(`${name}: "${code}" is not one of its codes (${codes.join(', ')})`);
      }
    }

    static override is(value: unknown, code?: string): value is HankweaveError {
      return HankweaveError.is(value, code) && value.name === name;
    }
  }
  Object.defineProperty(PackageError, 'name', { value: name });
  return PackageError as unknown as HankweaveErrorClass<Name, Code>;
}
