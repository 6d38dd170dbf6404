import type { PiRegistryRow } from '../src/models/model-entry.js';

/** Pi's `MODELS` table (pi-ai's dist/models.generated.js), as far as the catalog reads it. */
export type PiModelsTable = Record<
  string,
  Record<
    string,
    {
      id: string;
      provider: string;
      api: string;
      contextWindow: number;
      cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
    }
  >
>;

/** One row per model of Pi's registry, sorted by provider then id. */
export function piRegistryRows(models: PiModelsTable): PiRegistryRow[];

/** The data file's text before formatting. */
export function renderPiRegistryData(rows: readonly PiRegistryRow[], version: string): string;

/** The installed pi-ai's version and `MODELS` table. */
export function loadPiRegistry(): Promise<{ version: string; models: PiModelsTable }>;
