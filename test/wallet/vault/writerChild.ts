// Child process of concurrentWriters.test.ts: a second wallet process on the same data folder that unlocks the
// wallet and imports one key. Prints one JSON line: the new account.
import { loadKeytar } from '../../../src-main/wallet/vault/secretStore.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';

const [dataDir, keychainService, password, key] = process.argv.slice(2) as [string, string, string, string];
const vault = await Vault.open({
  dataDir,
  keychain: await loadKeytar(),
  keychainService,
  scryptCost: { N: 1024, r: 8, p: 1 },
});
await vault.unlock({ password });
const account = await vault.importKey({ key, name: 'From the other process' });
await vault.settled();
vault.lock();
console.log(JSON.stringify(account));
