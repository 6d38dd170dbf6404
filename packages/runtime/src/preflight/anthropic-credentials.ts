import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the agent's Anthropic credentials come from, as a short phrase for logs. */
export type CredentialSource =
  | 'ANTHROPIC_API_KEY'
  | 'ANTHROPIC_AUTH_TOKEN'
  | 'CLAUDE_CODE_OAUTH_TOKEN'
  | 'Amazon Bedrock'
  | 'Google Vertex AI'
  | 'ANTHROPIC_BASE_URL'
  | 'claude login';

/** The answer of {@link findAnthropicCredentials}. */
export type CredentialLookup =
  | { found: true; source: CredentialSource }
  | {
      found: false;
      /** The login files looked for, for the error message. */
      looked: string[];
    };

const isSet = (value: string | undefined): boolean => value !== undefined && value.trim() !== '';
/** A Claude Code switch such as `CLAUDE_CODE_USE_BEDROCK`, set to "1", "true" or "yes". */
export const isFlagOn = (value: string | undefined): boolean =>
  value !== undefined && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());

/**
 * Whether Claude Code, started with `env` (the agent's own environment, as the harness builds
 * it), has something to authenticate with: an API key or token, a cloud provider switch, a base
 * URL (a proxy or a scripted model that handles auth itself), or the files `claude login` writes
 * (`.credentials.json` in the config directory, or the account in `.claude.json`; on macOS the
 * token itself is in the keychain and only the account is on disk).
 */
export function findAnthropicCredentials(env: Env): CredentialLookup {
  if (isSet(env.ANTHROPIC_API_KEY)) return { found: true, source: 'ANTHROPIC_API_KEY' };
  if (isSet(env.ANTHROPIC_AUTH_TOKEN)) return { found: true, source: 'ANTHROPIC_AUTH_TOKEN' };
  if (isSet(env.CLAUDE_CODE_OAUTH_TOKEN)) return { found: true, source: 'CLAUDE_CODE_OAUTH_TOKEN' };
  if (isFlagOn(env.CLAUDE_CODE_USE_BEDROCK)) return { found: true, source: 'Amazon Bedrock' };
  if (isFlagOn(env.CLAUDE_CODE_USE_VERTEX)) return { found: true, source: 'Google Vertex AI' };
  if (isSet(env.ANTHROPIC_BASE_URL)) return { found: true, source: 'ANTHROPIC_BASE_URL' };
  const home = isSet(env.HOME) ? (env.HOME as string) : homedir();
  const configDir = isSet(env.CLAUDE_CONFIG_DIR)
    ? (env.CLAUDE_CONFIG_DIR as string)
    : join(home, '.claude');
  const credentialsFile = join(configDir, '.credentials.json');
  // Without CLAUDE_CONFIG_DIR, Claude Code keeps `.claude.json` beside `.claude/`, in HOME.
  const accountFile = isSet(env.CLAUDE_CONFIG_DIR)
    ? join(configDir, '.claude.json')
    : join(home, '.claude.json');
  if (existsSync(credentialsFile) || hasLoggedInAccount(accountFile)) {
    return { found: true, source: 'claude login' };
  }
  return { found: false, looked: [credentialsFile, accountFile] };
}

function hasLoggedInAccount(file: string): boolean {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { oauthAccount?: unknown };
    return typeof parsed.oauthAccount === 'object' && parsed.oauthAccount !== null;
  } catch {
    // Missing or unreadable: no login recorded there.
    return false;
  }
}
