/**
 * Runs async sections one at a time, in call order. A section that fails does not block the
 * next one; its caller gets the failure.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `section` after every section queued before it has settled. */
  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(section, section);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
