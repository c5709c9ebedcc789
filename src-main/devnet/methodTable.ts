// The one method table of the devnet service: each `service.method` the node answers, its request normalized through
// the method's protobuf type, and the reader, mempool, developer method or submission that answers it. A Record over
// NODE_METHODS (methods.ts), so a method without a handler, or a stray one, does not compile.
import { toHex } from '../koinos/bytes.ts';
import { decode, encode, type ProtoMessage } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { nonceToBytes } from '../koinos/transaction.ts';
import { nonceBytesOf } from './chain/applyTransaction.ts';
import type { Mempool } from './chain/mempool.ts';
import { pendingTransaction, type ChainReader } from './chainReader.ts';
import { KOIN } from './contracts/registry.ts';
import type { DeveloperMethods } from './developerMethods.ts';
import { requestType, type NodeMethod } from './methods.ts';
import { failure } from './state/chainError.ts';
import { RESOURCE_LIMITS } from './state/resources.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** Request limit of the real mempool (facts §7.2). */
const MAX_PENDING_REQUEST = 2000n;

/** The handler of one method: a decoded request in, a decoded response out. */
export type Handler = (request: ProtoMessage) => Promise<ProtoMessage> | ProtoMessage;

/** What the table answers with: the node's reads, its mempool, its developer methods and its submission. */
export interface MethodTableDeps {
  reader: ChainReader;
  mempool: Mempool;
  developer: DeveloperMethods;
  /** chain.submit_transaction: recovers the signatures, then accepts the transaction on the node's queue. */
  submitTransaction(request: ProtoMessage): Promise<ProtoMessage>;
}

/** Decodes a request through its canonical bytes: checks field types and fills every default. */
function normalize<T = ProtoMessage>(method: string, request: object): T {
  const type = requestType(method);
  return decode<T>(type, encode(type, request));
}

