/**
 * Short labels for paths that stay different: each path's last segments, as few as make it unique
 * among `paths` (`hello-hank/data`, `my-hank/data` instead of `data` twice), at least the last
 * one. A path is its own label when no suffix of it is unique (the same path listed twice).
 */
export function distinctLabels(paths: readonly string[]): Map<string, string> {
  const split = (path: string) => path.split('/').filter((segment) => segment !== '');
  const unique = [...new Set(paths)];
  const labels = new Map<string, string>();
  for (const path of unique) {
    const segments = split(path);
    let label = path;
    for (let count = 1; count <= segments.length; count++) {
      const suffix = segments.slice(-count).join('/');
      const clash = unique.some(
        (other) => other !== path && split(other).slice(-count).join('/') === suffix,
      );
      if (!clash) {
        label = count < segments.length ? suffix : path;
        break;
      }
    }
    labels.set(path, label);
  }
  return labels;
}
