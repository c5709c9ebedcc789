// The read-only koinos_* methods, answered from the network of the request's chain as koilib's Provider answers them
// (the dApp SDK hands the results on as koilib's): raw JSON-RPC results, a nonce as a number, mana as a string.
// Only inside a grant (dappService checks it); arguments are checked and bounded here.
import { setTimeout as pause } from 'node:timers/promises';
import { addressFromString, isAddress } from '../../koinos/address.ts';
import { BTYPE, bytesToJson, type JsonObject } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { nonceToBytes } from '../../koinos/transaction.ts';
import type { PendingTransactions } from '../chain/pendingTransactions.ts';
import type { ChainNetwork } from './chains.ts';
import { nextNonce, readDappTransaction } from './dappTransactions.ts';
import type { DappMethod } from './dappMethods.ts';

/** At most this many ids or blocks per call. */
const MAX_ITEMS = 100;
/** The longest waitForTransaction waits, whatever the dApp asks. */
const MAX_WAIT_MS = 60_000;
const WAIT_POLL_MS = 300;

/** JSON-RPC methods koinos_JsonRpcCall may reach: reads only (writes go through the wallet's own methods). */
const READ_RPC_METHODS: ReadonlySet<string> = new Set([
  'chain.get_head_info',
  'chain.get_chain_id',
  'chain.get_account_nonce',
  'chain.get_account_rc',
  'chain.get_resource_limits',
  'chain.get_fork_heads',
  'chain.read_contract',
  'block_store.get_blocks_by_id',
  'block_store.get_blocks_by_height',
  'block_store.get_highest_block',
  'transaction_store.get_transactions_by_id',
  'contract_meta_store.get_contract_meta',
  'account_history.get_account_history',
  'mempool.get_pending_nonce',
  'mempool.get_reserved_account_rc',
]);

type Params = Record<string, unknown>;

function field<T>(params: Params, name: string, check: (v: unknown) => v is T, means: string): T {
  const value = params[name];
  if (!check(value))
    throw new WalletError('INVALID_ARGUMENT', `expected ${name} to be ${means}, got ${describe(value)}`);
  return value;
}

const isAddressText = (v: unknown): v is string => isAddress(v);
const isIdList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length > 0 && v.length <= MAX_ITEMS && v.every((x) => typeof x === 'string' && x.length <= 200);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The read methods and what they answer. */
export type ReadMethod = Exclude<
  DappMethod,
  | 'koinos_signTransaction'
  | 'koinos_signAndSendTransaction'
  | 'koinos_signMessage'
  | 'koinos_signHash'
  | 'koinos_submitBlock'
  | 'koinos_prepareTransaction'
>;

/**
 * Answers a read method on the chain's node.
 * @throws WalletError INVALID_ARGUMENT for arguments of the wrong form, NODE_* from the node, NODE_TIMEOUT when a
 *   waited-for transaction is not included in time.
 */
