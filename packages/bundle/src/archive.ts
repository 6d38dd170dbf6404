import { init as initZstd, compress as zstdCompress } from '@bokuweb/zstd-wasm';
import { Decompress } from 'fzstd';
import { extract, pack } from 'tar-stream';
import { BundleError } from './errors.js';

/** One regular file of a bundle. */
export interface BundleMember {
  /** Relative POSIX path. */
  path: string;
  mode: '644' | '755';
  bytes: Buffer;
}

/** The compression level of `pack` (zstd's 19, as the original). */
const ZSTD_LEVEL = 19;

/** The largest tar a bundle may unpack to: a bundle is prompts and templates, not data sets. */
export const MAX_UNPACKED_BYTES = 2 * 1024 ** 3;

let zstdReady: Promise<void> | undefined;

/**
 * Writes `members` (in the order given) as one deterministic tar, zstd-compressed: regular-file
 * entries only, no directory entries, mtime 0, uid and gid 0, no user or group names, modes 644
 * or 755. tar-stream writes the headers; @bokuweb/zstd-wasm (zstd compiled to WebAssembly, the
 * same bytes on every Node version) compresses.
 */
export async function writeBundleArchive(members: readonly BundleMember[]): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  for (const member of members) {
    await new Promise<void>((resolve, reject) => {
      tar.entry(
        {
          name: member.path,
          type: 'file',
          size: member.bytes.length,
          mode: member.mode === '755' ? 0o755 : 0o644,
          mtime: new Date(0),
          uid: 0,
          gid: 0,
          uname: '',
          gname: '',
        },
        member.bytes,
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }
  tar.finalize();
  await ended;
  return compressZstd(Buffer.concat(chunks), ZSTD_LEVEL);
}

/**
 * zstd-compresses `bytes` (the WebAssembly module is initialized once: initializing it again
 * while it is in use corrupts its output). Internal; the tests use it to make hostile bundles.
 */
export async function compressZstd(bytes: Uint8Array, level: number): Promise<Buffer> {
  zstdReady ??= initZstd();
  await zstdReady;
  return Buffer.from(zstdCompress(bytes, level));
}

/**
 * Reads a bundle's members, refusing anything but regular files at safe relative paths: an
 * absolute path, a `..` step, a backslash, a link (symbolic or hard), a directory entry with
 * content, a device, a FIFO, a duplicate. Decompression (fzstd, pure JavaScript: Node 20 has
 * no zstd) stops past {@link MAX_UNPACKED_BYTES}.
 *
 * @throws {BundleError} BUNDLE_INVALID when it is not zstd-compressed tar; BUNDLE_UNSAFE_ENTRY
 *   naming the entry.
 */
export async function readBundleArchive(compressed: Uint8Array): Promise<BundleMember[]> {
  const tarBytes = decompress(compressed);
  const members: BundleMember[] = [];
  const seen = new Set<string>();
  const reader = extract();
  // The first refusal wins; the rest of the archive is drained, never written anywhere.
  let refusal: BundleError | undefined;
  const refuse = (file: string, why: string) => {
    refusal ??= new BundleError('BUNDLE_UNSAFE_ENTRY', `${file}: ${why}`, { details: { file } });
  };
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const problem = unsafeEntry(header.name, header.type);
      const path = normalizeEntry(header.name);
      if (problem) refuse(header.name, problem);
      else if (header.type !== 'directory' && seen.has(path))
        refuse(path, 'appears twice in the bundle');
      if (refusal || header.type === 'directory') {
        stream.on('end', next);
        stream.resume();
        return;
      }
      seen.add(path);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        members.push({
          path,
          mode: ((header.mode ?? 0o644) & 0o111) !== 0 ? '755' : '644',
          bytes: Buffer.concat(chunks),
        });
        next();
      });
    });
    reader.on('finish', () => (refusal ? reject(refusal) : resolve()));
    reader.on('error', (error) =>
      reject(
        new BundleError('BUNDLE_INVALID', `not a tar archive: ${error.message}`, { cause: error }),
      ),
    );
  });
  reader.end(tarBytes);
  await done;
  return members;
}

/** Why a tar entry is refused, or undefined. */
function unsafeEntry(name: string, type: string | null | undefined): string | undefined {
  if (type !== 'file' && type !== 'directory' && type !== 'contiguous-file')
    return `a ${type ?? 'unknown'} entry; a bundle holds regular files only`;
  if (name === '' || name.includes('\0')) return 'an empty path or a NUL byte';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'an absolute path';
  if (name.includes('\\')) return 'a backslash in the path';
  const parts = name.split('/');
  if (parts.includes('..')) return 'a path that climbs out with ..';
  return undefined;
}

function normalizeEntry(name: string): string {
  return name
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

function decompress(compressed: Uint8Array): Buffer {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > MAX_UNPACKED_BYTES)
      throw new BundleError(
        'BUNDLE_INVALID',
        `unpacks to more than ${MAX_UNPACKED_BYTES} bytes; a bundle this large is refused`,
      );
    chunks.push(chunk);
  });
  try {
    // A copy: fzstd reads the whole underlying buffer of a view, and Node pools small reads.
    stream.push(new Uint8Array(compressed), true);
  } catch (error) {
    if (BundleError.is(error)) throw error;
    throw new BundleError(
      'BUNDLE_INVALID',
      `not a zstd-compressed bundle (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (total === 0) throw new BundleError('BUNDLE_INVALID', 'not a zstd-compressed bundle (empty)');
  return Buffer.concat(chunks);
}
