import { readFileSync } from 'node:fs';

/** The version in this package's package.json (next to dist/). */
export function cliVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