export async function answerRead(
  ctx: ChainNetwork,
  pending: PendingTransactions,
  method: ReadMethod,
  params: Params,
  /** Ends a koinos_waitForTransaction early, with its reason as the error. */
  signal?: AbortSignal,
): Promise<unknown> {
  const rpc = ctx.node.rpc;
  switch (method) {
    case 'koinos_getHeadInfo':
      return rpc.call('chain.get_head_info', {});
    case 'koinos_getChainId':
      return bytesToJson(ctx.chainId, BTYPE.BASE64);
    case 'koinos_getNonce': {
      // koilib's getNonce answers a number; nonces stay far below 2^53 (one per transaction of the account).
      const nonce = await ctx.node.nonce(addressFromString(field(params, 'address', isAddressText, 'an address')));
      return Number(nonce);
    }
    case 'koinos_getNextNonce': {
      const { next } = await nextNonce(ctx, pending, field(params, 'address', isAddressText, 'an address'));
      return bytesToJson(nonceToBytes(next), BTYPE.BASE64);
    }
    case 'koinos_getAccountRc':
      return (await ctx.node.rc(addressFromString(field(params, 'address', isAddressText, 'an address')))).toString();
    case 'koinos_readContract': {
      const op = field(params, 'operation', isObject, 'a call_contract operation { contract_id, entry_point, args }');
      return rpc.call('chain.read_contract', {
        contract_id: op['contract_id'],
        entry_point: op['entry_point'],
        args: op['args'] ?? '',
      });
    }
    case 'koinos_getTransactionsById':
      return rpc.call('transaction_store.get_transactions_by_id', {
        transaction_ids: field(params, 'transactionIds', isIdList, `1 to ${MAX_ITEMS} transaction ids`),
      });
    case 'koinos_getBlocksById':
      return rpc.call('block_store.get_blocks_by_id', {
        block_ids: field(params, 'blockIds', isIdList, `1 to ${MAX_ITEMS} block ids`),
        return_block: true,
        return_receipt: false,
      });
    case 'koinos_getBlocks':
    case 'koinos_getBlock': {
      const height = field(params, 'height', isCount, 'a block height');
      const count =
        method === 'koinos_getBlock'
          ? 1
          : params['numBlocks'] === undefined
            ? 1
            : field(params, 'numBlocks', isCount, `a number of blocks up to ${MAX_ITEMS}`);
      if (count === 0 || count > MAX_ITEMS)
        throw new WalletError('INVALID_ARGUMENT', `expected numBlocks from 1 to ${MAX_ITEMS}, got ${count}`);
      const idRef =
        typeof params['idRef'] === 'string'
          ? params['idRef']
          : ((await rpc.call('chain.get_head_info', {}))['head_topology'] as JsonObject | undefined)?.['id'];
      const answer = await rpc.call('block_store.get_blocks_by_height', {
        head_block_id: idRef,
        ancestor_start_height: String(height),
        num_blocks: count,
        return_block: true,
        return_receipt: false,
      });
      const items = (answer['block_items'] as unknown[] | undefined) ?? [];
      return method === 'koinos_getBlock' ? (items[0] ?? null) : items;
    }
    case 'koinos_JsonRpcCall': {
      const name = field(params, 'method', (v): v is string => typeof v === 'string', 'a JSON-RPC method name');
      if (!READ_RPC_METHODS.has(name))
        throw new WalletError(
          'INVALID_ARGUMENT',
          `This wallet passes on only read methods; ${describe(name)} is not one of them.`,
          { details: [...READ_RPC_METHODS].join(', ') },
        );
      return rpc.call(name, isObject(params['params']) ? params['params'] : {});
    }
    case 'koinos_sendTransaction': {
      // A transaction the dApp had signed already: the wallet only passes it on (no key of the wallet is involved).
      const tx = readDappTransaction(params['transaction']);
      if (tx.signatures.length === 0)
        throw new WalletError(
          'INVALID_SIGNATURE',
          'The transaction is not signed. Ask the wallet to sign and send it instead.',
        );
      const broadcast = params['broadcast'] !== false;
      const answer = await rpc.call(
        'chain.submit_transaction',
        { transaction: params['transaction'], broadcast },
        'write',
      );
      return { receipt: answer['receipt'] ?? {}, transaction: params['transaction'] };
    }
    case 'koinos_waitForTransaction':
      return waitFor(
        ctx,
        field(
          params,
          'transactionId',
          (v): v is string => typeof v === 'string' && v.length <= 200,
          'a transaction id',
        ),
        params['timeout'],
        signal,
      );
  }
}

/**
 * Polls the transaction store until the transaction is in a block, the deadline passes or `signal` ends the wait (its
 * reason is then the error, and the node is not asked again).
 */
async function waitFor(
  ctx: ChainNetwork,
  id: string,
  timeout: unknown,
  signal?: AbortSignal,
): Promise<{ blockId: string; blockNumber?: number }> {
  const ms = typeof timeout === 'number' && timeout > 0 ? Math.min(timeout, MAX_WAIT_MS) : 15_000;
  const deadline = Date.now() + ms;
  for (;;) {
    signal?.throwIfAborted();
    const answer = await ctx.node.rpc.call('transaction_store.get_transactions_by_id', { transaction_ids: [id] });
    signal?.throwIfAborted();
    const item = ((answer['transactions'] as JsonObject[] | undefined) ?? [])[0];
    const blockId = ((item?.['containing_blocks'] as string[] | undefined) ?? [])[0];
    if (blockId) {
      const blocks = await ctx.node.rpc.call('block_store.get_blocks_by_id', {
        block_ids: [blockId],
        return_block: false,
        return_receipt: false,
      });
      const height = ((blocks['block_items'] as JsonObject[] | undefined) ?? [])[0]?.['block_height'];
      return { blockId, ...(height !== undefined ? { blockNumber: Number(height) } : {}) };
    }
    if (Date.now() > deadline)
      throw new WalletError('NODE_TIMEOUT', `Transaction ${id} was not included in a block within ${ms / 1000} s.`);
    // An aborted pause rejects with an AbortError: the loop's first line throws the signal's own reason instead.
    await pause(WAIT_POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
