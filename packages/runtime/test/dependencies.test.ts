import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const PACKAGES = new URL('../../', import.meta.url);
const manifestOf = (name: string): Manifest =>
  JSON.parse(
    readFileSync(new URL(`${name.replace('@hankweave/', '')}/package.json`, PACKAGES), 'utf8'),
  ) as Manifest;

/**
 * Every package an install of `name` pulls in (dependencies and optional ones, workspace packages
 * followed).
 */
function installedWith(name: string, seen = new Set<string>()): Set<string> {
  const manifest = manifestOf(name);
  const all = { ...manifest.dependencies, ...manifest.optionalDependencies };
  for (const dependency of Object.keys(all)) {
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
    expect([...installed].filter((name) => name.startsWith('@anthropic-ai/claude-code'))).toEqual(
      [],
    );
    const runtime = manifestOf('@hankweave/runtime');
    expect(runtime.peerDependencies).toHaveProperty('@hankweave/claude-code');
    expect(runtime.peerDependenciesMeta?.['@hankweave/claude-code']?.optional).toBe(true);
    // The adapter brings the agent's native binary: the platform packages, optional, as
    // @anthropic-ai/claude-code declares them (that package itself is not needed: its install
    // only copies the binary, and pnpm reads all of its 377 MB to link its bin).
    const adapter = manifestOf('@hankweave/claude-code');
    const platforms = Object.keys(adapter.optionalDependencies ?? {});
    expect(platforms).toContain(`@anthropic-ai/claude-code-linux-x64`);
    expect(platforms.every((name) => name.startsWith('@anthropic-ai/claude-code-'))).toBe(true);
    expect(platforms).toHaveLength(8);
  });
});
