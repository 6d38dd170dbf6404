/**
 * An ISO-8601 UTC time to the second (`2025-01-10T10:00:00Z`), the seed's format: its tools write
 * `date -u +%Y-%m-%dT%H:%M:%SZ` and its cleanup recipe compares times as strings, which only
 * orders correctly when every time has the same shape.
 */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
