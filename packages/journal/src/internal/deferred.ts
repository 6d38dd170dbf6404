/** A promise with its settle functions, for queues that resolve callers later. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function createDeferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Runs async sections one at a time, in call order. The file backend uses it so that a reader
 * catching up with the file never counts bytes the writer is still accounting for.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(section, section);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
