import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compressZstd } from './archive.js';
import { canonicalJson } from './canonical-json.js';
import { computeBundleHash, sha256Hex } from './lock.js';
import { openBundle } from './open-bundle.js';

// A bundle laid out as the original runtime's `pack` writes it, built here byte by byte from its
// documented profile (not with our writer): ustar headers with 7-digit octal fields and NUL,
// mtime 0, empty owner names, the checksum as 6 digits + NUL + space, a PAX `path` record named
// `PaxHeaders/<index>` before a member whose path is longer than 100 bytes, no directory
// entries, two zero blocks at the end; zstd around it.
const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: '0' | 'x', mode: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 'utf8');
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.fill(0x20, 148, 156);
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(octal(0, 8), 329, 'ascii');
  block.write(octal(0, 8), 337, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

const pad = (bytes: Buffer) =>
  Buffer.concat([bytes, Buffer.alloc((BLOCK - (bytes.length % BLOCK)) % BLOCK)]);

function paxRecord(path: string): Buffer {
  const rest = ` path=${path}\n`;
  let total = rest.length + 1;
  while (String(total).length + Buffer.byteLength(rest) !== total)
    total = String(total).length + Buffer.byteLength(rest);
  return Buffer.from(`${total}${rest}`, 'utf8');
}

function originalTar(members: { path: string; bytes: Buffer; mode: number }[]): Buffer {
  const parts: Buffer[] = [];
  members.forEach((member, index) => {
    if (Buffer.byteLength(member.path) > 100) {
      const pax = paxRecord(member.path);
      parts.push(header(`PaxHeaders/${index}`, pax.length, 'x', 0o644), pad(pax));
    }
    parts.push(
      header(member.path.slice(0, 100), member.bytes.length, '0', member.mode),
      pad(member.bytes),
    );
  });
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a bundle in the original runtime layout', () => {
  it('is verified and extracted here, keeping its hash, long paths and executable bits', async () => {
    const longPath = `templates/${'deep/'.repeat(20)}note.md`;
    const files = [
      {
        path: 'hank.json',
        bytes: Buffer.from('{"meta":{"name":"orig","version":"2.0.0"},"hank":[]}'),
        mode: 0o644,
      },
      { path: longPath, bytes: Buffer.from('long\n'), mode: 0o644 },
      { path: 'tools/run.sh', bytes: Buffer.from('#!/bin/sh\n'), mode: 0o755 },
    ];
    const lockFiles = Object.fromEntries(
      files.map((file) => [
        file.path,
        { mode: file.mode === 0o755 ? '755' : '644', sha256: sha256Hex(file.bytes) },
      ]),
    ) as Record<string, { mode: '644' | '755'; sha256: string }>;
    const runtime = { min: '0.10.0' };
    const lock = {
      v: 1,
      name: 'orig',
      version: '2.0.0',
      bundleHash: computeBundleHash(lockFiles, runtime),
      files: lockFiles,
      codonInputs: {},
      runtime,
      ignoreDefaults: sha256Hex('their defaults'),
    };
    const tar = originalTar([
      { path: 'hank.lock', bytes: Buffer.from(`${canonicalJson(lock)}\n`), mode: 0o644 },
      ...[...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path))),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'bundle-original-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'orig.hank'), await compressZstd(tar, 19));
    const opened = await openBundle(join(dir, 'orig.hank'), { cacheDir: join(dir, 'cache') });
    expect(opened).toMatchObject({ bundleHash: lock.bundleHash, extraction: 'fresh' });
    expect(readFileSync(join(opened.hankDir, longPath), 'utf8')).toBe('long\n');
    expect(statSync(join(opened.hankDir, 'tools/run.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(opened.hankDir, 'hank.lock'), 'utf8')).toBe(
      `${canonicalJson(lock)}\n`,
    );
    expect(
      (await openBundle(join(dir, 'orig.hank'), { cacheDir: join(dir, 'cache') })).extraction,
    ).toBe('reused');
  });
});
