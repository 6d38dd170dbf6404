import { isAbsolute } from 'node:path';
import type { SandboxPolicy } from '@hankweave/harness';
import type { ExecutionLayout } from '../execution/layout.js';
import type { Containment } from './containment.js';

/** What the sandbox of an execution's processes is made from. */
export interface ExecutionSandboxInput {
  containment: Containment;
  layout: ExecutionLayout;
  hankDir: string;
  /** The user's data as given, and its real path (`readOnlySourceResolvedDataPath`). */
  dataPaths: readonly string[];
  /** The environment processes start from (its `HOME` stays in view). */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The sandbox every process of this execution runs in (agents, rig and beforeCopy commands), or
 * undefined without one. Writable: `agentRoot` only (adapters add their agent's own config
 * directory). Read-only inside it: the data link (a copy of the data is protected where it
 * lies; a symlinked data directory where its files really are) and the data's real path. The
 * execution directory (with its `.hankweave/`), the hank directory and `HOME` stay in view,
 * read-only like everything else.
 */
export function executionSandboxPolicy(input: ExecutionSandboxInput): SandboxPolicy | undefined {
  const { containment, layout } = input;
  if (containment.sandbox !== 'bubblewrap') return undefined;
  const home = input.env.HOME;
  return {
    bubblewrap: containment.bubblewrap,
    writable: [layout.agentRoot],
    readOnly: [layout.dataLink, ...input.dataPaths.filter((path) => isAbsolute(path))],
    readable: [
      layout.executionDir,
      input.hankDir,
      ...input.dataPaths.filter((path) => isAbsolute(path)),
      ...(home !== undefined && isAbsolute(home) ? [home] : []),
    ],
    network: 'host',
  };
}
