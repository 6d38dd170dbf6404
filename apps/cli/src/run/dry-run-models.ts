import { piApiOf } from '@hankweave/pi';
import { type HankConfig, itemCodons, selectHarness } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';

/**
 * Pi's API families the scripted model answers (`@hankweave/scripted-model`'s README): Chat
 * Completions (and Mistral's variant of it), OpenAI's Responses (and Azure's, the same behind an
 * api-key header), Messages and Gemini's generateContent. Bedrock, Vertex and Codex need their
 * cloud's signing or a login.
 */
const SCRIPTED_PI_APIS = new Set([
  'openai-completions',
  'mistral-conversations',
  'openai-responses',
  'azure-openai-responses',
  'anthropic-messages',
  'google-generative-ai',
]);

/**
 * Refuses a dry run whose Pi codons would speak an API family the scripted model does not answer,
 * before anything starts: their agents would otherwise fail on their first request with an error
 * of the provider's client.
 * @throws {CliError} CLI_USAGE naming each codon, its model and its family.
 */
export function checkDryRunModels(config: HankConfig, modelOverride?: string): void {
  const codons = config.hank.flatMap(itemCodons);
  const unserved: string[] = [];
  for (const codon of codons) {
    const model = modelOverride ?? codon.model;
    if (model === undefined) continue;
    const selection = selectHarness(model);
    if (selection.harness !== 'pi') continue;
    const api = piApiOf(selection.provider);
    if (api !== undefined && SCRIPTED_PI_APIS.has(api)) continue;
    unserved.push(`${codon.id} (${model}: ${api ?? `${selection.provider}'s own API`})`);
  }
  if (unserved.length === 0) return;
  throw new CliError(
    'CLI_USAGE',
    `The scripted model cannot answer ${unserved.join(', ')}: a dry run speaks only ${[...SCRIPTED_PI_APIS].join(', ')} to Pi codons`,
    'Give those codons a model of another provider for the dry run (-m/--model for every codon), or run them for real.',
  );
}
