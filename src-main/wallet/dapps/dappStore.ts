// What the wallet remembers of dApps, in dapps.json in the data folder: each origin's grant (accounts, methods, chains,
// and the WalletConnect sessions it came with) and WalletConnect's settings. Written atomically, one write at a time,
// and never over a newer revision another process wrote (the file then wins: reopen to see it). A damaged file is kept
// beside it as it was, and the wallet starts with what it could read of it (no grant at worst: dApps ask again).
import { join } from 'node:path';
import { WalletError } from '../../koinos/errors.ts';
import type { DappGrantInfo, WalletConnectSettings } from './types.ts';
import { writeFileAtomic } from '../atomicFile.ts';
import { keepAside, readJsonFile, type JsonFileStoreOptions } from '../jsonFileStore.ts';

export const DAPPS_FILE = 'dapps.json';
/** More grants than anyone connects; a file with more is not one this wallet wrote. */
const MAX_GRANTS = 1000;

/** A grant as kept: what DappGrantInfo shows, and the WalletConnect session topics it came with. */
export interface StoredGrant extends DappGrantInfo {
  /** WalletConnect session topics of this origin (a grant ends with its last session). */
  sessions: string[];
}

interface DappsFile {
  version: 1;
  revision: number;
  grants: StoredGrant[];
  walletConnect: WalletConnectSettings;
}

/** How dapps.json is read: its well-formed grants and settings, and what to say when it cannot be read at all. */
const READING: JsonFileStoreOptions<DappsFile> = {
  read: readDapps,
  what: 'the dApp connections',
  code: 'STORAGE_FAILED',
};

/**
 * @example
 * const store = await DappStore.open(dataDir);
 * await store.putGrant({ origin: 'https://app.example', ... });
 */
export class DappStore {
  readonly #path: string;
  #data: DappsFile;
  #writing: Promise<void> = Promise.resolve();
  #keptAside: string | undefined;

  private constructor(path: string, data: DappsFile, keptAside: string | undefined) {
    this.#path = path;
    this.#data = data;
    this.#keptAside = keptAside;
  }

  /**
   * Reads dapps.json (a missing file is an empty store). Entries that do not have the expected shape are dropped; a
   * file that is not JSON reads as an empty store. Either way the file as it was is copied beside it ({@link keptAside};
   * a copy that fails now is made before the first change replaces the file).
   * @throws WalletError STORAGE_FAILED when the file exists but cannot be read (permissions).
   */
  static async open(dataDir: string): Promise<DappStore> {
    const path = join(dataDir, DAPPS_FILE);
    const { kept, unkept } = await readJsonFile(path, READING);
    return new DappStore(path, kept, unkept && (await keepAside(path, unkept).catch(() => undefined)));
  }

  /** Where dapps.json is kept as it was when the wallet could not read all of it; else undefined. */
  get keptAside(): string | undefined {
    return this.#keptAside;
  }

  grants(): StoredGrant[] {
    return this.#data.grants.map((g) => structuredClone(g));
  }

  grant(origin: string): StoredGrant | undefined {
    const found = this.#data.grants.find((g) => g.origin === origin);
    return found ? structuredClone(found) : undefined;
  }

  walletConnect(): WalletConnectSettings {
    return { ...this.#data.walletConnect };
  }

  /** Adds or replaces the grant of `grant.origin`. */
  putGrant(grant: StoredGrant): Promise<void> {
    return this.#commit((d) => ({
      ...d,
      grants: [...d.grants.filter((g) => g.origin !== grant.origin), structuredClone(grant)],
    }));
  }

  /** Removes an origin's grant; true when there was one. */
  async removeGrant(origin: string): Promise<boolean> {
    const had = this.#data.grants.some((g) => g.origin === origin);
    if (had) await this.#commit((d) => ({ ...d, grants: d.grants.filter((g) => g.origin !== origin) }));
    return had;
  }

  updateWalletConnect(patch: Partial<WalletConnectSettings>): Promise<void> {
    return this.#commit((d) => ({ ...d, walletConnect: { ...d.walletConnect, ...patch } }));
  }

  /** Applies `change` and writes the file; refuses when the file on disk is newer than what this store read. */
  #commit(change: (data: DappsFile) => DappsFile): Promise<void> {
    const run = this.#writing.then(async () => {
      const { kept: onDisk, unkept } = await readJsonFile(this.#path, READING);
      if (onDisk.revision > this.#data.revision) {
        this.#data = onDisk;
        throw new WalletError(
          'STORAGE_FAILED',
          'Another window of this wallet changed the dApp connections. Nothing was saved; look at the list again and retry.',
        );
      }
      const next = { ...change(this.#data), version: 1 as const, revision: this.#data.revision + 1 };
      // What the file holds that this store could not read is kept before the file is replaced (nothing written else).
      if (unkept) this.#keptAside = await keepAside(this.#path, unkept);
      await writeFileAtomic(this.#path, `${JSON.stringify(next, null, 1)}\n`);
      this.#data = next;
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }
}

/** The well-formed grants (at most MAX_GRANTS) and settings of what dapps.json holds (`undefined`: none, not JSON). */
function readDapps(json: unknown): DappsFile {
  const file = (typeof json === 'object' && json !== null ? json : {}) as Partial<DappsFile>;
  const grants = Array.isArray(file.grants) ? file.grants.filter(isGrant).slice(0, MAX_GRANTS) : [];
  const wc = file.walletConnect;
  return {
    version: 1,
    revision: typeof file.revision === 'number' ? file.revision : 0,
    grants,
    walletConnect: {
      relayUrl: typeof wc?.relayUrl === 'string' ? wc.relayUrl : '',
      projectId: typeof wc?.projectId === 'string' ? wc.projectId : '',
    },
  };
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isGrant(g: unknown): g is StoredGrant {
  if (typeof g !== 'object' || g === null) return false;
  const x = g as Record<string, unknown>;
  return (
    typeof x['origin'] === 'string' &&
    typeof x['name'] === 'string' &&
    typeof x['url'] === 'string' &&
    (x['transport'] === 'walletconnect' || x['transport'] === 'window') &&
    typeof x['grantedAt'] === 'string' &&
    strings(x['chains']) &&
    strings(x['accounts']) &&
    strings(x['methods']) &&
    strings(x['sessions'])
  );
}
