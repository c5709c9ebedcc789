// The port through which the chain services read and write the API keys of networks without knowing where they live:
// the vault implements it in the OS keychain; tests and the CLI use the in-memory one below.

export interface ApiKeyStore {
  /** The key stored for this network, or undefined. */
  get(networkId: string): Promise<string | undefined>;
  /** Whether a key is stored, without reading it (the vault answers this while locked). Absent: `get` decides. */
  has?(networkId: string): Promise<boolean>;
  /** Stores a key, or removes it with `null`. */
  set(networkId: string, key: string | null): Promise<void>;
}

/** Keys held in this process only (tests, and the CLI's `--api-key-file`). */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [id, key] of Object.entries(initial)) this.keys.set(id, key);
  }

  async get(networkId: string): Promise<string | undefined> {
    return this.keys.get(networkId);
  }

  async set(networkId: string, key: string | null): Promise<void> {
    if (key === null) this.keys.delete(networkId);
    else this.keys.set(networkId, key);
  }
}
