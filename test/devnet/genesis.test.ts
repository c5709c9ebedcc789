// The devnet's genesis: deterministic chain ID, seed and reset, development keys, pre-funded accounts, KOIN.
import { describe, expect, it } from 'vitest';
import { openNode } from '../../src-main/devnet/node.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { addressFromPublicKey, addressFromString, addressToString } from '../../src-main/koinos/address.ts';
import { toHex } from '../../src-main/koinos/bytes.ts';
import {
  privateKeyFromMnemonic,
  privateKeyToWif,
  publicKeyFromPrivateKey,
  validateMnemonic,
} from '../../src-main/koinos/keys.ts';
import { decodeKoinResult, KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { chainIdFromGenesis } from '../../src-main/koinos/transaction.ts';
import { DEV_MNEMONIC, devKey, GENESIS_KEY_INDEX } from '../../src-main/devnet/chain/devKeys.ts';
import { buildGenesis, DEFAULT_ACCOUNTS, KOIN_ADDRESS, OBJECT_KEYS } from '../../src-main/devnet/chain/genesis.ts';
import { RESOURCE_LIMITS } from '../../src-main/devnet/state/resources.ts';
import { balanceOf, KOIN, manaOf, nonceOf, testNodes } from './helpers.ts';

// Genesis tests look at the default number of development accounts.
const node = testNodes({ accounts: DEFAULT_ACCOUNTS });

describe('development keys', () => {
  it('uses a valid BIP39 phrase and derives accounts on the Koinos path, with their public keys and addresses', () => {
    expect(validateMnemonic(DEV_MNEMONIC)).toBe(true);
    // devKey derives with node:crypto and libsecp256k1; privateKeyFromMnemonic with @scure/bip32 from the master.
    // Account 205's key starts with a zero byte (kept, 32 bytes), and 2^31 - 1 is the last account index.
    for (const index of [0, 1, 7, 205, GENESIS_KEY_INDEX, 2 ** 31 - 1]) {
      const key = devKey(index);
      expect(key.privateKey).toHaveLength(32);
      expect(key.privateKey).toEqual(privateKeyFromMnemonic(DEV_MNEMONIC, index));
      const publicKey = publicKeyFromPrivateKey(key.privateKey);
      expect(key.publicKey).toBe(toHex(publicKey));
      expect(key.addressBytes).toEqual(addressFromPublicKey(publicKey));
      expect(key.address).toBe(addressToString(addressFromPublicKey(publicKey)));
      expect(key.wif).toBe(privateKeyToWif(key.privateKey));
    }
  });

  it('lists the accounts 0..N-1 and a separate genesis key', async () => {
    const n = await node({ accounts: 3 });
    expect(n.accounts.map((a) => a.index)).toEqual([0, 1, 2]);
    expect(n.accounts[0]!.address).toBe(devKey(0).address);
    expect(n.genesisAccount.index).toBe(GENESIS_KEY_INDEX);
    expect(n.genesisAddress).toBe(devKey(GENESIS_KEY_INDEX).address);
    expect(n.mnemonic).toBe(DEV_MNEMONIC);
  });

  it('refuses more development accounts than there are indexes below the genesis key', async () => {
    const error = await openNode({ accounts: GENESIS_KEY_INDEX + 1, manual: true, signatureThreads: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'WalletError', code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toContain(`at most ${GENESIS_KEY_INDEX}`);
  });

  it('refuses an initial balance that would take the total supply over 2^64 - 1, saying the largest', async () => {
    const balance = 2n ** 63n - 1n;
    const error = await openNode({ accounts: 2, initialBalance: balance, manual: true, signatureThreads: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'WalletError', code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toMatch(
      new RegExp(`^initial balance: expected at most \\d+ base units, got ${balance}: [34] accounts get it`),
    );
  });
});

describe('chain ID', () => {
  it('is the sha256 multihash of the serialized genesis data', async () => {
    const n = await node();
    const genesis = buildGenesis({
      seed: 'koinos-devnet',
      salt: new Uint8Array(),
      accounts: 10,
      initialBalance: 1_000_000n * KOIN,
    });
    expect(n.chainId).toEqual(chainIdFromGenesis({ entries: genesis.entries }));
    const { chain_id } = (await n.call('chain.get_chain_id', {})) as { chain_id: Uint8Array };
    expect(chain_id).toEqual(n.chainId);
    expect(chain_id.subarray(0, 2)).toEqual(Uint8Array.of(0x12, 0x20));
  });

  it('is the same for the same config and changes with the seed', async () => {
    const a = await node({ genesisSeed: 'one' });
    const b = await node({ genesisSeed: 'one' });
    const c = await node({ genesisSeed: 'two' });
    expect(a.chainId).toEqual(b.chainId);
    expect(a.chainId).not.toEqual(c.chainId);
  });

  it('changes on reset, even with the same config', async () => {
    const a = await node();
    const b = await node({ reset: true });
    const c = await node({ reset: true });
    expect(b.chainId).not.toEqual(a.chainId);
    expect(c.chainId).not.toEqual(b.chainId);
  });
});

describe('genesis state', () => {
  it('writes the genesis key, resource limits, block hash code and the seed into metadata', () => {
    const genesis = buildGenesis({ seed: 's', salt: new Uint8Array(), accounts: 1, initialBalance: 5n });
    const byKey = (k: Uint8Array) => genesis.entries.find((e) => Buffer.from(e.key).equals(Buffer.from(k)));
    expect(byKey(OBJECT_KEYS.genesisKey)!.value).toEqual(devKey(GENESIS_KEY_INDEX).addressBytes);
    expect(decode('koinos.chain.resource_limit_data', byKey(OBJECT_KEYS.resourceLimitData)!.value)).toEqual(
      RESOURCE_LIMITS,
    );
    expect(byKey(OBJECT_KEYS.blockHashCode)!.value).toEqual(Uint8Array.of(0x12));
    expect(decode('koinos.devnet.genesis_seed', byKey(OBJECT_KEYS.devnetSeed)!.value)).toMatchObject({ seed: 's' });
    expect(genesis.entries[0]!.space).toEqual({ system: true, zone: new Uint8Array(), id: 0 });
  });

  it('funds every account with the initial balance and full mana, nonce 0', async () => {
    const n = await node({ accounts: 2, initialBalance: 1234n * KOIN });
    for (const a of n.accounts) {
      const address = addressFromString(a.address);
      expect(await balanceOf(n, address)).toBe(1234n * KOIN);
      expect(await manaOf(n, address)).toBe(1234n * KOIN);
      expect(await nonceOf(n, address)).toBe(0n);
    }
    const { nonce } = (await n.call('chain.get_account_nonce', {
      account: addressFromString(n.accounts[0]!.address),
    })) as { nonce: Uint8Array };
    expect(nonce).toEqual(Uint8Array.of(0x28, 0x00));
  });

  it('gives an account without KOIN no mana and a zero balance as an empty result', async () => {
    const n = await node();
    const stranger = devKey(500).addressBytes;
    expect(await manaOf(n, stranger)).toBe(0n);
    const { result } = (await n.call('chain.read_contract', {
      contract_id: KOIN_ADDRESS,
      entry_point: KOIN_METHODS.balance_of.entryPoint,
      args: encode(KOIN_METHODS.balance_of.argsType, { owner: stranger }),
    })) as { result: Uint8Array };
    expect(result).toEqual(new Uint8Array());
  });
});

describe('KOIN', () => {
  it('resolves the name "koin" and back through invoke_system_call', async () => {
    const n = await node();
    const byName = (await n.call('chain.invoke_system_call', {
      name: 'get_contract_address',
      args: encode('koinos.contracts.name_service.get_address_arguments', { name: 'koin' }),
    })) as { value: Uint8Array };
    const address = decode('koinos.contracts.name_service.get_address_result', byName.value).value!.address;
    expect(address).toEqual(addressFromString(n.koinAddress));
    const byId = (await n.call('chain.invoke_system_call', {
      id: 10000n,
      args: encode('koinos.contracts.name_service.get_name_arguments', { address }),
    })) as { value: Uint8Array };
    expect(decode('koinos.contracts.name_service.get_name_result', byId.value).value?.name).toBe('koin');
  });

  it('fails an unknown name as the name service does, runs other system calls, and refuses an unknown one', async () => {
    const n = await node();
    await expect(
      n.call('chain.invoke_system_call', {
        name: 'get_contract_address',
        args: encode('koinos.contracts.name_service.get_address_arguments', { name: 'nothing' }),
      }),
    ).rejects.toMatchObject({ message: 'no record found for the name: nothing', code: -1 });
    // controller.cpp runs any system call by name: get_head_info answers the head.
    const head = (await n.call('chain.invoke_system_call', { name: 'get_head_info', args: new Uint8Array() })) as {
      value: Uint8Array;
    };
    const { head_topology } = (await n.call('chain.get_head_info', {})) as { head_topology: { id: Uint8Array } };
    expect(decode('koinos.chain.get_head_info_result', head.value).value?.head_topology?.id).toEqual(head_topology.id);
    await expect(
      n.call('chain.invoke_system_call', { name: 'no_such_call', args: new Uint8Array() }),
    ).rejects.toMatchObject({ code: -103 });
  });

  it('reads name, symbol, decimals, get_info and total_supply', async () => {
    const n = await node({ accounts: 4, initialBalance: 10n * KOIN });
    const read = async (m: 'name' | 'symbol' | 'decimals' | 'get_info' | 'total_supply') => {
      const { result } = (await n.call('chain.read_contract', {
        contract_id: KOIN_ADDRESS,
        entry_point: KOIN_METHODS[m].entryPoint,
        args: new Uint8Array(),
      })) as {
        result: Uint8Array;
      };
      return decodeKoinResult(m, result);
    };
    expect(await read('name')).toEqual({ value: 'Koin' });
    expect(await read('symbol')).toEqual({ value: 'KOIN' });
    expect(await read('decimals')).toEqual({ value: 8 });
    expect(await read('get_info')).toEqual({ name: 'Koin', symbol: 'KOIN', decimals: 8 });
    // four accounts and the genesis key
    expect(await read('total_supply')).toEqual({ value: 50n * KOIN });
  });

  it('rejects a read of another contract and a write method in read_contract', async () => {
    const n = await node();
    await expect(
      n.call('chain.read_contract', {
        contract_id: devKey(3).addressBytes,
        entry_point: KOIN_METHODS.name.entryPoint,
        args: new Uint8Array(),
      }),
    ).rejects.toMatchObject({ code: 102, message: 'contract does not exist' });
    await expect(
      n.call('chain.read_contract', {
        contract_id: KOIN_ADDRESS,
        entry_point: KOIN_METHODS.transfer.entryPoint,
        args: new Uint8Array(),
      }),
    ).rejects.toMatchObject({ code: 108 });
  });

  it('reports the resource limits of the genesis', async () => {
    const n = await node();
    expect(await n.call('chain.get_resource_limits', {})).toEqual({ resource_limit_data: RESOURCE_LIMITS });
  });
});

describe('service', () => {
  it('lists its methods and rejects an unknown one', async () => {
    const n = await node();
    expect(n.methods).toContain('chain.submit_transaction');
    expect(n.methods).toContain('account_history.get_account_history');
    // @ts-expect-error a method the node does not have, as a client may send it
    await expect(n.call('chain.no_such_method', {})).rejects.toMatchObject({
      name: 'WalletError',
      code: 'INVALID_ARGUMENT',
      message: 'unknown method',
    });
  });

  it('rejects block submission with a clear error', async () => {
    const n = await node();
    await expect(n.call('chain.submit_block', {})).rejects.toMatchObject({
      code: -1,
      message: expect.stringContaining('not supported by the devnet'),
    });
  });
});
