/**
 * Names of the keychain accounts Hearth's secrets live under. Only names, no keychain access: the code that
 * reads a key from the keychain (safety/secrets) and the code that decides which key a provider needs
 * (model-chain/registry, exec backends, settings) must agree on them, and config sits below both (decision 0016).
 */

/** The keychain account holding a provider's API key (written by `hearth setup` and the app's settings). */
export function apiKeyAccount(provider: string): string {
  return `provider:${provider}`;
}
