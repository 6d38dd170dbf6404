import { dirname } from 'node:path';
import { buildPrompts, executionLayout, loadHank } from '@hankweave/runtime';
import type { CodonConfig, PlanCodon } from '@hankweave/types';

/**
 * The prompt of a plan codon as the agent got it, built by the runtime's own prompt builder from
 * the hank's prompt files as they are now (an edit since the run shows the edited text);
 * undefined when there is none, or the hank or a prompt file is gone.
 */
export async function codonPrompt(
  codon: PlanCodon | undefined,
  hankPath: string | undefined,
  executionDir: string,
): Promise<string | undefined> {
  if (!codon || !hankPath) return undefined;
  const layout = executionLayout(executionDir);
  try {
    const { config } = loadHank({ hankPath });
    const built = await buildPrompts(config, codon as unknown as CodonConfig, {
      hankDir: dirname(hankPath),
      agentRoot: layout.agentRoot,
      dataDir: layout.dataLink,
    });
    return built.prompt === '' ? undefined : built.prompt;
  } catch {
    return undefined;
  }
}
