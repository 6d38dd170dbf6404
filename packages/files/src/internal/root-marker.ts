import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';

/**
 * Writes an empty marker `name` in the watched root and returns its removal, or `'replaced'`
 * (writing nothing) when the directory there is not the one watched. Never through a link the
 * agent planted: the root is opened once (it may itself be a link the caller chose), checked to
 * be the watched inode at its real place, and the marker created through that open directory
 * (/proc/self/fd), exclusively, so an existing file, link or FIFO of that name is never opened.
 */
export function placeRootMarker(
  root: string,
  rootReal: string,
  watched: { readonly dev: number; readonly ino: number },
  name: string,
): (() => void) | 'replaced' {
  const fd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  const through = `/proc/self/fd/${fd}`;
  try {
    const stat = fstatSync(fd);
    if (stat.dev !== watched.dev || stat.ino !== watched.ino) {
      closeSync(fd);
      return 'replaced';
    }
    const real = readlinkSync(through);
    if (real !== rootReal) throw new Error(`${root} now leads to ${real}, not ${rootReal}`);
    writeFileSync(`${through}/${name}`, '', { flag: 'wx' });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return () => {
    try {
      unlinkSync(`${through}/${name}`);
    } catch {
      // Already gone (the root was deleted or rolled back under us): nothing to clean up.
    }
    closeSync(fd);
  };
}
