import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const PACKAGES = new URL('../../', import.meta.url);
const manifestOf = (name: string): Manifest =>
  JSON.parse(
    readFileSync(new URL(`${name.replace('@hankweave/', '')}/package.json`, PACKAGES), 'utf8'),
  ) as Manifest;

/** Every package an install of `name` pulls in (dependencies only, workspace packages followed). */
function installedWith(name: string, seen = new Set<string>()): Set<string> {
  for (const dependency of Object.keys(manifestOf(name).dependencies ?? {})) {
    if (seen.has(dependency)) continue;
    seen.add(dependency);
    if (dependency.startsWith('@hankweave/')) installedWith(dependency, seen);
  }
  return seen;
}

describe('what installing @hankweave/runtime installs', () => {
  it('never pulls in Claude Code: the adapter is an optional peer', () => {
    const installed = installedWith('@hankweave/runtime');
    expect(installed).toContain('@hankweave/harness');
    expect(installed).not.toContain('@hankweave/claude-code');
    expect(installed).not.toContain('@anthropic-ai/claude-code');
    const runtime = manifestOf('@hankweave/runtime');
    expect(runtime.peerDependencies).toHaveProperty('@hankweave/claude-code');
    expect(runtime.peerDependenciesMeta?.['@hankweave/claude-code']?.optional).toBe(true);
    expect(installedWith('@hankweave/claude-code')).toContain('@anthropic-ai/claude-code');
  });
});
