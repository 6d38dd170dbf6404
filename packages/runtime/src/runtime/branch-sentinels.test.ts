import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDirSync } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';
import { NO_SENTINELS, type SentinelHost } from './sentinel-host.js';

afterEach(cleanupTempDirs);

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Go.',
  ...extra,
});
const watcher = {
  sentinelConfig: {
    id: 'watch',
    name: 'Watch',
    model: 'anthropic/claude-haiku-4-5',
    trigger: { type: 'event', on: ['assistant.action'] },
    execution: { strategy: 'immediate' },
    userPromptText: 'Watch <%= it.events.length %> events.',
  },
};
const hank = {
  meta: { name: 'p', version: '1.0.0' },
  hank: [
    {
      type: 'parallel',
      id: 'build',
      name: 'build',
      branches: [
        { id: 'api', items: [codon('api-code', { sentinels: [watcher] })] },
        { id: 'ui', items: [codon('ui-code')] },
      ],
    },
  ],
};

describe("sentinels on a parallel block's codons", () => {
  it('are refused, before anything is created, with a host that cannot open one per branch', async () => {
    const root = makeTempDirSync('branch-sentinels-').path;
    const dataPath = join(root, 'data');
    mkdirSync(dataPath);
    const baseDir = join(root, 'executions');
    const { forBranch: _, ...single } = NO_SENTINELS;
    const runtime = createRuntime({
      hank,
      hankDir: root,
      dataPath,
      executionBaseDir: baseDir,
      sentinels: single as SentinelHost,
      preflight: false,
      headless: true,
    });
    await expect(runtime.start()).rejects.toMatchObject({
      code: 'RUNTIME_UNSUPPORTED_FEATURE',
      details: { feature: 'parallel-sentinels', items: ['api-code'] },
    });
    expect(existsSync(baseDir)).toBe(false);
  });
});
