import type { AgentSession } from '@hankweave/harness';
import { checkDataSource } from '../data-guard/codon-data-guard.js';
import { eventBranch } from '../parallel/block-lanes.js';
import { apiRetryMessage } from '../preflight/api-retry-message.js';
import type { PromptMetadata } from '../prompt/frontmatter.js';
import { emit, info, type RuntimeContext, transition } from '../runtime/runtime-context.js';
import { toolMayChangeFiles } from './agent-tools.js';
import { type CodonAttempt, moveCodon } from './codon-attempt.js';
import { scanAndReport } from './tracked-files.js';

/**
 * Turns the harness's agent events into transitions and journaled events (reference §4.5): the
 * session id moves the codon to `running` and announces `codon.started`; actions, tool results
 * and token usage are journaled (sentinels receive them from the event bus, as every event); a tool that may change files triggers a scan of the tracked
 * files; costs and message counts become transitions.
 */
export async function consumeAgentEvents(
  attempt: CodonAttempt,
  session: AgentSession,
  announce: { previousSessionId?: string; promptMetadata?: PromptMetadata },
): Promise<{ contextExceeded: boolean }> {
  const { context, runId, codonId, codon, control } = attempt;
  let contextExceeded = false;
  for await (const event of session.events) {
    switch (event.type) {
      case 'session.started':
        if (control.status === 'initializing') {
          moveCodon(attempt, { to: 'running', metadata: { claudeSessionId: event.sessionId } });
          emit(context, 'codon.started', {
            codonId,
            codonName: codon.name,
            ...(codon.description ? { codonDescription: codon.description } : {}),
            sessionId: event.sessionId,
            ...(announce.previousSessionId
              ? { previousSessionId: announce.previousSessionId }
              : {}),
            startTime: attempt.startTime,
            ...(announce.promptMetadata ? { promptMetadata: announce.promptMetadata } : {}),
            ...eventBranch(context.store.state, codonId),
          });
          info(context, `Started codon ${codonId} with session ID: ${event.sessionId}`);
        }
        break;
      case 'assistant.action':
        emit(context, 'assistant.action', event.data);
        break;
      case 'tool.result':
        emit(context, 'tool.result', event.data);
        if (toolMayChangeFiles(event.data.toolName)) {
          attempt.hint.add(
            await scanAndReport(context, codonId, attempt.patterns, {
              kind: 'tool_use',
              toolUseId: event.data.toolUseId,
            }),
          );
          // The user's data is never changed: the first change found stops the agent, and the
          // codon fails with it (runAgent).
          const after = `the ${event.data.toolName} tool call ${event.data.toolUseId}`;
          if (await checkDataSource(attempt, after, { afterToolCall: true }))
            void session.kill('the data source changed');
        }
        break;
      case 'token.usage':
        // Incremental usage becomes a transition; the final figures are set when the codon ends
        // (CodonFinalCostSet), and announced here so the journal's token.usage events add up.
        if (
          !event.final &&
          (control.status === 'running' || control.status === 'completing-sentinels')
        ) {
          const { inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, totalCost } =
            event.data;
          transition(context, {
            type: 'CostsIncremented',
            data: {
              runId,
              codonId,
              costDelta: Math.max(0, totalCost),
              tokensDelta: { inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens },
            },
          });
        }
        if (event.final)
          emit(context, 'token.usage', reconcileFinal(context, runId, codonId, event.data));
        else emit(context, 'token.usage', event.data);
        break;
      case 'assistant.message.counted':
        if (control.status === 'running') {
          transition(context, {
            type: 'AssistantMessageCountUpdated',
            data: { runId, codonId, newCount: event.count },
          });
        }
        break;
      case 'api.retry':
        info(context, apiRetryMessage(event));
        break;
      case 'context.exceeded':
        contextExceeded = true;
        context.log.warn(`Codon ${codonId}: context exceeded (${event.reason})`);
        break;
      case 'warning':
        context.log.warn(`Codon ${codonId}: ${event.message}`);
        break;
      case 'stderr':
        context.log.debug(`Codon ${codonId} agent stderr: ${event.line}`);
        break;
      default:
        break;
    }
  }
  return { contextExceeded };
}

/**
 * The final `token.usage` carries the authoritative totals' difference from what the incremental
 * events already reported, so that summing `token.usage.totalCost` over a journal (seed 003
 * "Tracking Costs") gives exactly the final cost, while `modelUsage` carries the per-model detail.
 */
function reconcileFinal(
  context: RuntimeContext,
  runId: string,
  codonId: string,
  data: Parameters<typeof emit<'token.usage'>>[2],
): Parameters<typeof emit<'token.usage'>>[2] {
  const record = context.store.state.runs
    .find((run) => run.runId === runId)
    ?.codons.findLast((c) => c.codonId === codonId) as
    | { currentCost?: number; currentTokens?: Record<string, number> }
    | undefined;
  const reported = record?.currentTokens;
  return {
    ...data,
    inputTokens: data.inputTokens - (reported?.inputTokens ?? 0),
    outputTokens: data.outputTokens - (reported?.outputTokens ?? 0),
    cacheCreationTokens: data.cacheCreationTokens - (reported?.cacheCreationTokens ?? 0),
    cacheReadTokens: data.cacheReadTokens - (reported?.cacheReadTokens ?? 0),
    totalCost: data.totalCost - (record?.currentCost ?? 0),
  };
}
