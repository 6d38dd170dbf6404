/** `812 B`, `4.2 KB`, `11.0 MB`, `1.25 GB` (powers of 1024, as `du -h` counts). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** `19,812,345` (exact bytes, grouped for reading). */
export const exactBytes = (bytes: number): string => bytes.toLocaleString('en-US');
