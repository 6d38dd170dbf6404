import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The inotify watches this process holds (Linux): the `inotify wd:` lines of every inotify
 * descriptor's `/proc/self/fdinfo`. libuv keeps its one inotify descriptor open for the life of
 * the event loop, so a test of "no watch left behind" counts watches, not descriptors.
 */
export function countInotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      watches += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // Closed while listing.
    }
  }
  return watches;
}
