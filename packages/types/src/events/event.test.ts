import { describe, expect, it } from 'vitest';
import {
  AGENTIC_BACKBONE_EVENT_TYPES,
  CONNECTION_STATE_EVENT_TYPES,
  createEventId,
  eventCategoryOf,
  eventSchema,
  type HankweaveEvent,
  isAgenticBackboneEvent,
  isConnectionStateEvent,
  isJournaledEvent,
  isSentinelEvent,
  isServerStateEvent,
  newEventSchema,
  SENTINEL_EVENT_TYPES,
  SERVER_STATE_EVENT_TYPES,
} from '../index.js';

const tokenUsage = {
  id: 'evt_1',
  type: 'token.usage',
  timestamp: '2025-01-15T14:30:45.000Z',
  data: {
    codonId: 'observe',
    inputTokens: 1500,
    outputTokens: 800,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    totalCost: 0.012,
    modelId: 'claude-sonnet-4-5',
  },
};

describe('eventSchema', () => {
  it('validates the payload of each type and keeps extra fields', () => {
    const event = eventSchema.parse(tokenUsage);
    expect(event.type).toBe('token.usage');
    expect(event.data).toMatchObject({ modelId: 'claude-sonnet-4-5' });
  });

  it('names the bad field of a payload', () => {
    const result = eventSchema.safeParse({
      ...tokenUsage,
      data: { ...tokenUsage.data, totalCost: 'x' },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['data', 'totalCost']);
  });

  it('requires an id, while newEventSchema lets the journal assign one', () => {
    const { id: _, ...withoutId } = tokenUsage;
    expect(eventSchema.safeParse(withoutId).success).toBe(false);
    expect(newEventSchema.safeParse(withoutId).success).toBe(true);
  });

  it("takes a sentinel event's branch (ours) and checks its shape", () => {
    const output = (branch: unknown) => ({
      id: 'evt_2',
      type: 'sentinel.output',
      timestamp: '2025-01-15T14:30:45.000Z',
      data: {
        sentinelId: 'watch',
        codonId: 'alpha',
        triggerNumber: 1,
        outputType: 'text',
        content: 'ok',
        cost: 0.001,
        tokens: { input: 10, output: 2 },
        eventCount: 3,
        ...(branch === undefined ? {} : { branch }),
      },
    });
    const branch = { blockId: 'review', branchId: 'left' };
    expect(eventSchema.parse(output(branch)).data).toMatchObject({ branch });
    expect(eventSchema.safeParse(output(undefined)).success).toBe(true);
    expect(eventSchema.safeParse(output({ blockId: 'review' })).success).toBe(false);
  });

  it('rejects an unknown event type', () => {
    expect(eventSchema.safeParse({ ...tokenUsage, type: 'token.used' }).success).toBe(false);
  });

  it('reads state.snapshot with and without the running codons of a parallel block', () => {
    const running = (codonId: string, branchId: string) => ({
      codonId,
      status: 'preparing',
      startTime: '2025-01-15T14:30:45.000Z',
      branch: { blockId: 'review', branchId },
    });
    const original = {
      id: 'evt_2',
      type: 'state.snapshot',
      timestamp: '2025-01-15T14:30:46.000Z',
      data: {
        completedCodons: [],
        fileTree: [],
        totalCost: 0,
        totalTime: 10,
        isRollingBack: false,
      },
    };
    expect(eventSchema.safeParse(original).success).toBe(true);
    const parallel = eventSchema.parse({
      ...original,
      data: { ...original.data, activeCodons: [running('l1', 'left'), running('r1', 'right')] },
    }) as HankweaveEvent<'state.snapshot'>;
    expect(parallel.data.activeCodons?.map((codon) => codon.branch?.branchId)).toEqual([
      'left',
      'right',
    ]);
    // An entry is a whole execution record, not a bare id.
    const bad = { ...original, data: { ...original.data, activeCodons: ['l1'] } };
    expect(eventSchema.safeParse(bad).success).toBe(false);
  });

  it('makes unique evt_ ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, createEventId));
    expect(ids.size).toBe(1000);
    expect([...ids].every((id) => /^evt_[0-9a-f]{20}$/.test(id))).toBe(true);
  });
});

describe('event categories', () => {
  it('puts every type in exactly one category', () => {
    const all = [
      ...SERVER_STATE_EVENT_TYPES,
      ...AGENTIC_BACKBONE_EVENT_TYPES,
      ...SENTINEL_EVENT_TYPES,
      ...CONNECTION_STATE_EVENT_TYPES,
    ];
    expect(new Set(all).size).toBe(all.length);
    expect(eventCategoryOf('tool.result')).toBe('agenticBackbone');
    expect(eventCategoryOf('history.batch')).toBe('connectionState');
    expect(eventCategoryOf('no.such.type')).toBeUndefined();
  });

  it('filters events by category with type guards', () => {
    const events = [
      { type: 'codon.started' },
      { type: 'assistant.action' },
      { type: 'sentinel.output' },
      { type: 'pong' },
    ] as HankweaveEvent[];
    expect(events.filter(isServerStateEvent).map((e) => e.type)).toEqual(['codon.started']);
    expect(events.filter(isAgenticBackboneEvent).map((e) => e.type)).toEqual(['assistant.action']);
    expect(events.filter(isSentinelEvent).map((e) => e.type)).toEqual(['sentinel.output']);
    expect(events.filter(isConnectionStateEvent).map((e) => e.type)).toEqual(['pong']);
    expect(events.filter(isJournaledEvent)).toHaveLength(3);
  });
});
