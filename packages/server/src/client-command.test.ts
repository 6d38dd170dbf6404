import type { RuntimeCommand } from '@hankweave/runtime';
import { describe, expectTypeOf, it } from 'vitest';
import type { ClientCommandInput } from './connect-hankweave.js';

describe('ClientCommandInput', () => {
  it('is the runtime’s RuntimeCommand, spelled without importing the runtime', () => {
    expectTypeOf<ClientCommandInput>().toEqualTypeOf<RuntimeCommand>();
  });
});
