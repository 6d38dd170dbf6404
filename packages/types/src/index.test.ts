import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildHankJsonSchema, buildSentinelJsonSchema } from './index.js';

describe('@hankweave/types', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });
});

describe('JSON Schemas', () => {
  it('describes hank.json strictly, with the codon fields and the plateau loop', () => {
    const schema = buildHankJsonSchema() as {
      additionalProperties: boolean;
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(schema.additionalProperties).toBe(false);
    // `meta` is optional, as in the original runtime (a hank without it is named after its file).
    expect(schema.required).toEqual(['hank']);
    expect(schema.properties).toHaveProperty('meta');
    const text = JSON.stringify(schema);
    for (const field of [
      'continuationMode',
      'checkpointedFiles',
      'trackedFiles',
      'rigSetup',
      'plateau',
    ]) {
      expect(text).toContain(`"${field}"`);
    }
  });

  it('describes sentinel configs with structured output as data', () => {
    const text = JSON.stringify(buildSentinelJsonSchema());
    expect(text).toContain('"structuredOutput"');
    expect(text).not.toContain('schemaStr');
  });

  it('ships the generated files next to the package after a build', () => {
    const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
    expect(existsSync(`${dir}hank.schema.json`)).toBe(true);
    const shipped = JSON.parse(readFileSync(`${dir}hank.schema.json`, 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(buildHankJsonSchema())));
  });
});
