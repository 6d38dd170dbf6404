// Writes the event journal of a schedule through the journal package's own writer
// (`createFileJournal(...).appendMany`, in batches): per codon record a `codon.started`, then
// model calls (`token.usage`, an `assistant.action` tool use, its `tool.result`, an
// `assistant.action` thought or message) spread over the record's time, and a `codon.completed`.
import { createFileJournal } from '@hankweave/journal';
import { recordUsage } from './write-state.mjs';

const BATCH = 10_000;
const iso = (ms) => new Date(ms).toISOString();

const NOTES = [
  'The CSV has a header row and three columns; the third one is a population in thousands.',
  'Two rows disagree on the country name spelling; I will keep the one used in the readme.',
  'The summary should stay under ten lines, so I will merge the two paragraphs about sources.',
  'Nothing else to check in this file; moving on to the notes written by the previous step.',
];

/** The event of position `k` (0 … eventsPerRecord - 1) of a record. */
function eventOf(record, k, eventsPerRecord, usage) {
  const { codonId, ordinal, startMs, endMs } = record;
  const timestamp = iso(
    startMs + Math.floor(((k + 1) * (endMs - startMs)) / (eventsPerRecord + 1)),
  );
  if (k === 0)
    return {
      type: 'codon.started',
      timestamp,
      data: {
        codonId,
        codonName: codonId.startsWith('refine') ? 'Refine the notes' : `Step ${codonId}`,
        sessionId: `session-${ordinal}`,
        startTime: iso(startMs),
      },
    };
  if (k === eventsPerRecord - 1) {
    const success = record.outcome === 'completed';
    return {
      type: 'codon.completed',
      timestamp,
      data: {
        codonId,
        success,
        cost: success ? usage.cost : 0,
        duration: endMs - startMs,
        exitStatus: success ? { type: 'success' } : { type: 'error', code: 1 },
        ...(success
          ? {}
          : {
              failureReason: {
                type: 'api-error',
                retriable: record.outcome === 'retried',
                message: 'API Error: 500 Internal server error',
              },
            }),
      },
    };
  }
  const call = Math.floor((k - 1) / 4);
  const toolUseId = `toolu_${ordinal}_${call}`;
  switch ((k - 1) % 4) {
    case 0:
      return {
        type: 'token.usage',
        timestamp,
        data: {
          codonId,
          inputTokens: 2400,
          outputTokens: 90,
          cacheCreationTokens: 0,
          cacheReadTokens: 1800,
          totalCost: usage.perCall,
          modelId: 'claude-sonnet-4-5',
        },
      };
    case 1:
      return {
        type: 'assistant.action',
        timestamp,
        data: {
          codonId,
          action: 'tool_use',
          content: '',
          toolName: 'Bash',
          toolInput: {
            command: `grep -n "step ${call}" notes/*.md`,
            description: 'Search the notes',
          },
          toolUseId,
        },
      };
    case 2: {
      const result = `notes/observations.md:${call}: step ${call} of ${codonId}: the figures match the source table.`;
      return {
        type: 'tool.result',
        timestamp,
        data: {
          codonId,
          toolUseId,
          toolName: 'Bash',
          result,
          truncated: false,
          originalLength: result.length,
          executionTimeMs: 20 + (call % 40),
          isError: false,
        },
      };
    }
    default:
      return {
        type: 'assistant.action',
        timestamp,
        data: {
          codonId,
          action: call % 2 === 0 ? 'thinking' : 'message',
          content: NOTES[call % NOTES.length],
        },
      };
  }
}

/**
 * Appends every event of the schedule to `{hankweaveDir}/events/events.jsonl` in batches of
 * 10,000, calling `progress(written, total)` after each batch. Returns the number written.
 */
export async function writeJournal(schedule, hankweaveDir, progress = () => {}) {
  const { eventsPerRecord } = schedule.shape;
  const total = schedule.records.length * eventsPerRecord;
  const journal = await createFileJournal({ hankweaveDir });
  let batch = [];
  let written = 0;
  try {
    for (const record of schedule.records) {
      const usage = recordUsage(record, eventsPerRecord);
      for (let k = 0; k < eventsPerRecord; k++) {
        batch.push(eventOf(record, k, eventsPerRecord, usage));
        if (batch.length === BATCH) {
          await journal.appendMany(batch);
          written += batch.length;
          batch = [];
          progress(written, total);
        }
      }
    }
    if (batch.length > 0) {
      await journal.appendMany(batch);
      written += batch.length;
      progress(written, total);
    }
    await journal.flush();
    const stored = await journal.getTotalEvents();
    if (stored !== total) throw new Error(`the journal holds ${stored} events, expected ${total}`);
    return stored;
  } finally {
    await journal.close();
  }
}
