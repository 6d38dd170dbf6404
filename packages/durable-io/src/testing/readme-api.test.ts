import { describe, expect, it } from 'vitest';
import { compareReadmeApi, typeExportNames } from './readme-api.js';

const readme = `
# demo

| export                                   | what        |
| ---------------------------------------- | ----------- |
| \`createThing(options)\`, \`ThingOptions\` | makes one   |
| \`THING_CODES\`                            | the codes   |
| \`@demo/pkg/testing\`: \`FakeThing\`         | a fake      |

| code | when |
| ---- | ---- |
| \`NOT_AN_EXPORT\` | ignored: not an API table |

### testing

| \`./testing\` export | what |
| ----------------- | ---- |
| \`fakeClock\`       | time |
`;

describe('compareReadmeApi()', () => {
  const entries = (mainExports: string[], testingExports: string[]) => [
    {
      specifier: '@demo/pkg',
      source:
        "export { createThing, type ThingOptions } from './thing.js';\nexport { THING_CODES };",
      exports: mainExports,
    },
    { specifier: '@demo/pkg/testing', source: '', exports: testingExports },
  ];

  it('finds nothing when the tables name exactly the exports', () => {
    expect(
      compareReadmeApi(readme, entries(['createThing', 'THING_CODES'], ['FakeThing', 'fakeClock'])),
    ).toEqual({ undocumented: [], unknown: [] });
  });

  it('reports an export no table names, and a name nothing exports', () => {
    expect(
      compareReadmeApi(readme, entries(['createThing', 'extra'], ['FakeThing', 'fakeClock'])),
    ).toEqual({ undocumented: ['@demo/pkg: extra'], unknown: ['@demo/pkg: THING_CODES'] });
  });

  it('reads type-only exports from the source', () => {
    expect(
      typeExportNames(
        "export type { A, B } from './a.js';\nexport { c, type D, type E as F } from './c.js';\nexport interface G {}",
      ),
    ).toEqual(new Set(['A', 'B', 'D', 'F', 'G']));
  });
});
