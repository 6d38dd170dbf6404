import type { AccessTarget } from './access-target.js';

/** How a setting that chose an endpoint is named to people, with where to change it. */
export function describeEndpointSetting(setting: string): string {
  switch (setting) {
    case 'anthropicBaseUrl':
      return 'anthropicBaseUrl (--anthropic-base-url, hankweave.json or HANKWEAVE_RUNTIME_ANTHROPIC_BASE_URL)';
    case 'piBaseUrl':
      return "the runtime's piBaseUrl";
    case 'default':
      return "the provider's default endpoint";
    default:
      return setting;
  }
}

/** `the Anthropic API at https://api.anthropic.com (ANTHROPIC_BASE_URL)`, or without a URL. */
export function endpointPhrase(target: AccessTarget, provider: string): string {
  const where = target.endpoint ?? `${provider}'s API`;
  return target.endpointSetting === 'default'
    ? `${where} (the provider's default endpoint)`
    : `${where} (${target.endpointSetting === 'anthropicBaseUrl' ? 'anthropicBaseUrl' : target.endpointSetting})`;
}

/** What to do when the endpoint did not answer. */
export function unreachableFix(target: AccessTarget): string {
  if (target.endpointSetting === 'default') {
    return 'check the network connection and any proxy (HTTPS_PROXY), or point the agent at a server that answers with its base URL variable';
  }
  return `start the server it names, or fix ${describeEndpointSetting(target.endpointSetting)}`;
}

/** What to do when the key was refused. */
export function badKeyFix(target: AccessTarget): string {
  if (target.keyVariable === 'claude login')
    return 'log in again with `claude login`, or set ANTHROPIC_API_KEY';
  if (target.keyVariable === 'Amazon Bedrock' || target.keyVariable === 'Google Vertex AI')
    return `check the ${target.keyVariable} credentials of this environment`;
  return `set ${target.keyVariable} to a valid key for this endpoint`;
}
