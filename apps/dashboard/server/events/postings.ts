/**
 * Append-only columns of numbers in typed arrays that double when full: an index of a million
 * events costs a few megabytes and no per-event objects.
 */
export class Column<T extends Uint32Array | Uint16Array | Float64Array> {
  #data: T;
  #length = 0;

  constructor(private readonly make: (size: number) => T) {
    this.#data = make(64);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const bigger = this.make(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.#length++] = value;
  }

  at(index: number): number {
    return this.#data[index] as number;
  }
}

/** The events of one codon id: their ordinals in the journal, times (ms) and type ids. */
export class Postings {
  readonly ordinals = new Column((size) => new Uint32Array(size));
  readonly times = new Column((size) => new Float64Array(size));
  readonly types = new Column((size) => new Uint16Array(size));

  add(ordinal: number, timeMs: number, typeId: number): void {
    this.ordinals.push(ordinal);
    this.times.push(timeMs);
    this.types.push(typeId);
  }

  get length(): number {
    return this.ordinals.length;
  }
}

/** The first position in a sorted list whose value is ≥ `value` (binary search). */
export function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
