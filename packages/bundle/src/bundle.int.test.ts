import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pack } from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BundleMember,
  compressZstd,
  readBundleArchive,
  writeBundleArchive,
} from './archive.js';
import { openBundle } from './open-bundle.js';
import { checkHank, packHank } from './pack.js';
import { verifyPinnedHank } from './pin.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const HANK = {
  meta: { name: 'demo', version: '1.0.0' },
  hank: [
    {
      id: 'write',
      name: 'Write',
      model: 'sonnet',
      continuationMode: 'fresh',
      promptFile: 'prompts/write.md',
      rigSetup: [{ type: 'copy', copy: { from: 'templates/app', to: 'app' } }],
    },
  ],
};

function makeHank(extra: Record<string, string> = {}): string {
  const dir = temp('bundle-hank-');
  const files: Record<string, string> = {
    'hank.json': JSON.stringify(HANK, null, 2),
    'prompts/write.md': 'Write it.\n',
    'templates/app/index.js': 'console.log(1)\n',
    'templates/app/node_modules/dep/index.js': 'junk\n',
    'templates/app/run.log': 'junk\n',
    ...extra,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** A zstd tar written by hand, entry by entry: how an attacker would make one. */
async function handMadeBundle(
  entries: {
    name: string;
    type?: 'file' | 'symlink' | 'link' | 'directory';
    linkname?: string;
    body?: string;
  }[],
): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  for (const entry of entries) {
    const { body, ...header } = entry;
    tar.entry({ type: 'file', ...header }, body ?? '');
  }
  tar.finalize();
  await ended;
  return compressZstd(Buffer.concat(chunks), 3);
}

async function members(bundle: Buffer): Promise<BundleMember[]> {
  return readBundleArchive(bundle);
}

describe('packHank()', () => {
  it('gives the same bytes twice, and after the mtimes change', async () => {
    const dir = makeHank();
    const first = await packHank(dir);
    const second = await packHank(dir);
    expect(sha(second.archive)).toBe(sha(first.archive));
    for (const file of ['hank.json', 'prompts/write.md', 'templates/app/index.js'])
      utimesSync(join(dir, file), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const touched = await packHank(dir);
    expect(sha(touched.archive)).toBe(sha(first.archive));
    // An earlier bundle left in the hank directory is not packed into the next one.
    writeFileSync(join(dir, 'demo-0.9.0.hank'), first.archive);
    const beside = await packHank(dir);
    expect(sha(beside.archive)).toBe(sha(first.archive));
    expect(beside.findings).toMatchObject([{ path: 'demo-0.9.0.hank', severity: 'warning' }]);
    // The same files written in another order, in another directory: the same bundle.
    const other = makeHank();
    expect(sha((await packHank(other)).archive)).toBe(sha(first.archive));
  });

  it('holds hank.lock first, then the files the ignore rules keep', async () => {
    const packed = await packHank(makeHank());
    const paths = (await members(packed.archive)).map((member) => member.path);
    expect(paths).toEqual(['hank.lock', 'hank.json', 'prompts/write.md', 'templates/app/index.js']);
    expect(Object.keys(packed.lock.codonInputs)).toEqual(['write']);
    expect(packed.lock).toMatchObject({ v: 1, name: 'demo', version: '1.0.0' });
    expect(packed.lock.bundleHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes the codon input hash when a file the codon names changes', async () => {
    const dir = makeHank();
    const before = (await packHank(dir)).lock;
    writeFileSync(join(dir, 'templates/app/index.js'), 'console.log(2)\n');
    const after = (await packHank(dir)).lock;
    expect(after.codonInputs.write).not.toBe(before.codonInputs.write);
    expect(after.bundleHash).not.toBe(before.bundleHash);
  });
});

describe('checkHank()', () => {
  it('reports links, absolute and outside references, case collisions, ignored references', () => {
    const dir = makeHank({ 'prompts/Write.md': 'twin\n', 'notes/keep.log': 'named\n' });
    symlinkSync('/etc/passwd', join(dir, 'prompts/passwd'));
    execFileSync('mkfifo', [join(dir, 'prompts/pipe')]);
    const hank = structuredClone(HANK) as Record<string, unknown>;
    const codon = (hank.hank as Record<string, unknown>[])[0] as Record<string, unknown>;
    codon.appendSystemPromptFile = ['/etc/hostname', '../outside.md', 'notes/keep.log'];
    writeFileSync(join(dir, 'hank.json'), JSON.stringify(hank));
    const findings = checkHank(dir).findings.map((f) => `${f.severity} ${f.code} ${f.path}`);
    expect(findings).toEqual(
      expect.arrayContaining([
        'error symlink prompts/passwd',
        'error special_file prompts/pipe',
        'error case_collision prompts/write.md',
        'error absolute_path write.appendSystemPromptFile[0]',
        'error outside_hank write.appendSystemPromptFile[1]',
        'warning ignored_reference write.appendSystemPromptFile[2]',
      ]),
    );
  });

  it('refuses to pack a hank with errors, and packs an ignored file the hank names', async () => {
    const dir = makeHank();
    symlinkSync('/etc/passwd', join(dir, 'prompts/passwd'));
    await expect(packHank(dir)).rejects.toMatchObject({ code: 'BUNDLE_NOT_PORTABLE' });
    rmSync(join(dir, 'prompts/passwd'));
    const hank = structuredClone(HANK);
    hank.hank[0]?.rigSetup.push({ type: 'copy', copy: { from: 'notes/seed.log', to: 'seed.log' } });
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes/seed.log'), 'named\n');
    writeFileSync(join(dir, 'hank.json'), JSON.stringify(hank));
    const packed = await packHank(dir);
    expect(Object.keys(packed.lock.files)).toContain('notes/seed.log');
  });
});

describe('openBundle()', () => {
  it('extracts once by hash, reuses the verified tree, and re-extracts a corrupted one', async () => {
    const packed = await packHank(makeHank());
    const out = temp('bundle-out-');
    const bundle = join(out, 'demo.hank');
    writeFileSync(bundle, packed.archive);
    const cacheDir = join(out, 'cache');
    const first = await openBundle(bundle, { cacheDir });
    expect(first).toMatchObject({ extraction: 'fresh', bundleHash: packed.lock.bundleHash });
    expect(first.hankDir).toBe(join(cacheDir, packed.lock.bundleHash));
    expect(readFileSync(join(first.hankDir, 'prompts/write.md'), 'utf8')).toBe('Write it.\n');
    const inode = statSync(first.hankDir).ino;
    const second = await openBundle(bundle, { cacheDir });
    expect(second.extraction).toBe('reused');
    expect(statSync(second.hankDir).ino).toBe(inode);
    writeFileSync(join(first.hankDir, 'prompts/write.md'), 'Do something else.\n');
    const third = await openBundle(bundle, { cacheDir });
    expect(third.extraction).toBe('repaired');
    expect(readFileSync(join(third.hankDir, 'prompts/write.md'), 'utf8')).toBe('Write it.\n');
    writeFileSync(join(first.hankDir, 'extra.md'), 'planted');
    expect((await openBundle(bundle, { cacheDir })).extraction).toBe('repaired');
    expect(existsSync(join(first.hankDir, 'extra.md'))).toBe(false);
    expect(readdirSync(cacheDir)).toEqual([packed.lock.bundleHash]);
  });

  it('refuses a tampered bundle, naming the file', async () => {
    const packed = await packHank(makeHank());
    const original = await members(packed.archive);
    const out = temp('bundle-tamper-');
    const cacheDir = join(out, 'cache');
    const attempt = async (list: BundleMember[]) => {
      const path = join(out, 'x.hank');
      writeFileSync(path, await writeBundleArchive(list));
      return openBundle(path, { cacheDir });
    };
    const changed = original.map((m) =>
      m.path === 'prompts/write.md' ? { ...m, bytes: Buffer.from('Write it!\n') } : m,
    );
    await expect(attempt(changed)).rejects.toMatchObject({
      code: 'BUNDLE_TAMPERED',
      details: { file: 'prompts/write.md' },
    });
    const added = [...original, { path: 'evil.sh', mode: '755' as const, bytes: Buffer.from('x') }];
    await expect(attempt(added)).rejects.toMatchObject({
      code: 'BUNDLE_TAMPERED',
      details: { file: 'evil.sh' },
    });
    const removed = original.filter((m) => m.path !== 'templates/app/index.js');
    await expect(attempt(removed)).rejects.toMatchObject({
      code: 'BUNDLE_TAMPERED',
      details: { file: 'templates/app/index.js' },
    });
    // The lock edited to match a changed file: its bundleHash no longer is the files' hash.
    const lock = JSON.parse(packed.lockText);
    lock.files['prompts/write.md'].sha256 = sha(Buffer.from('Write it!\n'));
    const edited = changed.map((m) =>
      m.path === 'hank.lock' ? { ...m, bytes: Buffer.from(JSON.stringify(lock)) } : m,
    );
    await expect(attempt(edited)).rejects.toMatchObject({
      code: 'BUNDLE_LOCK_INVALID',
      details: { file: 'hank.lock' },
    });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('refuses entries that escape: .., absolute paths, links; writes nothing outside', async () => {
    const out = temp('bundle-slip-');
    const cacheDir = join(out, 'cache', 'bundles');
    const lock = (await members((await packHank(makeHank())).archive))[0] as BundleMember;
    const cases = [
      { name: '../../escaped.txt', body: 'pwned' },
      { name: `${out}/absolute.txt`, body: 'pwned' },
      { name: 'link', type: 'symlink' as const, linkname: '/etc/passwd' },
      { name: 'hard', type: 'link' as const, linkname: '../../escaped.txt' },
    ];
    for (const entry of cases) {
      const bundle = join(out, 'evil.hank');
      writeFileSync(
        bundle,
        await handMadeBundle([{ name: 'hank.lock', body: lock.bytes.toString('utf8') }, entry]),
      );
      await expect(openBundle(bundle, { cacheDir })).rejects.toMatchObject({
        code: 'BUNDLE_UNSAFE_ENTRY',
        details: { file: entry.name },
      });
    }
    expect(readdirSync(out).sort()).toEqual(['evil.hank']);
  });

  it('refuses a file that is not a bundle', async () => {
    const out = temp('bundle-junk-');
    writeFileSync(join(out, 'junk.hank'), 'not zstd at all');
    await expect(
      openBundle(join(out, 'junk.hank'), { cacheDir: join(out, 'c') }),
    ).rejects.toMatchObject({ code: 'BUNDLE_INVALID' });
  });
});

describe('verifyPinnedHank()', () => {
  it('accepts the directory its lock was written from, and names a drifted file', async () => {
    const dir = makeHank();
    expect(verifyPinnedHank(dir)).toBeUndefined();
    writeFileSync(join(dir, 'hank.lock'), (await packHank(dir)).lockText);
    expect(verifyPinnedHank(dir)?.name).toBe('demo');
    writeFileSync(join(dir, 'templates/app/node_modules/dep/new.js'), 'ignored: no drift');
    expect(verifyPinnedHank(dir)?.name).toBe('demo');
    writeFileSync(join(dir, 'prompts/write.md'), 'Changed.\n');
    expect(() => verifyPinnedHank(dir)).toThrow(
      expect.objectContaining({
        code: 'BUNDLE_DRIFT',
        details: expect.objectContaining({ file: 'prompts/write.md' }),
      }),
    );
  });
});
