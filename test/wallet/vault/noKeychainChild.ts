// Child process of noKeychain.test.ts: a vault over the real keytar in an environment whose D-Bus leads nowhere.
// Prints one JSON line: the status, and whether a key imported there signs after a restart.
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { nonceToBytes, recoverSigners } from '../../../src-main/koinos/transaction.ts';
import { loadKeytar } from '../../../src-main/wallet/vault/secretStore.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { approvalFor } from '../../helpers/approval.ts';

const [dataDir, wif, address] = process.argv.slice(2) as [string, string, string];
const options = {
  dataDir,
  keychain: await loadKeytar(),
  keychainService: `koinos-wallet-test-child-${process.pid}`,
  scryptCost: { N: 1024, r: 8, p: 1 },
};
const vault = await Vault.open(options);
const before = vault.status();
await vault.create({ password: 'child process password' });
await vault.importKey({ key: wif, name: 'K' });
vault.lock();
const reopened = await Vault.open(options);
await reopened.unlock({ password: 'child process password' });
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
const signed = await reopened.signTransaction(address, tx, await approvalFor(address, tx));
reopened.lock();
console.log(JSON.stringify({ before, after: reopened.status(), signer: recoverSigners(signed)[0]?.address }));
