import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentLogWriter, stampStdoutLine, stderrLogLine } from './agent-log-writer.js';

const T = '2026-11-23T03:00:00.000Z';

describe('stampStdoutLine()', () => {
  it('adds the timestamp after the last field and keeps the rest byte for byte', () => {
    const line = '{"duration_ms":157,"total_cost_usd":0.000017999999999999997,"type":"result"}';
    expect(stampStdoutLine(line, T)).toBe(
      `{"duration_ms":157,"total_cost_usd":0.000017999999999999997,"type":"result","timestamp":"${T}"}`,
    );
  });

  it('keeps a timestamp the line already has', () => {
    const line = '{"type":"assistant","timestamp":"2020-01-01T00:00:00.000Z"}';
    expect(stampStdoutLine(line, T)).toBe(line);
  });

  it('handles an empty object, surrounding spaces and CRLF', () => {
    expect(stampStdoutLine('{}', T)).toBe(`{"timestamp":"${T}"}`);
    expect(stampStdoutLine('  {"a":1}  \r', T)).toBe(`{"a":1,"timestamp":"${T}"}`);
  });

  it('wraps a line that is not a JSON object', () => {
    expect(JSON.parse(stampStdoutLine('Loading…', T))).toEqual({
      type: 'stdout',
      timestamp: T,
      text: 'Loading…',
    });
    expect(JSON.parse(stampStdoutLine('[1,2]', T))).toEqual({
      type: 'stdout',
      timestamp: T,
      text: '[1,2]',
    });
    expect(JSON.parse(stampStdoutLine('{"a":', T))).toEqual({
      type: 'stdout',
      timestamp: T,
      text: '{"a":',
    });
  });
});

describe('stderrLogLine()', () => {
  it('writes {type, timestamp, message}', () => {
    expect(stderrLogLine('boom', T)).toBe(`{"type":"stderr","timestamp":"${T}","message":"boom"}`);
  });
});

describe('AgentLogWriter', () => {
  afterEach(cleanupTempDirs);

  it('creates the directory and appends lines in order to an existing log', async () => {
    const dir = (await makeTempDir('hw-writer-')).path;
    const path = join(dir, 'runs', 'r1', 'a#0-claude.log');
    const first = await AgentLogWriter.open(path);
    await Promise.all(['1', '2', '3'].map((line) => first.write(line)));
    await first.close();
    const second = await AgentLogWriter.open(path);
    await second.write('4');
    await second.close();
    expect(await readFile(path, 'utf8')).toBe('1\n2\n3\n4\n');
  });

  it('fails to open with HARNESS_LOG_WRITE_FAILED when the directory cannot exist', async () => {
    const dir = (await makeTempDir('hw-writer-')).path;
    await writeFile(join(dir, 'file'), '');
    await expect(AgentLogWriter.open(join(dir, 'file', 'x.log'))).rejects.toMatchObject({
      code: 'HARNESS_LOG_WRITE_FAILED',
    });
  });

  it.runIf(process.platform === 'linux')(
    'rejects writes with HARNESS_LOG_WRITE_FAILED when the disk is full',
    async () => {
      const writer = await AgentLogWriter.open('/dev/full');
      await expect(writer.write('x')).rejects.toMatchObject({ code: 'HARNESS_LOG_WRITE_FAILED' });
      await expect(writer.write('y')).rejects.toMatchObject({ code: 'HARNESS_LOG_WRITE_FAILED' });
      await writer.close();
    },
  );
});
