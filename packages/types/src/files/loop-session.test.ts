import { describe, expect, it } from 'vitest';
import { loopSessionRegistrySchema, loopStateSchema, pipelineStateSchema } from './loop-session.js';

// Seed 004's files are also written by the seed's own bash + jq tools: nulls for any optional
// field, optionals left out, unknown fields kept.

const entry = {
  type: 'loop',
  started_at: '2025-01-10T10:00:00Z',
  project_path: '/p',
  status: 'running',
};

describe('loopSessionRegistrySchema', () => {
  it('accepts null for every optional field, and keeps unknown fields', () => {
    const value = {
      sessions: {
        'loop-a': {
          ...entry,
          loop_type: null,
          pipeline_file: null,
          max_iterations: null,
          killed_at: null,
          completed_at: null,
          note: null,
          pid: null,
          hostname: null,
          tmux: 'loop-a',
        },
      },
      version: 2,
    };
    const parsed = loopSessionRegistrySchema.parse(value);
    expect(parsed.sessions['loop-a']?.tmux).toBe('loop-a');
    expect(parsed.version).toBe(2);
  });

  it("accepts hankweave's additions", () => {
    const additions = {
      pid: 42,
      hostname: 'h',
      execution_dir: '/e',
      data_path: '/d',
      hank_name: 'hank',
      parent: 'pipeline-x',
      agent_config_dir: '/c',
      updated_at: '2025-01-10T10:00:00Z',
    };
    const parsed = loopSessionRegistrySchema.parse({
      sessions: { 'loop-a': { ...entry, ...additions } },
    });
    expect(parsed.sessions['loop-a']).toMatchObject(additions);
  });

  it('rejects an unknown status or a missing started_at', () => {
    expect(
      loopSessionRegistrySchema.safeParse({ sessions: { a: { ...entry, status: 'x' } } }).success,
    ).toBe(false);
    const { started_at: _, ...withoutStart } = entry;
    expect(loopSessionRegistrySchema.safeParse({ sessions: { a: withoutStart } }).success).toBe(
      false,
    );
  });
});

describe('loopStateSchema', () => {
  const state = {
    session: 's',
    type: 'loop',
    started_at: '2025-01-10T10:00:00Z',
    status: 'running',
    iteration: 1,
  };

  it('accepts a history entry without reasoning, nulls and decision fields', () => {
    const parsed = loopStateSchema.parse({
      ...state,
      loop_type: null,
      completed_at: null,
      reason: null,
      history: [
        { iteration: 1, timestamp: 't', plateau: false },
        {
          iteration: 2,
          timestamp: 't',
          plateau: true,
          reasoning: 'r',
          decision: 'stop',
          source: 'message',
          codon_id: 'c',
        },
        { iteration: 3, timestamp: 't', plateau: false, decision: null, source: null },
      ],
    });
    expect(parsed.history).toHaveLength(3);
  });

  it('rejects an unknown decision', () => {
    const history = [{ iteration: 1, timestamp: 't', plateau: false, decision: 'maybe' }];
    expect(loopStateSchema.safeParse({ ...state, history }).success).toBe(false);
  });
});

describe('pipelineStateSchema', () => {
  it("accepts 'killed', a 'skipped' stage, runs null or missing, and nulls", () => {
    const parsed = pipelineStateSchema.parse({
      session: 's',
      pipeline: 'p',
      started_at: '2025-01-10T10:00:00Z',
      status: 'killed',
      current_stage: 0,
      completed_at: null,
      stages: [
        {
          name: 'a',
          loop: 'a',
          runs: null,
          status: 'skipped',
          started_at: null,
          iterations_run: null,
        },
        { name: 'b', loop: 'b', status: 'pending' },
      ],
    });
    expect(parsed.stages.map((stage) => stage.status)).toEqual(['skipped', 'pending']);
  });
});
