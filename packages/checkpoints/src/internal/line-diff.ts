/** One run of the edit script between two line lists. */
export interface EditRun {
  kind: 'equal' | 'delete' | 'insert';
  /** Start in the old list (delete/equal) or the new list (insert), 0-based. */
  oldStart: number;
  newStart: number;
  length: number;
}

/** Beyond this many differences the middle is reported as one replacement (bounded memory). */
const MAX_EDIT_DISTANCE = 1000;

/**
 * Myers' O(ND) shortest edit script over line ids (lines interned to numbers first). Common
 * prefix and suffix are stripped before the search, which is what keeps typical checkpoint
 * diffs (a few lines changed in a long file) cheap.
 */
export function diffLines(a: readonly string[], b: readonly string[]): EditRun[] {
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const x = a.map(intern);
  const y = b.map(intern);
  let prefix = 0;
  while (prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < x.length - prefix &&
    suffix < y.length - prefix &&
    x[x.length - 1 - suffix] === y[y.length - 1 - suffix]
  ) {
    suffix++;
  }
  const middle = myers(x.slice(prefix, x.length - suffix), y.slice(prefix, y.length - suffix));
  const runs: EditRun[] = [];
  const push = (
    kind: EditRun['kind'],
    oldStart: number,
    newStart: number,
    length: number,
  ): void => {
    if (length === 0) return;
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.length += length;
    else runs.push({ kind, oldStart, newStart, length });
  };
  push('equal', 0, 0, prefix);
  for (const run of middle)
    push(run.kind, run.oldStart + prefix, run.newStart + prefix, run.length);
  push('equal', x.length - suffix, y.length - suffix, suffix);
  return runs;
}

function myers(x: readonly number[], y: readonly number[]): EditRun[] {
  const n = x.length;
  const m = y.length;
  if (n === 0 || m === 0) {
    return [
      { kind: 'delete', oldStart: 0, newStart: 0, length: n },
      { kind: 'insert', oldStart: n, newStart: 0, length: m },
    ].filter((run) => run.length > 0) as EditRun[];
  }
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let i =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[offset + k] = i;
      if (i >= n && j >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) {
    return [
      { kind: 'delete', oldStart: 0, newStart: 0, length: n },
      { kind: 'insert', oldStart: n, newStart: 0, length: m },
    ];
  }
  // Walk the trace backwards into single-line steps, then merge them into runs.
  const steps: EditRun[] = [];
  let i = n;
  let j = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d] as Int32Array;
    const k = i - j;
    const down =
      k === -d || (k !== d && (prev[offset + k - 1] as number) < (prev[offset + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevI = prev[offset + prevK] as number;
    const prevJ = prevI - prevK;
    while (i > prevI && j > prevJ) {
      i--;
      j--;
      steps.push({ kind: 'equal', oldStart: i, newStart: j, length: 1 });
    }
    if (down) {
      j--;
      steps.push({ kind: 'insert', oldStart: i, newStart: j, length: 1 });
    } else {
      i--;
      steps.push({ kind: 'delete', oldStart: i, newStart: j, length: 1 });
    }
  }
  while (i > 0 && j > 0) {
    i--;
    j--;
    steps.push({ kind: 'equal', oldStart: i, newStart: j, length: 1 });
  }
  steps.reverse();
  const runs: EditRun[] = [];
  for (const step of steps) {
    const last = runs[runs.length - 1];
    if (last && last.kind === step.kind) last.length++;
    else runs.push({ ...step });
  }
  return runs;
}
