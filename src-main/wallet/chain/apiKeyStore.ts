// The port through which the chain services read and write the API keys of networks without knowing where they live:
// the vault implements it in the OS keychain; tests and the CLI use the in-memory one below. Each key carries the
// origins it was given for, so that it is never sent to another server (see NetworkService.update and exchange()).

/** A stored API key and the origins (`https://host:port`) of the addresses it was given for. */
export interface StoredApiKey {
  key: string;
  /**
   * Where the key may be sent. Absent for a key stored before keys were bound to origins (or given to the CLI): it is
   * bound to the network's addresses as they are now.
   */
  origins?: readonly string[];
}

export interface ApiKeyStore {
  /** The key stored for this network, or undefined. */
  get(networkId: string): Promise<StoredApiKey | undefined>;
  /** Whether a key is stored, without reading it (the vault answers this while locked). Absent: `get` decides. */
  has?(networkId: string): Promise<boolean>;
  /** Stores a key bound to `origins`, or removes it with `null`. */
  set(networkId: string, key: string | null, origins?: readonly string[]): Promise<void>;
}

/** Keys held in this process only (tests, and the CLI's `--api-key-file`). */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys = new Map<string, StoredApiKey>();

  /** `initial`: keys without origins, bound to their network's addresses as they are when used. */
  constructor(initial: Record<string, string> = {}) {
    for (const [id, key] of Object.entries(initial)) this.keys.set(id, { key });
  }

  async get(networkId: string): Promise<StoredApiKey | undefined> {
    const stored = this.keys.get(networkId);
    return stored && { key: stored.key, ...(stored.origins ? { origins: [...stored.origins] } : {}) };
  }

  async set(networkId: string, key: string | null, origins?: readonly string[]): Promise<void> {
    if (key === null) this.keys.delete(networkId);
    else this.keys.set(networkId, { key, ...(origins ? { origins: [...origins] } : {}) });
  }
}