/** The one handler table: a Record over NODE_METHODS, so a method without a handler (or a stray one) does not compile. */
export function makeHandlers({ reader, mempool, developer, submitTransaction }: MethodTableDeps): Record<NodeMethod, Handler> {
  const notSupported = (method: string) => () => {
    throw failure(`${method} is not supported by the devnet: it produces its own blocks (use devnet.produce_block)`);
  };
  return {
    'chain.submit_transaction': (r) => submitTransaction(r),
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
    'chain.read_contract': (r) => reader.readContract(normalize('chain.read_contract', r)),
    'chain.get_account_nonce': (r) => {
      const { account } = normalize<{ account: Uint8Array }>('chain.get_account_nonce', r);
      return { nonce: nonceBytesOf(reader.committed, account) };
    },
    'chain.get_account_rc': (r) => {
      const { account } = normalize<{ account: Uint8Array }>('chain.get_account_rc', r);
      return { rc: KOIN.accountRc(reader.headView(), account, reader.head.timestamp) };
    },
    'chain.get_resource_limits': () => ({ resource_limit_data: { ...RESOURCE_LIMITS } }),
    'chain.invoke_system_call': (r) => reader.invokeSystemCall(normalize('chain.invoke_system_call', r)),
    'contract_meta_store.get_contract_meta': (r) => reader.contractMeta(normalize('contract_meta_store.get_contract_meta', r)),
    'block_store.get_blocks_by_id': (r) =>
      reader.blocksById(normalize<{ block_ids: Uint8Array[]; return_block: boolean; return_receipt: boolean }>('block_store.get_blocks_by_id', r)),
    'block_store.get_blocks_by_height': (r) =>
      reader.blocksByHeight(
        normalize<{
          head_block_id: Uint8Array;
          ancestor_start_height: bigint;
          num_blocks: number;
          return_block: boolean;
          return_receipt: boolean;
        }>('block_store.get_blocks_by_height', r),
      ),
    'block_store.get_highest_block': () => ({ topology: reader.headTopology() }),
    'transaction_store.get_transactions_by_id': (r) => {
      const { transaction_ids: ids } = normalize<{ transaction_ids: Uint8Array[] }>('transaction_store.get_transactions_by_id', r);
      return reader.transactionsById(ids);
    },
    'mempool.check_pending_account_resources': (r) => {
      const req = normalize<{ payer: Uint8Array; max_payer_rc: bigint; rc_limit: bigint }>('mempool.check_pending_account_resources', r);
      return { success: mempool.checkPendingAccountResources(req.payer, req.max_payer_rc, req.rc_limit) };
    },
    'mempool.get_pending_transactions': (r) => {
      const { limit } = normalize<{ limit: bigint }>('mempool.get_pending_transactions', r);
      if (limit > MAX_PENDING_REQUEST) throw new WalletError('INVALID_ARGUMENT', `requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`);
      return { pending_transactions: mempool.list(Number(limit)).map((e) => pendingTransaction(e)) }; // limit <= 2000
    },
    'mempool.check_account_nonce': (r) => {
      const req = normalize<{ payee: Uint8Array; nonce: Uint8Array }>('mempool.check_account_nonce', r);
      let nonce = 0n;
      try {
        nonce = decode<{ uint64_value?: bigint }>('koinos.chain.value_type', req.nonce).uint64_value ?? 0n;
      } catch {
        throw new WalletError('INVALID_ARGUMENT', 'nonce is not a serialized value_type');
      }
      return { success: mempool.checkAccountNonce(req.payee, nonce) };
    },
    'mempool.get_reserved_account_rc': (r) => {
      const { account } = normalize<{ account: Uint8Array }>('mempool.get_reserved_account_rc', r);
      return { rc: mempool.reservedRc(account) };
    },
    'mempool.get_pending_nonce': (r) => {
      const { payee } = normalize<{ payee: Uint8Array }>('mempool.get_pending_nonce', r);
      const nonce = mempool.pendingNonce(payee);
      return { nonce: nonce === undefined ? EMPTY : nonceToBytes(nonce) };
    },
    'mempool.get_pending_transaction_count': (r) => {
      const { payee } = normalize<{ payee: Uint8Array }>('mempool.get_pending_transaction_count', r);
      return { count: BigInt(mempool.pendingCount(payee)) };
    },
    'mempool.get_pending_transactions_by_id': (r) => {
      const { transaction_ids: ids } = normalize<{ transaction_ids: Uint8Array[] }>('mempool.get_pending_transactions_by_id', r);
      if (BigInt(ids.length) > MAX_PENDING_REQUEST) throw new WalletError('INVALID_ARGUMENT', `requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`);
      const found = ids.map((id) => mempool.get(toHex(id))).filter((e) => e !== undefined);
      return { pending_transactions: found.map((e) => pendingTransaction(e)) };
    },
    'account_history.get_account_history': (r) => reader.accountHistory(normalize('account_history.get_account_history', r)),
    'devnet.produce_block': async () => {
      const { id, height } = await developer.produceBlock();
      return { block_id: id, block_height: height };
    },
    'devnet.produce_blocks': async (r) => {
      const req = normalize<{ count: number; interval_ms: bigint }>('devnet.produce_blocks', r);
      if (req.interval_ms > 86_400_000n * 366n) throw new WalletError('INVALID_ARGUMENT', `interval_ms: expected at most a year of milliseconds, got ${req.interval_ms}`);
      const { id, height } = await developer.produceBlocks(req.count, Number(req.interval_ms));
      return { block_id: id, block_height: height };
    },
    'devnet.advance_time': async (r) => {
      const { milliseconds } = normalize<{ milliseconds: bigint }>('devnet.advance_time', r);
      if (milliseconds === 0n || milliseconds > 86_400_000n * 36_600n) {
        throw new WalletError('INVALID_ARGUMENT', `milliseconds: expected 1 to 3,162,240,000,000 (a century), got ${milliseconds}`);
      }
      const { id, height, timestamp } = await developer.advanceTime(Number(milliseconds));
      return { block_id: id, block_height: height, head_block_time: timestamp };
    },
    'devnet.set_balance': async (r) => {
      const req = normalize<{ contract_id: Uint8Array; account: Uint8Array; value: bigint }>('devnet.set_balance', r);
      const { id, height } = await developer.setBalance({ contract: req.contract_id, account: req.account, value: req.value });
      return { block_id: id, block_height: height };
    },
    'devnet.create_token': async (r) => {
      const req = normalize<{ name: string; symbol: string; decimals: number; initial_supply: bigint; owner: Uint8Array }>('devnet.create_token', r);
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
      const { id } = normalize<{ id: bigint }>('devnet.revert', r);
      const block = await developer.revert(id);
      return { block_id: block.id, block_height: block.height };
    },
    'devnet.reset': async (r) => {
      const req = normalize<{ genesis_seed: string; accounts: number; initial_balance: bigint }>('devnet.reset', r);
      const chainId = await developer.reset({
        genesisSeed: req.genesis_seed === '' ? undefined : req.genesis_seed,
        accounts: req.accounts === 0 ? undefined : req.accounts,
        initialBalance: req.initial_balance === 0n ? undefined : req.initial_balance,
      });
      return { chain_id: chainId };
    },
  };
}
