// Benchmark of the encrypted-backup import's merge (backupMerge.ts): the time to check and add a backup of 1000
// accounts of one recovery phrase, and 1000 imported keys, into an empty wallet, and to merge the same backup again
// (every account already there). The merge runs on main's event loop: nothing else runs meanwhile.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { addressToString, addressFromPublicKey } from '../../src-main/koinos/address.ts';
import { newPrivateKey, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import type { BackupPayload } from '../../src-main/wallet/vault/backupFile.ts';
import { mergeBackup } from '../../src-main/wallet/vault/backupMerge.ts';
import { phraseAccounts } from '../../src-main/wallet/vault/secretPayload.ts';
import type { VaultRecord } from '../../src-main/wallet/vault/walletFile.ts';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

function emptyVault(): VaultRecord {
  return {
    walletId: 'bench',
    storage: 'file',
    keychainService: 'bench',
    kdf: { N: 2 ** 15, r: 8, p: 1, salt: '' },
    generation: 'g',
    check: '',
    accounts: [],
    phrases: [],
  };
}

function payloadOf(count: number): BackupPayload {
  const payload: BackupPayload = { phrases: [{ ref: 'p', phrase: PHRASE, nextIndex: count }], accounts: [] };
  const { accountAt } = phraseAccounts(PHRASE);
  for (let i = 0; i < count; i++) {
    payload.accounts.push({
      name: `P${i}`,
      kind: 'phrase',
      address: accountAt(i).address,
      phraseRef: 'p',
      derivationIndex: i,
    });
  }
  for (let i = 0; i < count; i++) {
    const key = newPrivateKey();
    const address = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(key)));
    payload.accounts.push({ name: `K${i}`, kind: 'key', address, privateKeyHex: Buffer.from(key).toString('hex') });
  }
  return payload;
}

/** The merge's time, and the longest the event loop waited meanwhile (the merge lets it turn between accounts). */
async function timed(run: () => Promise<unknown>): Promise<{ ms: number; longestWaitMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  delay.disable();
  return { ms, longestWaitMs: delay.max / 1e6 };
}

/** Prints the merge time of a backup of 1000 phrase accounts and 1000 keys, into an empty wallet and again. */
export async function benchBackupMerge(count = 1000): Promise<void> {
  const phrases = payloadOf(count);
  const onlyPhrase = { ...phrases, accounts: phrases.accounts.slice(0, count) };
  const onlyKeys = { phrases: [], accounts: phrases.accounts.slice(count) };
  for (const [what, payload] of [
    [`${count} accounts of one phrase`, onlyPhrase],
    [`${count} imported keys`, onlyKeys],
  ] as const) {
    const vault = emptyVault();
    const first = await timed(() => mergeBackup(vault, structuredClone(payload)));
    const again = await timed(() => mergeBackup(vault, structuredClone(payload)));
    console.log(
      `backup import merge, ${what}: ${first.ms.toFixed(0)} ms into an empty wallet, ${again.ms.toFixed(0)} ms again ` +
        `(longest event-loop wait ${Math.max(first.longestWaitMs, again.longestWaitMs).toFixed(0)} ms)`,
    );
  }
}
