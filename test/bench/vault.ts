// Benchmark of the vault: the time one unlock takes (scrypt at the cost calibrated on this machine, plus the check
// value), for a wallet of 1 and of 50 accounts, and the first signature after an unlock (one entry opened).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { newPrivateKey, privateKeyToWif } from '../../src-main/koinos/keys.ts';
import { nonceToBytes } from '../../src-main/koinos/transaction.ts';
import { loadKeytar } from '../../src-main/wallet/vault/secretStore.ts';
import { Vault } from '../../src-main/wallet/vault/vault.ts';
import { approvalFor } from '../helpers/approval.ts';
import { removeKeychainService } from '../helpers/keychain.ts';

const PASSWORD = 'benchmark password';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function unlockFigures(
  accounts: number,
  keychainService: string,
): Promise<{ unlockMs: number; firstSignMs: number; storage: string; N: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vault-bench-'));
  const keychain = await loadKeytar();
  try {
    const vault = await Vault.open({ dataDir, keychain, keychainService });
    await vault.create({ password: PASSWORD });
    let address = '';
    for (let i = 0; i < accounts; i++)
      address = (await vault.importKey({ key: privateKeyToWif(newPrivateKey()), name: `A${i}` })).address;
    vault.lock();
    const times: number[] = [];
    const signs: number[] = [];
    for (let run = 0; run < 5; run++) {
      const fresh = await Vault.open({ dataDir, keychain });
      const started = performance.now();
      await fresh.unlock({ password: PASSWORD });
      times.push(performance.now() - started);
      const tx = {
        id: new Uint8Array(),
        header: {
          chain_id: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32)]),
          rc_limit: 1n,
          nonce: nonceToBytes(1n),
          operation_merkle_root: new Uint8Array(),
          payer: addressFromString(address),
          payee: new Uint8Array(),
        },
        operations: [],
        signatures: [],
      };
      const approval = await approvalFor(address, tx);
      const signStarted = performance.now();
      await fresh.signTransaction(address, tx, approval);
      signs.push(performance.now() - signStarted);
      fresh.lock();
    }
    const { N } = JSON.parse(await (await import('node:fs/promises')).readFile(join(dataDir, 'wallet.json'), 'utf8'))
      .vault.kdf;
    return { unlockMs: median(times), firstSignMs: median(signs), storage: vault.status().storage, N };
  } finally {
    await removeKeychainService(keychainService);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Prints the unlock time of a 1-account and a 50-account wallet (median of 5 unlocks each). */
export async function benchVault(): Promise<void> {
  const service = `koinos-wallet-bench-${process.pid}`;
  for (const accounts of [1, 50]) {
    const r = await unlockFigures(accounts, service);
    console.log(
      `unlock, ${String(accounts).padStart(2)} account(s): ${r.unlockMs.toFixed(0)} ms (scrypt N=2^${Math.log2(r.N)}, r=8, p=1, goal ~250 ms; ` +
        `keys in the ${r.storage}); first signature after unlock: ${r.firstSignMs.toFixed(1)} ms`,
    );
  }
}
