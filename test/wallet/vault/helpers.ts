// Test helpers of the vault: the real keychain (gnome-keyring through keytar) under a unique service name that each
// test removes again, a hand-driven clock, throwaway data folders and a cheap scrypt cost.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src-main/wallet/atomicFile.ts';
import { keychainAnswers, type Keychain, type WriteFile } from '../../../src-main/wallet/vault/secretStore.ts';
import type { Clock } from '../../../src-main/wallet/vault/idleTimer.ts';
import { Vault, type VaultOptions } from '../../../src-main/wallet/vault/vault.ts';
import { TEST_SCRYPT } from '../../helpers/constants.ts';
import { loadListingKeytar, removeKeychainService, type ListingKeychain } from '../../helpers/keychain.ts';

export { TEST_SCRYPT };
export const PASSWORD = 'correct horse battery staple';

export const KEYTAR: ListingKeychain = await loadListingKeytar();
const probe = await keychainAnswers(KEYTAR, `koinos-wallet-test-probe-${process.pid}`);
/** Why the keychain tests cannot run here, or undefined when a Secret Service answers. */
export const NO_KEYCHAIN: string | undefined = probe.ok ? undefined : probe.reason;
if (NO_KEYCHAIN !== undefined) {
  if (process.env.CI === 'true') {
    throw new Error(`CI must run the keychain tests, but no Secret Service answered: ${NO_KEYCHAIN}`);
  }
  console.warn(
    `Skipping the vault's keychain tests: no Secret Service answered (${NO_KEYCHAIN}). Run them inside ` +
      "`dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets; npx vitest run'`.",
  );
}

/** A unique keytar service name; pass it to removeService afterwards. */
export function uniqueService(): string {
  return `koinos-wallet-test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Deletes every keychain entry under a service (the tests' cleanup, once no vault on it is at work). */
export const removeService = (service: string): Promise<void> => removeKeychainService(service, KEYTAR);

/** The names of the sealed entries a fixture's wallet holds in its store, sorted (once no vault of it is at work). */
export async function storedEntries(
  fx: { dataDir: string; keychainService: string },
  kind: 'keychain' | 'file',
): Promise<string[]> {
  if (kind === 'keychain') return (await KEYTAR.findCredentials(fx.keychainService)).map((c) => c.account).sort();
  const text = await readFile(join(fx.dataDir, 'vault-keys.json'), 'utf8').catch(() => '{"entries":{}}');
  return Object.keys(JSON.parse(text).entries).sort();
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'vault-test-'));
}

/** A clock whose time moves only when the test says so; due timers run then. */
export class ManualClock implements Clock {
  time = 1_700_000_000_000;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  /** Moves time forward, running each timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
  get pending(): number {
    return this.#timers.size;
  }
}

/** A data folder, a service name and a cleanup; `open` makes a Vault over them (again, as after a restart). */
export async function vaultFixture(overrides: Partial<VaultOptions> = {}) {
  const dataDir = await tempDir();
  const keychainService = uniqueService();
  const clock = new ManualClock();
  const opened: Vault[] = [];
  const options: VaultOptions = {
    dataDir,
    keychain: KEYTAR,
    keychainService,
    clock,
    scryptCost: TEST_SCRYPT,
    ...overrides,
  };
  return {
    dataDir,
    keychainService,
    clock,
    options,
    async open(more: Partial<VaultOptions> = {}) {
      const vault = await Vault.open({ ...options, ...more });
      opened.push(vault);
      return vault;
    },
    async cleanup() {
      // Every vault's work ends first: an unlock leaves one deleting its stray entries in the background.
      await Promise.all(opened.map((vault) => vault.settled().catch(() => undefined)));
      await removeKeychainService(keychainService, KEYTAR);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A keychain that fails as keytar does when D-Bus has no Secret Service (the message keytar gives when
 * DBUS_SESSION_BUS_ADDRESS points nowhere); noKeychain.test.ts also runs the real keytar that way in a child process.
 */
export const NO_SECRET_SERVICE: Keychain = {
  getPassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
  setPassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
  deletePassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
};

/** The two stores the vault keeps its sealed entries in; a describe per store runs a test in both. */
export const STORES: { name: string; keychain: Keychain; kind: 'keychain' | 'file'; skip: boolean }[] = [
  { name: 'system keychain', keychain: KEYTAR, kind: 'keychain', skip: NO_KEYCHAIN !== undefined },
  { name: 'owner-only file (no Secret Service)', keychain: NO_SECRET_SERVICE, kind: 'file', skip: false },
];

/**
 * Counts every write the vault makes (keychain set and delete, atomic file write) and makes write number `failAt`
 * fail as a full disk would; the write does not happen. With `crash`, every write from `failAt` on fails: the process
 * died there, and only a restart sees what it left. With `lands`, write `failAt` happens and then reports a failure,
 * as a file whose rename went through before the folder's sync failed, or a keychain that stored the secret and then
 * timed out. `failAt = Infinity` lets everything through.
 */
export class WriteFaults {
  step = 0;
  failAt = Infinity;
  crash = false;
  lands = false;
  async #write(done: () => Promise<unknown>): Promise<void> {
    this.step += 1;
    const fails = this.step === this.failAt || (this.crash && this.step > this.failAt);
    if (!fails) return void (await done());
    if (!this.lands)
      throw Object.assign(new Error('ENOSPC: no space left on device, write (injected)'), { code: 'ENOSPC' });
    await done();
    throw Object.assign(new Error('EIO: i/o error, fsync (injected, after the write)'), { code: 'EIO' });
  }
  keychain(inner: Keychain): Keychain {
    return {
      getPassword: (s, a) => inner.getPassword(s, a),
      setPassword: (s, a, p) => this.#write(() => inner.setPassword(s, a, p)),
      deletePassword: async (s, a) => {
        let deleted = false;
        await this.#write(async () => (deleted = await inner.deletePassword(s, a)));
        return deleted;
      },
    };
  }
  writeFile(): WriteFile {
    return (path, content, options) => this.#write(() => writeFileAtomic(path, content, options));
  }
}
