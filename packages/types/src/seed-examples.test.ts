import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { extractSeedExamples } from '../test/seed-examples.js';
import {
  agentLogLineSchema,
  archiveManifestSchema,
  codonExecutionSchema,
  eventSchema,
  executionMetaSchema,
  loadedSentinelsSchema,
  loopSessionRegistrySchema,
  loopStateSchema,
  newEventSchema,
  pipelineStateSchema,
  rigOperationSchema,
  runSchema,
  runtimeLockSchema,
  sentinelHistoryFileSchema,
  startingConditionsSchema,
  stateSchema,
  websocketLogEntrySchema,
} from './index.js';

type Matcher = {
  name: string;
  when: (value: Record<string, unknown>) => boolean;
  parse: (value: Record<string, unknown>) => { success: boolean; error?: z.ZodError };
};
const whole =
  (schema: z.ZodType) =>
  (value: unknown): { success: boolean; error?: z.ZodError } =>
    schema.safeParse(value);

// Each example is recognised by its shape and checked with the schema of the file or message it
// shows. An example that no rule recognises fails the test: every seed example must be covered.
const MATCHERS: Matcher[] = [
  { name: 'state', when: (v) => 'runs' in v && 'executionPlan' in v, parse: whole(stateSchema) },
  { name: 'run', when: (v) => 'runFolder' in v && 'gitBranch' in v, parse: whole(runSchema) },
  {
    name: 'starting conditions',
    when: (v) => v.type === 'fresh' || v.type === 'continuation',
    parse: whole(startingConditionsSchema),
  },
  {
    name: 'codon execution',
    when: (v) => 'codonId' in v && 'status' in v && 'startTime' in v,
    parse: whole(codonExecutionSchema),
  },
  {
    name: 'sentinel state of a codon',
    when: (v) => typeof v.sentinels === 'object' && v.sentinels !== null,
    parse: (v) => loadedSentinelsSchema.safeParse(v.sentinels),
  },
  {
    name: 'runtime lock',
    when: (v) => 'pid' in v && 'lastHeartbeat' in v,
    parse: whole(runtimeLockSchema),
  },
  {
    name: 'execution meta',
    when: (v) => 'readOnlySourceDataPath' in v,
    parse: whole(executionMetaSchema),
  },
  {
    name: 'journaled event',
    when: (v) => typeof v.id === 'string' && 'type' in v && 'data' in v,
    parse: whole(eventSchema),
  },
  {
    name: 'event without id',
    when: (v) => 'type' in v && 'timestamp' in v && 'data' in v,
    parse: whole(newEventSchema),
  },
  {
    name: 'websocket log entry',
    when: (v) => 'loggedAt' in v && 'direction' in v,
    parse: whole(websocketLogEntrySchema),
  },
  {
    name: 'agent log line',
    when: (v) => ['system', 'assistant', 'user', 'result'].includes(v.type as string),
    parse: whole(agentLogLineSchema),
  },
  { name: 'sentinel history', when: (v) => 'turns' in v, parse: whole(sentinelHistoryFileSchema) },
  {
    name: 'codon rig setup',
    when: (v) => 'rigSetup' in v,
    parse: (v) => rigOperationSchema.array().safeParse(v.rigSetup),
  },
  {
    name: 'archive manifest',
    when: (v) => 'entries' in v && 'version' in v,
    parse: whole(archiveManifestSchema),
  },
  {
    name: 'loop session registry',
    when: (v) => 'sessions' in v,
    parse: whole(loopSessionRegistrySchema),
  },
  {
    name: 'loop state',
    when: (v) => v.type === 'loop' && 'history' in v,
    parse: whole(loopStateSchema),
  },
  {
    name: 'pipeline state',
    when: (v) => 'pipeline' in v && 'stages' in v,
    parse: whole(pipelineStateSchema),
  },
];

describe('seed examples', () => {
  const examples = extractSeedExamples();

  it('finds the complete JSON examples of every seed document', () => {
    const seeds = new Set(examples.map((example) => example.seed.slice(0, 3)));
    expect([...seeds].sort()).toEqual(['000', '001', '003', '004']);
    expect(examples.length).toBeGreaterThanOrEqual(20);
  });

  it.each(examples.map((example) => [`${example.seed}:${example.line}`, example] as const))(
    'parses %s with its schema',
    (_, example) => {
      const value = example.value as Record<string, unknown>;
      const matcher = MATCHERS.find((candidate) => candidate.when(value));
      expect(
        matcher,
        `no schema recognises the example at line ${example.line}:\n${example.text}`,
      ).toBeDefined();
      const result = (matcher as Matcher).parse(value);
      expect(result.success, `${matcher?.name}: ${JSON.stringify(result.error?.issues)}`).toBe(
        true,
      );
    },
  );
});
