import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { ChangeScanner, type ScanResult } from '@hankweave/files';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../test/recording-logger.js';
import { settingsFromOptions } from '../runtime/settings-from-options.js';
import { AgentRootWatch, DEFAULT_FILE_WATCH } from './agent-root-watch.js';

afterEach(cleanupTempDirs);

async function tree(files: number) {
  const { path } = await makeTempDir('hankweave-root-watch-');
  for (let i = 0; i < files; i++) writeFileSync(join(path, `f${i}.ts`), String(i));
  return path;
}

describe('AgentRootWatch', () => {
  it('watches once a scan lists minFiles tracked files, not before', async () => {
    const root = await tree(3);
    const { lines, log } = recordingLogger();
    const watch = new AgentRootWatch(root, { ...DEFAULT_FILE_WATCH, minFiles: 4 }, log);
    const scanner = new ChangeScanner(root);
    try {
      watch.consider(scanner, (await scanner.scanWatched(['**'])).snapshot.size);
      await watch.started();
      expect(watch.watching).toBe(false);
      writeFileSync(join(root, 'f3.ts'), '3');
      watch.consider(scanner, (await scanner.scanWatched(['**'])).snapshot.size);
      await watch.started();
      expect(watch.watching).toBe(true);
      expect(lines).toEqual([
        "INFO Watching agentRoot's file events: 4 tracked files, at least 4 (fileWatch.minFiles)",
      ]);
      expect((await scanner.scanWatched(['**'])).by).toBe('walk'); // the baseline
      writeFileSync(join(root, 'f4.ts'), '4');
      const next = await scanner.scanWatched(['**']);
      // From events, unless a loaded machine delivered the settle marker too late (it walks).
      expect(next.walkReason ?? 'events').toMatch(/^events$|settle marker/);
      expect(next.changes.created.map((change) => change.path)).toEqual(['f4.ts']);
    } finally {
      await watch.close();
    }
    expect(watch.watching).toBe(false);
    expect((await scanner.scanWatched(['**'])).walkReason).toBe('the watcher is closed');
  });

  it('gives the watcher its settle timeout: past it, a scan walks and says so', async () => {
    const root = await tree(2);
    const watch = new AgentRootWatch(
      root,
      { ...DEFAULT_FILE_WATCH, minFiles: 0, settleTimeoutMs: 1 },
      recordingLogger().log,
    );
    const scanner = new ChangeScanner(root);
    try {
      watch.consider(scanner, (await scanner.scanWatched(['**'])).snapshot.size);
      await watch.started();
      expect(watch.watching).toBe(true);
      await scanner.scanWatched(['**']); // the baseline walk
      // The scan's settle first lets the event loop turn (check-phase callbacks), then places
      // its marker and arms its 1 ms timer. A busy wait in a check phase after the marker was
      // placed lets that timer fall due before the loop polls for the marker's event. Busy waits
      // in several check phases (chains started at once and from a timer) land after the
      // placement in most attempts, but where they land depends on the loop; so each attempt
      // writes a file, and one of ten must time out. With the default 2 s, none ever could.
      let timedOut: ScanResult | undefined;
      for (let attempt = 0; attempt < 10 && !timedOut; attempt++) {
        writeFileSync(join(root, `new-${attempt}.ts`), String(attempt));
        const next = await new Promise<ScanResult>((resolve, reject) => {
          scanner.scanWatched(['**']).then(resolve, reject);
          const chain = (turns: number) => () => {
            const until = performance.now() + 20;
            while (performance.now() < until);
            if (turns > 1) setImmediate(chain(turns - 1));
          };
          setImmediate(chain(5));
          setTimeout(() => setImmediate(chain(5)), 0);
        });
        if (next.walkReason !== undefined) {
          expect(next.walkReason).toMatch(/settle marker had no event within 1 ms/);
          expect(next.changes.created.map((change) => change.path)).toEqual([`new-${attempt}.ts`]);
          timedOut = next;
        } else
          expect(next.changes.created.map((change) => change.path)).toEqual([`new-${attempt}.ts`]);
      }
      expect(timedOut).toBeDefined();
    } finally {
      await watch.close();
    }
  });

  it('never watches when disabled, nor after close, even with a start in flight', async () => {
    const root = await tree(2);
    const disabled = new AgentRootWatch(
      root,
      { ...DEFAULT_FILE_WATCH, enabled: false, minFiles: 0 },
      recordingLogger().log,
    );
    const scanner = new ChangeScanner(root);
    disabled.consider(scanner, 2);
    await disabled.started();
    expect(disabled.watching).toBe(false);
    const closing = new AgentRootWatch(
      root,
      { ...DEFAULT_FILE_WATCH, minFiles: 0 },
      recordingLogger().log,
    );
    closing.consider(scanner, 2);
    await closing.close(); // before the crawl is done
    expect(closing.watching).toBe(false);
    expect((await scanner.scanWatched(['**'])).by).toBe('walk');
    closing.consider(scanner, 2);
    expect(closing.watching).toBe(false);
  });

  it('walks on, with a warning, where the root cannot be watched', async () => {
    const { lines, log } = recordingLogger();
    const watch = new AgentRootWatch(
      '/nonexistent/agentRoot',
      { ...DEFAULT_FILE_WATCH, minFiles: 0 },
      log,
    );
    watch.consider(new ChangeScanner('/nonexistent/agentRoot'), 0);
    await watch.started();
    expect(watch.watching).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(/^WARN agentRoot's file events are not available/),
    ]);
  });

  it('refuses a fileWatch.minFiles that is not a count, naming the option', () => {
    for (const minFiles of [-1, 1.5, Number.NaN]) {
      expect(() => settingsFromOptions({ dataPath: '/d', fileWatch: { minFiles } })).toThrow(
        expect.objectContaining({
          code: 'RUNTIME_INVALID_OPTION',
          details: { option: 'fileWatch.minFiles' },
        }),
      );
    }
    for (const settleTimeoutMs of [0, -5, 2.5, Number.NaN]) {
      expect(() => settingsFromOptions({ dataPath: '/d', fileWatch: { settleTimeoutMs } })).toThrow(
        expect.objectContaining({
          code: 'RUNTIME_INVALID_OPTION',
          details: { option: 'fileWatch.settleTimeoutMs' },
        }),
      );
    }
    expect(settingsFromOptions({ dataPath: '/d' }).fileWatch).toEqual({
      enabled: true,
      minFiles: 10_000,
      settleTimeoutMs: 2000,
    });
  });
});
