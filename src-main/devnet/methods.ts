// The one list of methods the devnet service answers (`service.method`), and the request and response message of
// each: the node's handler table is a Record over this list, so the compiler ties every name to its handler.

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
] as const;

export type NodeMethod = (typeof NODE_METHODS)[number];

/** The developer methods (`devnet.*`): only the devnet has them. */
export const DEVELOPER_METHODS = NODE_METHODS.filter((m) => m.startsWith('devnet.'));

/** Protobuf type of a method's request: `koinos.rpc.<service>.<method>_request`. */
export function requestType(method: string): string {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_request`;
}

/** Protobuf type of a method's response: `koinos.rpc.<service>.<method>_response`. */
export function responseType(method: string): string {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_response`;
}
