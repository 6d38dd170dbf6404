import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { GEN_AI } from './attributes.js';
import { TELEMETRY_ERROR_CODES } from './errors.js';

describe('@hankweave/telemetry', () => {
  it('exports exactly the public surface', async () => {
    expect(Object.keys(await import('./index.js'))).toMatchSnapshot();
    expect(Object.keys(await import('./testing.js'))).toMatchSnapshot();
  });

  it('has a closed list of error codes', () => {
    expect(TELEMETRY_ERROR_CODES).toMatchSnapshot();
  });

  it('uses the GenAI semantic conventions’ attribute names as the SDK spells them', () => {
    const known = new Set(
      Object.entries(incubating)
        .filter(([name]) => name.startsWith('ATTR_GEN_AI_'))
        .map(([, value]) => value),
    );
    for (const name of Object.values(GEN_AI)) expect(known, name).toContain(name);
  });
});
