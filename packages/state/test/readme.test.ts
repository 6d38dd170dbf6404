import { join } from 'node:path';
import { runReadmeQuickStart } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';

// CI runs each README's first ts block (examples/readme-snippets); this runs it here too and
// checks the `// → ...` comments against what it prints. Needs the built dist (self-import).
describe('README quick start', () => {
  it('runs and prints what its comments say', async () => {
    const { printed, promised } = await runReadmeQuickStart(join(import.meta.dirname, '..'));
    for (const text of promised) expect(printed).toContain(text);
    expect(printed).toContain('research failed during running: API request timed out after 30s');
  });
});
