import * as nodeFs from 'node:fs/promises';

/**
 * The subset of `node:fs/promises` the file backends use. Pass your own (an in-memory or a
 * fault-injecting one) through the `fs` option; the default is the real module. File handles
 * must support `read`, `write`, `sync`, `truncate`, `stat`, `close` and `createReadStream`.
 */
export type JournalFs = Pick<
  typeof nodeFs,
  'open' | 'stat' | 'mkdir' | 'readFile' | 'writeFile' | 'rename' | 'rm'
>;

/** The real file system. */
export const defaultFs: JournalFs = nodeFs;

/** The error code of a Node system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
