// The argument and result message of each system call the devnet answers itself (koinos-chain's thunks, and the
// devnet's native answers where mainnet has a genesis override), by system call name. The host (hostApi.ts) reads it
// to decode arguments and encode results; the chain's own nested calls (`systemCall`) take their types from it, so a
// call's arguments and result are checked against its messages. A call without an entry takes and answers nothing.
import type { MessageInput, MessageMap, MessageType } from '../../koinos/codec.ts';
import type { SystemCallName } from './systemCallIds.ts';

/** A system call's messages: argument and result type names (none for an empty message). */
export interface SystemCallMessages {
  args?: MessageType;
  result?: MessageType;
}

const M = 'koinos.chain.';
const NS = 'koinos.contracts.name_service.';

/** The messages of each system call that has any. */
const SYSTEM_CALL_MESSAGES = {
  get_head_info: { result: `${M}get_head_info_result` },
  get_chain_id: { result: `${M}get_chain_id_result` },
  process_block_signature: { args: `${M}process_block_signature_arguments`, result: `${M}bool_result` },
  get_transaction: { result: `${M}get_transaction_result` },
  get_transaction_field: { args: `${M}get_transaction_field_arguments`, result: `${M}get_transaction_field_result` },
  get_block: { result: `${M}get_block_result` },
  get_block_field: { args: `${M}get_block_field_arguments`, result: `${M}get_block_field_result` },
  get_last_irreversible_block: { result: `${M}get_last_irreversible_block_result` },
  get_account_nonce: { args: `${M}get_account_nonce_arguments`, result: `${M}get_account_nonce_result` },
  verify_account_nonce: { args: `${M}verify_account_nonce_arguments`, result: `${M}bool_result` },
  set_account_nonce: { args: `${M}set_account_nonce_arguments` },
  check_system_authority: { result: `${M}check_system_authority_result` },
  get_operation: { result: `${M}get_operation_result` },
  get_account_rc: { args: `${M}get_account_rc_arguments`, result: `${M}get_account_rc_result` },
  consume_account_rc: { args: `${M}consume_account_rc_arguments`, result: `${M}bool_result` },
  get_resource_limits: { result: `${M}get_resource_limits_result` },
  consume_block_resources: { args: `${M}consume_block_resources_arguments`, result: `${M}bool_result` },
  put_object: { args: `${M}put_object_arguments` },
  remove_object: { args: `${M}object_arguments` },
  get_object: { args: `${M}object_arguments`, result: `${M}database_object_result` },
  get_next_object: { args: `${M}object_arguments`, result: `${M}database_object_result` },
  get_prev_object: { args: `${M}object_arguments`, result: `${M}database_object_result` },
  log: { args: `${M}log_arguments` },
  event: { args: `${M}event_arguments` },
  hash: { args: `${M}hash_arguments`, result: `${M}bytes_result` },
  recover_public_key: { args: `${M}recover_public_key_arguments`, result: `${M}bytes_result` },
  verify_merkle_root: { args: `${M}verify_merkle_root_arguments`, result: `${M}bool_result` },
  verify_signature: { args: `${M}verify_signature_arguments`, result: `${M}bool_result` },
  verify_vrf_proof: { args: `${M}verify_vrf_proof_arguments`, result: `${M}bool_result` },
  call: { args: `${M}call_arguments`, result: `${M}bytes_result` },
  exit: { args: `${M}exit_arguments` },
  get_arguments: { result: `${M}get_arguments_result` },
  get_contract_id: { result: `${M}bytes_result` },
  get_caller: { result: `${M}get_caller_result` },
  check_authority: { args: `${M}check_authority_arguments`, result: `${M}bool_result` },
  // The devnet's native answers (no thunk in koinos-chain; a genesis override on mainnet).
  get_contract_metadata: { args: `${M}get_contract_metadata_arguments`, result: `${M}get_contract_metadata_result` },
  get_contract_name: { args: `${NS}get_name_arguments`, result: `${NS}get_name_result` },
  get_contract_address: { args: `${NS}get_address_arguments`, result: `${NS}get_address_result` },
} satisfies Partial<Record<SystemCallName, SystemCallMessages>>;

const BY_NAME: Partial<Record<SystemCallName, SystemCallMessages>> = SYSTEM_CALL_MESSAGES;

/** The messages of system call `name`; undefined when it takes and answers nothing. */
export function systemCallMessages(name: SystemCallName): SystemCallMessages | undefined {
  return BY_NAME[name];
}

type Table = typeof SYSTEM_CALL_MESSAGES;
/** An empty message: a call without arguments is given `{}`. */
type Empty = Record<string, never>;

/** What a nested call of `N` is given: its argument message, any field left out (then the default). */
export type SystemCallArgs<N extends SystemCallName> = N extends keyof Table
  ? Table[N] extends { args: infer A extends MessageType }
    ? MessageInput<MessageMap[A]>
    : Empty
  : Empty;

/**
 * What a nested call of `N` answers: its result message, where a field may be left out (a thunk builds its answer by
 * hand; an override's is decoded). Read an absent field as its default.
 */
export type SystemCallResult<N extends SystemCallName> = N extends keyof Table
  ? Table[N] extends { result: infer R extends MessageType }
    ? MessageInput<MessageMap[R]>
    : Empty
  : Empty;
