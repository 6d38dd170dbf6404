import {
  type HankweaveEvent,
  isAgenticBackboneEvent,
  isSentinelEvent,
  isServerStateEvent,
} from '@hankweave/types';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ConformanceContext, readText } from '../conformance-context.js';
import { sampleRun } from '../sample-events.js';

// Each case is one query pattern of seed 003, written as the seed writes it, against the
// 22-event sampleRun(): codons observe (ok, $0.012), generate-schema (ok, $0.0234) and review
// (failed, $0.005), a warning and a fatal error.
export function queryPatternCases(context: ConformanceContext): void {
  describe('seed 003 query patterns', () => {
    let stored: HankweaveEvent[];
    beforeEach(async () => {
      stored = await context.journal().appendMany(sampleRun());
    });

    it('Get Recent Events: the last N, chronological, with total and hasMore', async () => {
      const journal = context.journal();
      const { events, totalEvents, hasMore } = await journal.getMostRecentEvents(5);
      expect(events.map((event) => event.type)).toEqual([
        'token.usage',
        'codon.completed',
        'sentinel.unloaded',
        'error',
        'server.idle',
      ]);
      expect(events).toEqual(stored.slice(-5));
      expect(totalEvents).toBe(22);
      expect(hasMore).toBe(true);
    });

    it('Stream All Events: every event, one at a time', async () => {
      const journal = context.journal();
      const seen: string[] = [];
      for await (const event of journal.getAllEvents()) {
        seen.push(`${event.type} ${event.timestamp}`);
      }
      expect(seen).toHaveLength(22);
      expect(seen[0]).toBe('codon.started 2025-01-15T14:30:00.000Z');
      expect(seen[21]).toBe('server.idle 2025-01-15T14:30:21.000Z');
    });

    it('Get Total Count', async () => {
      const count = await context.journal().getTotalEvents();
      expect(count).toBe(22);
    });

    it('Create Download Stream: the raw JSONL, one event per line', async () => {
      const stream = await context.journal().streamAllEvents();
      const lines = (await readText(stream)).split('\n').filter(Boolean);
      expect(lines).toHaveLength(22);
      expect(lines.map((line) => JSON.parse(line).id)).toEqual(stored.map((event) => event.id));
    });

    it('Filtering by Codon', async () => {
      const found: HankweaveEvent[] = [];
      for await (const event of context.journal().getAllEvents()) {
        if ('codonId' in event.data && event.data.codonId === 'generate-schema') {
          found.push(event);
        }
      }
      expect(found.map((event) => event.type)).toEqual([
        'codon.started',
        'assistant.action',
        'tool.result',
        'token.usage',
        'codon.completed',
        'state.transition',
      ]);
    });

    it('Filtering by Category', async () => {
      const counts = { serverState: 0, agentic: 0, sentinel: 0 };
      for await (const event of context.journal().getAllEvents()) {
        if (isAgenticBackboneEvent(event)) counts.agentic += 1;
        if (isServerStateEvent(event)) counts.serverState += 1;
        if (isSentinelEvent(event)) counts.sentinel += 1;
      }
      expect(counts).toEqual({ serverState: 13, agentic: 6, sentinel: 3 });
    });

    it('Finding Failures', async () => {
      const failures: string[] = [];
      for await (const event of context.journal().getAllEvents()) {
        if (event.type === 'codon.completed' && !event.data.success) {
          failures.push(`Failed: ${event.data.codonId}`);
          failures.push(`Reason: ${event.data.failureReason?.message}`);
        }
        if (event.type === 'error' && event.data.fatal) {
          failures.push(`Fatal error: ${event.data.message}`);
        }
      }
      expect(failures).toEqual([
        'Failed: review',
        'Reason: Rate limited by the API',
        'Fatal error: Budget exhausted',
      ]);
    });

    it('Tracking Costs', async () => {
      let totalCost = 0;
      for await (const event of context.journal().getAllEvents()) {
        if (event.type === 'token.usage') {
          totalCost += event.data.totalCost;
        }
      }
      expect(totalCost).toBeCloseTo(0.0404, 10);
    });

    it('Progress Dashboard', async () => {
      const { events, hasMore } = await context.journal().getMostRecentEvents(100);
      const codons = new Map<string, { status: string; start: string; cost?: number }>();
      for (const event of events) {
        if (event.type === 'codon.started') {
          codons.set(event.data.codonId, { status: 'running', start: event.timestamp });
        }
        if (event.type === 'codon.completed') {
          const codon = codons.get(event.data.codonId);
          if (codon) {
            codon.status = event.data.success ? 'completed' : 'failed';
            codon.cost = event.data.cost;
          }
        }
      }
      expect(hasMore).toBe(false);
      expect(Object.fromEntries(codons)).toEqual({
        observe: { status: 'completed', start: '2025-01-15T14:30:00.000Z', cost: 0.012 },
        'generate-schema': { status: 'completed', start: '2025-01-15T14:30:08.000Z', cost: 0.0234 },
        review: { status: 'failed', start: '2025-01-15T14:30:14.000Z', cost: 0.005 },
      });
    });

    it('Cost Breakdown by Codon', async () => {
      const costs = new Map<string, number>();
      for await (const event of context.journal().getAllEvents()) {
        if (event.type === 'codon.completed') {
          costs.set(event.data.codonId, event.data.cost);
        }
      }
      expect([...costs]).toEqual([
        ['observe', 0.012],
        ['generate-schema', 0.0234],
        ['review', 0.005],
      ]);
    });

    it('Error Timeline', async () => {
      const errors = [];
      for await (const event of context.journal().getAllEvents()) {
        if (event.type === 'error') {
          errors.push({
            time: event.timestamp,
            message: event.data.message,
            severity: event.data.severity || 'unknown',
            fatal: event.data.fatal,
          });
        }
      }
      expect(errors).toEqual([
        {
          time: '2025-01-15T14:30:15.000Z',
          message: 'Retrying after rate limit',
          severity: 'warning',
          fatal: false,
        },
        {
          time: '2025-01-15T14:30:20.000Z',
          message: 'Budget exhausted',
          severity: 'fatal',
          fatal: true,
        },
      ]);
    });
  });
}
