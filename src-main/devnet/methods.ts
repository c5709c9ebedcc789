// The one list of methods the devnet service answers (`service.method`), and the request and response message of
// each: the node's handler table is a Record over this list, so the compiler ties every name to its handler and
// every handler to its messages (generated from proto/, koinos/generated/messages.ts).
import type { MessageInput } from '../koinos/codec.ts';
import { rpcRequestType, rpcResponseType, type RpcMethod, type RpcRequest, type RpcResponse } from '../koinos/types.ts';

/** Every method the service answers, as `service.method`. */
export const NODE_METHODS = [
  'chain.submit_transaction',
  'chain.submit_block',
  'chain.get_head_info',
  'chain.get_chain_id',
  'chain.get_fork_heads',
  'chain.read_contract',
  'chain.get_account_nonce',
  'chain.get_account_rc',
  'chain.get_resource_limits',
  'chain.invoke_system_call',
  'chain.propose_block',
  'block_store.get_blocks_by_id',
  'block_store.get_blocks_by_height',
  'block_store.get_highest_block',
  'transaction_store.get_transactions_by_id',
  'contract_meta_store.get_contract_meta',
  'mempool.check_pending_account_resources',
  'mempool.get_pending_transactions',
  'mempool.check_account_nonce',
  'mempool.get_reserved_account_rc',
  'mempool.get_pending_nonce',
  'mempool.get_pending_transaction_count',
  'mempool.get_pending_transactions_by_id',
  'account_history.get_account_history',
  'devnet.produce_block',
  'devnet.produce_blocks',
  'devnet.advance_time',
  'devnet.set_balance',
  'devnet.create_token',
  'devnet.snapshot',
  'devnet.revert',
  'devnet.reset',
] as const satisfies readonly RpcMethod[];

export type NodeMethod = (typeof NODE_METHODS)[number];

/** A method's request as a handler reads it: decoded, every scalar present (`koinos.rpc.<service>.<method>_request`). */
export type NodeRequest<M extends NodeMethod> = RpcRequest<M>;
/** A method's response as the node answers it (`koinos.rpc.<service>.<method>_response`). */
export type NodeResponse<M extends NodeMethod> = RpcResponse<M>;
/**
 * What a caller of the node may send for a method: its request message, any field left out (then the default). A
 * decoded request is one (named in the union so that generic code needs no proof of it).
 */
export type NodeRequestInput<M extends NodeMethod> = NodeRequest<M> | MessageInput<NodeRequest<M>>;
/**
 * What the node answers for a method: its response message, where a field at its default may be left out (the
 * handlers build answers by hand; encoding and JSON rendering omit defaults anyway). Read an absent field as its default.
 */
export type NodeAnswer<M extends NodeMethod> = MessageInput<NodeResponse<M>>;

const METHOD_SET: ReadonlySet<string> = new Set(NODE_METHODS);

/** True when `name` is a method the devnet answers (for names read off the wire). */
export function isNodeMethod(name: string): name is NodeMethod {
  return METHOD_SET.has(name);
}

/** The developer methods (`devnet.*`): only the devnet has them. */
export const DEVELOPER_METHODS = NODE_METHODS.filter((m) => m.startsWith('devnet.'));

/** Protobuf type of a method's request: `koinos.rpc.<service>.<method>_request`. */
export const requestType = rpcRequestType;

/** Protobuf type of a method's response: `koinos.rpc.<service>.<method>_response`. */
export const responseType = rpcResponseType;
