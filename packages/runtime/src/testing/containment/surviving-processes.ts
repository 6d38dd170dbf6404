import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes of this machine whose command line holds `token` (Linux, from /proc): what a
 * codon started and left behind. Each attack that starts a background process puts a unique
 * token in its command line.
 */
export function processesWith(token: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue; // gone meanwhile
    }
    if (cmdline.includes(token)) found.push({ pid: Number(name), cmdline });
  }
  return found;
}
