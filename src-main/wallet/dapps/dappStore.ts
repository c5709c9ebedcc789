// What the wallet remembers of dApps, in dapps.json in the data folder: each origin's grant (accounts, methods, chains,
// and the WalletConnect sessions it came with) and WalletConnect's settings. Written atomically, one write at a time,
// and never over a newer revision another process wrote (the file then wins: reopen to see it).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WalletError } from '../../koinos/errors.ts';
import type { DappGrantInfo, WalletConnectSettings } from './types.ts';
import { writeFileAtomic } from '../atomicFile.ts';

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

const EMPTY: DappsFile = { version: 1, revision: 0, grants: [], walletConnect: { relayUrl: '', projectId: '' } };

/**
 * @example
 * const store = await DappStore.open(dataDir);
 * await store.putGrant({ origin: 'https://app.example', ... });
 */
export class DappStore {
  readonly #path: string;
  #data: DappsFile;
  #writing: Promise<void> = Promise.resolve();

  private constructor(path: string, data: DappsFile) {
    this.#path = path;
    this.#data = data;
  }

  /**
   * Reads dapps.json (a missing file is an empty store). Entries that do not have the expected shape are dropped.
   * @throws WalletError STORAGE_FAILED when the file is not JSON.
   */
  static async open(dataDir: string): Promise<DappStore> {
    const path = join(dataDir, DAPPS_FILE);
    return new DappStore(path, await readStore(path));
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
      const onDisk = await readStore(this.#path);
      if (onDisk.revision > this.#data.revision) {
        this.#data = onDisk;
        throw new WalletError(
          'STORAGE_FAILED',
          'Another window of this wallet changed the dApp connections. Nothing was saved; look at the list again and retry.',
        );
      }
      const next = { ...change(this.#data), version: 1 as const, revision: this.#data.revision + 1 };
      await writeFileAtomic(this.#path, `${JSON.stringify(next, null, 1)}\n`);
      this.#data = next;
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }
}

async function readStore(path: string): Promise<DappsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY);
    throw new WalletError('STORAGE_FAILED', 'The dApp connections could not be read.', {
      cause: error,
      details: (error as Error).message,
    });
  }
  let json: Partial<DappsFile>;
  try {
    json = JSON.parse(text) as Partial<DappsFile>;
  } catch (cause) {
    throw new WalletError(
      'STORAGE_FAILED',
      `${DAPPS_FILE} in the data folder is not JSON: the dApp connections cannot be read. Move it away to start with none.`,
      { cause },
    );
  }
  const grants = Array.isArray(json.grants) ? json.grants.filter(isGrant).slice(0, MAX_GRANTS) : [];
  const wc = json.walletConnect;
  return {
    version: 1,
    revision: typeof json.revision === 'number' ? json.revision : 0,
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
