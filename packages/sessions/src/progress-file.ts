import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import {
  createDirectory,
  type Fs,
  hasErrno,
  isMissing,
  NO_HARD_LINK_CODES,
  nodeFs,
  syncDirectory,
} from '@hankweave/durable-io';
import { ioError } from './internal/json-file.js';

/**
 * The seed's progress file header: `# Progress: {session}`, an optional `Verify: {command}`,
 * and the `## Codebase Patterns` section, closed by the first `---` line.
 */
export function progressFileHeader(session: string, verify?: string): string {
  return (
    `# Progress: ${session}\n\n` +
    (verify ? `Verify: ${verify}\n\n` : '') +
    '## Codebase Patterns\n(Patterns discovered during implementation)\n\n---\n'
  );
}

/**
 * Creates `file` with the header when it does not exist (durable and atomic: a complete header
 * appears under its name or nothing does; creates directories). Never overwrites: returns true
 * when it created the file, false when one was there (even one created a moment before).
 * @throws {SessionsError} SESSIONS_IO
 */
export async function ensureProgressFile(
  file: string,
  session: string,
  options: { verify?: string; fs?: Fs } = {},
): Promise<boolean> {
  const fs = options.fs ?? nodeFs;
  try {
    if (await exists(fs, file)) return false;
    const dir = dirname(file);
    await createDirectory(dir, { fs });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(progressFileHeader(session, options.verify));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      const created = await publishWithoutOverwrite(fs, temp, file);
      if (created) await syncDirectory(dir, { fs });
      return created;
    } finally {
      await fs.unlink(temp).catch(() => undefined);
    }
  } catch (error) {
    throw ioError('create the progress file', file, error);
  }
}

/**
 * Gives `temp` the name `file` unless `file` exists. A hard link fails with EEXIST instead of
 * replacing (rename would replace an agent's notes written meanwhile); where links do not work,
 * a check then a rename, whose race only matters if two runtimes create one file at once.
 */
async function publishWithoutOverwrite(fs: Fs, temp: string, file: string): Promise<boolean> {
  try {
    await fs.link(temp, file);
    return true;
  } catch (error) {
    if (hasErrno(error, 'EEXIST')) return false;
    if (!hasErrno(error, ...NO_HARD_LINK_CODES)) throw error;
  }
  if (await exists(fs, file)) return false;
  await fs.rename(temp, file);
  return true;
}

async function exists(fs: Fs, file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/**
 * The entries of a progress file: what follows its first `---` line, split on `---` lines,
 * each trimmed, empty ones dropped (the text the seed's `awk '/^---$/{found=1; next} found'`
 * prints, one string per entry).
 */
export function progressEntries(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex(isSeparator);
  if (first === -1) return [];
  const entries: string[] = [];
  let current: string[] = [];
  for (const line of lines.slice(first + 1)) {
    if (!isSeparator(line)) {
      current.push(line);
      continue;
    }
    entries.push(current.join('\n').trim());
    current = [];
  }
  entries.push(current.join('\n').trim());
  return entries.filter((entry) => entry !== '');
}

function isSeparator(line: string): boolean {
  return /^---\s*$/.test(line);
}
