// `claude-opus-4-5`, `claude-sonnet-4-20250514`, `us.anthropic.claude-haiku-4-5-20251001-v1:0`,
// `claude-sonnet-4-5@20250929`: family then version. A minor has 1–2 digits; 8 digits are a date.
const NEW_STYLE = /claude-(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?(?!\d)/;
// `claude-3-5-haiku-20241022`, `claude-3-opus-20240229`: version then family.
const OLD_STYLE = /claude-(\d{1,2})(?:[-.](\d{1,2}))?-(opus|sonnet|haiku)/;

/** Family and `major.minor` of a Claude model id, or undefined for anything else. */
export function claudeVersionOf(modelId: string): { family: string; version: string } | undefined {
  const id = modelId.toLowerCase();
  const fresh = NEW_STYLE.exec(id);
  if (fresh) return { family: fresh[1] as string, version: `${fresh[2]}.${fresh[3] ?? '0'}` };
  const old = OLD_STYLE.exec(id);
  if (old) return { family: old[3] as string, version: `${old[1]}.${old[2] ?? '0'}` };
  return undefined;
}

/** Orders `major.minor` versions. */
export const compareVersions = (a: string, b: string): number => {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
};
