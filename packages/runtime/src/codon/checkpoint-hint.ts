/**
 * The paths seen changing since the last checkpoint, handed to the checkpoint engine so it can
 * skip its own stat walk. Invalid (no hint: the engine walks) until the first checkpoint of this
 * process and after a restore, when the scanner's view and the work tree may disagree.
 */
export class CheckpointHint {
  #valid = false;
  readonly #changed = new Set<string>();

  add(paths: Iterable<string>): void {
    for (const path of paths) this.#changed.add(path);
  }

  /** The hint for the next checkpoint, or undefined when the engine must walk. */
  current(): string[] | undefined {
    return this.#valid ? [...this.#changed] : undefined;
  }

  /** A checkpoint was taken: from now on the scans describe every change. */
  checkpointed(): void {
    this.#valid = true;
    this.#changed.clear();
  }

  invalidate(): void {
    this.#valid = false;
    this.#changed.clear();
  }
}
