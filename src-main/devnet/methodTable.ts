// The one method table of the devnet service: each `service.method` the node answers, its request normalized through
// the method's protobuf type, and the reader, mempool, developer method or submission that answers it. A mapped type
// over NODE_METHODS (methods.ts): a method without a handler, a stray one, or a handler that reads or answers another
// message than its method's does not compile.
import { toHex } from '../koinos/bytes.ts';
import { decode, encode } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { nonceToBytes } from '../koinos/transaction.ts';
import { nonceBytesOf } from './chain/applyTransaction.ts';
import type { Mempool } from './chain/mempool.ts';
import { pendingTransaction, type ChainReader } from './chainReader.ts';
import { KOIN } from './contracts/registry.ts';
import type { DeveloperMethods } from './developerMethods.ts';
import { requestType, type NodeAnswer, type NodeMethod, type NodeRequest, type NodeRequestInput } from './methods.ts';
import { failure } from './state/chainError.ts';
import { RESOURCE_LIMITS } from './state/resources.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** Request limit of the real mempool (facts §7.2). */
const MAX_PENDING_REQUEST = 2000n;

/** The methods whose handler reads the request as the caller sent it: it checks it itself, or refuses the method. */
const AS_SENT = new Set<NodeMethod>(['chain.submit_transaction', 'chain.submit_block', 'chain.propose_block']);
type AsSentMethod = 'chain.submit_transaction' | 'chain.submit_block' | 'chain.propose_block';

/** The request a method's handler reads: normalized (every default filled in), or as sent for the AS_SENT methods. */
export type HandlerRequest<M extends NodeMethod> = M extends AsSentMethod ? NodeRequestInput<M> : NodeRequest<M>;

/**
 * The handler of one method: its request in, its response out. `complete` says an AS_SENT request has every default
 * filled all the same (the caller said so: the strict JSON reader's output).
 */
export type Handler<M extends NodeMethod> = (
  request: HandlerRequest<M>,
  complete: boolean,
) => Promise<NodeAnswer<M>> | NodeAnswer<M>;

/** One handler per method, each typed by its method's messages. */
export type Handlers = { [M in NodeMethod]: Handler<M> };

/** What the table answers with: the node's reads, its mempool, its developer methods and its submission. */
export interface MethodTableDeps {
  reader: ChainReader;
  mempool: Mempool;
  developer: DeveloperMethods;
  /**
   * chain.submit_transaction: recovers the signatures, then accepts the transaction on the node's queue; `complete`
   * as the handler got it.
   */
  submitTransaction(
    request: NodeRequestInput<'chain.submit_transaction'>,
    complete: boolean,
  ): Promise<NodeAnswer<'chain.submit_transaction'>>;
}

/** Decodes a request through its canonical bytes: checks field types and fills every default. */
function normalize<M extends NodeMethod>(method: M, request: NodeRequestInput<M>): NodeRequest<M> {
  const type = requestType(method);
  return decode(type, encode(type, request));
}

/**
 * Runs `method` on `handlers`: the request normalized through the method's request type first (but for the methods
 * that read it as sent, and for a request the caller says is `complete`: decoded, or parsed by the strict JSON reader),
 * so each handler reads a complete message.
 * @throws what the handler throws; WalletError INVALID_ARGUMENT naming the field for a request that does not encode.
 */
export async function runMethod<M extends NodeMethod>(
  handlers: Handlers,
  method: M,
  request: NodeRequestInput<M>,
  complete = false,
): Promise<NodeAnswer<M>> {
  const handler: Handler<M> = handlers[method];
  // The compiler cannot follow the set test to the conditional type; AS_SENT and AsSentMethod name the same methods.
  return handler(
    (complete || AS_SENT.has(method) ? request : normalize(method, request)) as HandlerRequest<M>,
    complete,
  );
}

