import { claudeVersionOf } from './claude-version.js';
import type { ModelEntry, PiRegistryRow } from './model-entry.js';

// Pi's providers that resell or re-host other makers' models: gateways and aggregators, coding
// subscriptions, cloud platforms and regional twins. A bare model id several providers list
// (`gpt-5.2`: openai, azure-openai-responses, github-copilot, …) names the row of a provider not
// listed here first (`openai`); these come after, alphabetically. A provider a newer Pi adds
// counts as direct until it is listed here.
const RESELLERS: ReadonlySet<string> = new Set([
  'amazon-bedrock',
  'azure-openai-responses',
  'cloudflare-ai-gateway',
  'cloudflare-workers-ai',
  'github-copilot',
  'google-vertex',
  'huggingface',
  'kimi-coding',
  'minimax-cn',
  'moonshotai-cn',
  'openai-codex',
  'opencode',
  'opencode-go',
  'openrouter',
  'vercel-ai-gateway',
  'xiaomi-token-plan-ams',
  'xiaomi-token-plan-cn',
  'xiaomi-token-plan-sgp',
]);

/**
 * The catalog rows of Pi's registry, in the order a bare id's ambiguity is settled by: the
 * providers that serve models under their own name first, then the resellers (both sorted, as
 * the data file is).
 *
 * - The harness is `claude-code` for provider `anthropic` (reference §1.9), `pi` for the others.
 * - Pi lists $0 for models billed by subscription (GitHub Copilot, Codex, Z.ai's coding plan,
 *   Kimi for Coding) and for free tiers (`…:free`). Such a row gets no price: its usage counts
 *   as unpriced (`known: false`, budget warning W4) rather than as spending nothing.
 * - Anthropic's rows get their family and version (`sonnet`, `4.5`), so dated and regional ids
 *   resolve to them and a newer version moves its alias.
 */
export function piRegistryEntries(rows: readonly PiRegistryRow[]): ModelEntry[] {
  const entries = rows.map((row): ModelEntry => {
    const [provider, id, api, contextWindow, input, output, cacheRead, cacheWrite] = row;
    const free = input === 0 && output === 0 && cacheRead === 0 && cacheWrite === 0;
    const claude = provider === 'anthropic' ? claudeVersionOf(id) : undefined;
    return {
      id,
      provider,
      ...(claude !== undefined && claude),
      contextWindow,
      ...(!free && { price: { input, output, cacheWrite, cacheRead } }),
      api,
      harness: provider === 'anthropic' ? 'claude-code' : 'pi',
    };
  });
  return [
    ...entries.filter((entry) => !RESELLERS.has(entry.provider)),
    ...entries.filter((entry) => RESELLERS.has(entry.provider)),
  ];
}
