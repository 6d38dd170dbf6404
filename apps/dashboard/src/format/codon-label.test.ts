import { describe, expect, it } from 'vitest';
import { codonLabel, iterationOf } from './codon-label.js';
import { distinctLabels } from './distinct-paths.js';

describe('codonLabel()', () => {
  it('adds the iteration of a loop codon, so iterations differ', () => {
    expect(codonLabel('Polish the summary', 'polish-pass#0')).toBe('Polish the summary #0');
    expect(codonLabel('Polish the summary', 'polish-pass#12')).toBe('Polish the summary #12');
    expect(codonLabel('Observe', 'observe')).toBe('Observe');
    expect(codonLabel('', 'polish-pass#1')).toBe('polish-pass #1');
    expect(iterationOf('observe')).toBe('');
  });
});

describe('distinctLabels()', () => {
  it('keeps as many last segments as make each path unique', () => {
    const labels = distinctLabels([
      '/tmp/x/hello-hank/data',
      '/tmp/x/my-hank/data',
      '/tmp/y/my-hank/data',
      '/srv/notes.txt',
      '/tmp/x/hello-hank/data',
    ]);
    expect([...labels]).toEqual([
      ['/tmp/x/hello-hank/data', 'hello-hank/data'],
      ['/tmp/x/my-hank/data', 'x/my-hank/data'],
      ['/tmp/y/my-hank/data', 'y/my-hank/data'],
      ['/srv/notes.txt', 'notes.txt'],
    ]);
  });

  it('shows a whole path when nothing shorter tells it apart', () => {
    expect([...distinctLabels(['/a/data', '/b/a/data'])]).toEqual([
      ['/a/data', '/a/data'],
      ['/b/a/data', '/b/a/data'],
    ]);
  });
});
