// Test helpers for the devnet service: signed KOIN transactions from the development keys, and small readers.
import { decode } from '../../src-main/koinos/codec.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { encodeKoinArgs, KOIN_METHODS, koinOperation, type KoinMethodName } from '../../src-main/koinos/koin.ts';
import { digestOfMultihash } from '../../src-main/koinos/hash.ts';
import { signDigest } from '../../src-main/koinos/keys.ts';
import { nonceToBytes, prepareTransaction } from '../../src-main/koinos/transaction.ts';
import type { Operation, Transaction, TransactionReceipt } from '../../src-main/koinos/types.ts';
import { devKey, GENESIS_KEY_INDEX, type DevKey } from '../../src-main/devnet/chain/devKeys.ts';
import { afterEach } from 'vitest';
import { openNode } from '../../src-main/devnet/node.ts';
import type { DevnetConfig, DevnetNode } from '../../src-main/devnet/types.ts';

import { KOIN } from '../helpers/constants.ts';

export { KOIN };

/**
 * A factory of test nodes: manual block production (tests drive blocks by hand), signatures recovered on the
 * calling thread, three development accounts, quiet; every node it opened is closed after each test.
 */
export function testNodes(defaults: DevnetConfig = {}): (config?: DevnetConfig) => Promise<DevnetNode> {
  const open: DevnetNode[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((n) => n.close()));
  });
  return async (config = {}) => {
    const n = await openNode({ manual: true, accounts: 3, signatureThreads: 0, log: () => {}, ...defaults, ...config });
    open.push(n);
    return n;
  };
}

export function key(index: number): DevKey {
  return devKey(index);
}

export const genesisKey = (): DevKey => devKey(GENESIS_KEY_INDEX);

export interface TxOptions {
  nonce?: bigint;
  rcLimit?: bigint;
  payer?: DevKey;
  payee?: Uint8Array;
  signers?: DevKey[];
  chainId?: Uint8Array;
  operations?: Operation[];
}

/** Next nonce of the nonce account: the stored one plus the pending ones, plus one. */
export async function nextNonce(node: DevnetNode, account: Uint8Array): Promise<bigint> {
  const pending = (await node.call('mempool.get_pending_nonce', { payee: account })) as { nonce: Uint8Array };
  if (pending.nonce.length > 0) return decode('koinos.chain.value_type', pending.nonce).uint64_value! + 1n;
  const stored = (await node.call('chain.get_account_nonce', { account })) as { nonce: Uint8Array };
  return decode('koinos.chain.value_type', stored.nonce).uint64_value! + 1n;
}

/** A signed transaction calling KOIN `method` with `args`, paid and signed by `from` unless told otherwise. */
export async function koinTx(
  node: DevnetNode,
  from: DevKey,
  method: KoinMethodName,
  args: object,
  options: TxOptions = {},
): Promise<Transaction> {
  const payer = options.payer ?? from;
  const nonceAccount = options.payee && options.payee.length > 0 ? options.payee : payer.addressBytes;
  const nonce = options.nonce ?? (await nextNonce(node, nonceAccount));
  let tx: Transaction = {
    id: new Uint8Array(),
    header: {
      chain_id: options.chainId ?? node.chainId,
      rc_limit: options.rcLimit ?? 10n * KOIN,
      nonce: nonceToBytes(nonce),
      operation_merkle_root: new Uint8Array(),
      payer: payer.addressBytes,
      payee: options.payee ?? new Uint8Array(),
    },
    operations: options.operations ?? [koinOperation(addressFromString(node.koinAddress), method, args)],
    signatures: [],
  };
  // Signed without the library's checks before signing (signTransaction refuses a transfer to a malformed address):
  // these tests give the node whatever a client could send, malformed arguments included.
  tx = prepareTransaction(tx);
  for (const signer of options.signers ?? [payer])
    tx = { ...tx, signatures: [...tx.signatures, signDigest(digestOfMultihash(tx.id), signer.privateKey)] };
  return tx;
}

export function transferTx(
  node: DevnetNode,
  from: DevKey,
  to: DevKey,
  value: bigint,
  options: TxOptions = {},
): Promise<Transaction> {
  return koinTx(node, from, 'transfer', { from: from.addressBytes, to: to.addressBytes, value }, options);
}

export async function submit(
  node: DevnetNode,
  transaction: Transaction,
  broadcast = true,
): Promise<TransactionReceipt> {
  const { receipt } = (await node.call('chain.submit_transaction', { transaction, broadcast })) as {
    receipt: TransactionReceipt;
  };
  return receipt;
}

/** Block `block` (as produceBlock names it) as the block store holds it: its id, its transactions and its receipt. */
export async function storedBlock(n: DevnetNode, block: { id: Uint8Array; height: bigint }) {
  const { block_items } = (await n.call('block_store.get_blocks_by_height', {
    head_block_id: block.id,
    ancestor_start_height: block.height,
    num_blocks: 1,
    return_block: true,
    return_receipt: true,
  })) as {
    block_items: {
      block_id: Uint8Array;
      block: { header: { timestamp: bigint }; transactions: { id: Uint8Array }[] };
      receipt: { transaction_receipts: TransactionReceipt[] };
    }[];
  };
  return block_items[0]!;
}

export async function balanceOf(node: DevnetNode, address: Uint8Array): Promise<bigint> {
  const { result } = (await node.call('chain.read_contract', {
    contract_id: addressFromString(node.koinAddress),
    entry_point: KOIN_METHODS.balance_of.entryPoint,
    args: encodeKoinArgs('balance_of', { owner: address }),
  })) as { result: Uint8Array };
  return decode('koinos.contracts.token.balance_of_result', result).value;
}

export async function manaOf(node: DevnetNode, account: Uint8Array): Promise<bigint> {
  return ((await node.call('chain.get_account_rc', { account })) as { rc: bigint }).rc;
}

export async function nonceOf(node: DevnetNode, account: Uint8Array): Promise<bigint> {
  const { nonce } = (await node.call('chain.get_account_nonce', { account })) as { nonce: Uint8Array };
  return decode('koinos.chain.value_type', nonce).uint64_value ?? 0n;
}

export async function pendingCount(node: DevnetNode): Promise<number> {
  const { pending_transactions } = (await node.call('mempool.get_pending_transactions', { limit: 2000n })) as {
    pending_transactions: unknown[];
  };
  return pending_transactions.length;
}

/** Everything a rejected transaction must leave unchanged, to compare before and after. */
export async function snapshot(node: DevnetNode, accounts: DevKey[]): Promise<unknown[]> {
  const out: unknown[] = [await pendingCount(node)];
  for (const a of accounts) {
    out.push(
      await balanceOf(node, a.addressBytes),
      await manaOf(node, a.addressBytes),
      await nonceOf(node, a.addressBytes),
    );
    const { nonce } = (await node.call('mempool.get_pending_nonce', { payee: a.addressBytes })) as {
      nonce: Uint8Array;
    };
    out.push(Array.from(nonce));
  }
  return out;
}

/** The error (a ChainError: message, code and data; or a WalletError) a promise rejects with. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ message: string; code?: number; data: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { message: string; code?: number; data: Record<string, unknown> };
  }
  throw new Error('expected a rejection, got a result');
}
