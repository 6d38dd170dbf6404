import fc from 'fast-check';

/** Options of {@link assertInParallel}. */
export interface ParallelPropertyOptions {
  numRuns: number;
  seed: number;
  /** Cases in flight at once. */
  concurrency: number;
}

/**
 * `fc.assert` for slow, I/O-bound async properties, with several cases in flight at once. The
 * cases are `fc.sample`'s for the seed, which are exactly the runs `fc.assert` makes with it, so
 * when one fails, `fc.assert` replays that very run (`path`) and shrinks it into the report.
 */
export async function assertInParallel<T>(
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
  options: ParallelPropertyOptions,
): Promise<void> {
  const cases = fc.sample(arbitrary, { numRuns: options.numRuns, seed: options.seed });
  let next = 0;
  const failed: { first?: { index: number; error: unknown } } = {};
  const worker = async () => {
    while (failed.first === undefined && next < cases.length) {
      const index = next++;
      try {
        await check(cases[index] as T);
      } catch (error) {
        const first = failed.first as { index: number } | undefined;
        if (first === undefined || index < first.index) failed.first = { index, error };
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const failure = failed.first;
  if (failure === undefined) return;
  await fc.assert(fc.asyncProperty(arbitrary, check), {
    seed: options.seed,
    path: String(failure.index),
    endOnFailure: false,
  });
  // The replay passed: the failure depends on timing or on the other cases in flight.
  throw new Error(
    `Case ${failure.index} of seed ${options.seed} failed alongside other cases, then passed alone: ${String(failure.error)}`,
    { cause: failure.error },
  );
}