/** The one handler table: one handler per NODE_METHODS entry, so a method without a handler (or a stray one) does not compile. */
export function makeHandlers({ reader, mempool, developer, submitTransaction }: MethodTableDeps): Handlers {
  const notSupported = (method: string) => () => {
    throw failure(`${method} is not supported by the devnet: it produces its own blocks (use devnet.produce_block)`);
  };
  return {
    'chain.submit_transaction': (r, complete) => submitTransaction(r, complete),
    'chain.submit_block': notSupported('chain.submit_block'),
    'chain.propose_block': notSupported('chain.propose_block'),
    'chain.get_head_info': () => ({
      head_topology: reader.headTopology(),
      last_irreversible_block: reader.lastIrreversible(),
      head_state_merkle_root: reader.head.stateMerkleRoot,
      head_block_time: reader.head.timestamp,
    }),
    'chain.get_chain_id': () => ({ chain_id: reader.chainId }),
    'chain.get_fork_heads': async () => ({
      last_irreversible_block: await reader.topologyAt(reader.lastIrreversible()),
      fork_heads: [reader.headTopology()],
    }),
    'chain.read_contract': (r) => reader.readContract(r),
    'chain.get_account_nonce': (r) => {
      const { account } = r;
      return { nonce: nonceBytesOf(reader.committed, account) };
    },
    'chain.get_account_rc': (r) => {
      const { account } = r;
      return { rc: KOIN.accountRc(reader.headView(), account, reader.head.timestamp) };
    },
    'chain.get_resource_limits': () => ({ resource_limit_data: { ...RESOURCE_LIMITS } }),
    'chain.invoke_system_call': (r) => reader.invokeSystemCall(r),
    'contract_meta_store.get_contract_meta': (r) => reader.contractMeta(r),
    'block_store.get_blocks_by_id': (r) => reader.blocksById(r),
    'block_store.get_blocks_by_height': (r) => reader.blocksByHeight(r),
    'block_store.get_highest_block': () => ({ topology: reader.headTopology() }),
    'transaction_store.get_transactions_by_id': (r) => {
      const { transaction_ids: ids } = r;
      return reader.transactionsById(ids);
    },
    'mempool.check_pending_account_resources': (r) => {
      const req = r;
      return { success: mempool.checkPendingAccountResources(req.payer, req.max_payer_rc, req.rc_limit) };
    },
    'mempool.get_pending_transactions': (r) => {
      const { limit } = r;
      if (limit > MAX_PENDING_REQUEST)
        throw new WalletError(
          'INVALID_ARGUMENT',
          `requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`,
        );
      return { pending_transactions: mempool.list(Number(limit)).map((e) => pendingTransaction(e)) }; // limit <= 2000
    },
    'mempool.check_account_nonce': (r) => {
      const req = r;
      let nonce = 0n;
      try {
        nonce = decode('koinos.chain.value_type', req.nonce).uint64_value ?? 0n;
      } catch {
        throw new WalletError('INVALID_ARGUMENT', 'nonce is not a serialized value_type');
      }
      return { success: mempool.checkAccountNonce(req.payee, nonce) };
    },
    'mempool.get_reserved_account_rc': (r) => {
      const { account } = r;
      return { rc: mempool.reservedRc(account) };
    },
    'mempool.get_pending_nonce': (r) => {
      const { payee } = r;
      const nonce = mempool.pendingNonce(payee);
      return { nonce: nonce === undefined ? EMPTY : nonceToBytes(nonce) };
    },
    'mempool.get_pending_transaction_count': (r) => {
      const { payee } = r;
      return { count: BigInt(mempool.pendingCount(payee)) };
    },
    'mempool.get_pending_transactions_by_id': (r) => {
      const { transaction_ids: ids } = r;
      if (BigInt(ids.length) > MAX_PENDING_REQUEST)
        throw new WalletError(
          'INVALID_ARGUMENT',
          `requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`,
        );
      const found = ids.map((id) => mempool.get(toHex(id))).filter((e) => e !== undefined);
      return { pending_transactions: found.map((e) => pendingTransaction(e)) };
    },
    'account_history.get_account_history': (r) => reader.accountHistory(r),
    'devnet.produce_block': async () => {
      const { id, height } = await developer.produceBlock();
      return { block_id: id, block_height: height };
    },
    'devnet.produce_blocks': async (r) => {
      const req = r;
      if (req.interval_ms > 86_400_000n * 366n)
        throw new WalletError(
          'INVALID_ARGUMENT',
          `interval_ms: expected at most a year of milliseconds, got ${req.interval_ms}`,
        );
      const { id, height } = await developer.produceBlocks(req.count, Number(req.interval_ms));
      return { block_id: id, block_height: height };
    },
    'devnet.advance_time': async (r) => {
      const { milliseconds } = r;
      if (milliseconds === 0n || milliseconds > 86_400_000n * 36_600n) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          `milliseconds: expected 1 to 3,162,240,000,000 (a century), got ${milliseconds}`,
        );
      }
      const { id, height, timestamp } = await developer.advanceTime(Number(milliseconds));
      return { block_id: id, block_height: height, head_block_time: timestamp };
    },
    'devnet.set_balance': async (r) => {
      const req = r;
      const { id, height } = await developer.setBalance({
        contract: req.contract_id,
        account: req.account,
        value: req.value,
      });
      return { block_id: id, block_height: height };
    },
    'devnet.create_token': async (r) => {
      const req = r;
      const { contractId, id, height } = await developer.createToken({
        name: req.name,
        symbol: req.symbol,
        decimals: req.decimals,
        initialSupply: req.initial_supply,
        owner: req.owner,
      });
      return { contract_id: contractId, block_id: id, block_height: height };
    },
    'devnet.snapshot': async () => ({ id: await developer.snapshot() }),
    'devnet.revert': async (r) => {
      const { id } = r;
      const block = await developer.revert(id);
      return { block_id: block.id, block_height: block.height };
    },
    'devnet.reset': async (r) => {
      const req = r;
      const chainId = await developer.reset({
        genesisSeed: req.genesis_seed === '' ? undefined : req.genesis_seed,
        accounts: req.accounts === 0 ? undefined : req.accounts,
        initialBalance: req.initial_balance === 0n ? undefined : req.initial_balance,
      });
      return { chain_id: chainId };
    },
  };
}
