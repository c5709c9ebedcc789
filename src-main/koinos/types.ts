// TypeScript shapes of the protocol messages the code handles directly, as the codec decodes them
// (snake_case keys, bigint for 64-bit integers, Uint8Array for bytes, defaults filled in).

export interface TransactionHeader {
  chain_id: Uint8Array;
  rc_limit: bigint;
  nonce: Uint8Array;
  operation_merkle_root: Uint8Array;
  payer: Uint8Array;
  payee: Uint8Array;
}

export interface CallContractOperation {
  contract_id: Uint8Array;
  entry_point: number;
  args: Uint8Array;
}

export interface UploadContractOperation {
  contract_id: Uint8Array;
  bytecode: Uint8Array;
  abi: string;
  authorizes_call_contract: boolean;
  authorizes_transaction_application: boolean;
  authorizes_upload_contract: boolean;
}

export interface SetSystemCallOperation {
  call_id: number;
  target?: { thunk_id?: number; system_call_bundle?: { contract_id: Uint8Array; entry_point: number } };
}

export interface SetSystemContractOperation {
  contract_id: Uint8Array;
  system_contract: boolean;
}

/** Exactly one member is set. */
export interface Operation {
  upload_contract?: UploadContractOperation;
  call_contract?: CallContractOperation;
  set_system_call?: SetSystemCallOperation;
  set_system_contract?: SetSystemContractOperation;
}

export interface Transaction {
  id: Uint8Array;
  header?: TransactionHeader;
  operations: Operation[];
  signatures: Uint8Array[];
}

export interface ObjectSpace {
  system: boolean;
  zone: Uint8Array;
  id: number;
}

export interface StateDeltaEntry {
  object_space?: ObjectSpace;
  key: Uint8Array;
  /** Absent means the object was deleted. */
  value?: Uint8Array;
}

export interface EventData {
  sequence: number;
  source: Uint8Array;
  name: string;
  data: Uint8Array;
  impacted: Uint8Array[];
}

export interface TransactionReceipt {
  id: Uint8Array;
  payer: Uint8Array;
  max_payer_rc: bigint;
  rc_limit: bigint;
  rc_used: bigint;
  disk_storage_used: bigint;
  network_bandwidth_used: bigint;
  compute_bandwidth_used: bigint;
  reverted: boolean;
  events: EventData[];
  logs: string[];
  state_delta_entries: StateDeltaEntry[];
}

export interface BlockHeader {
  previous: Uint8Array;
  height: bigint;
  timestamp: bigint;
  previous_state_merkle_root: Uint8Array;
  transaction_merkle_root: Uint8Array;
  signer: Uint8Array;
  approved_proposals: Uint8Array[];
}

export interface Block {
  id: Uint8Array;
  header?: BlockHeader;
  transactions: Transaction[];
  signature: Uint8Array;
}

export interface BlockReceipt {
  id: Uint8Array;
  height: bigint;
  disk_storage_used: bigint;
  network_bandwidth_used: bigint;
  compute_bandwidth_used: bigint;
  state_merkle_root: Uint8Array;
  events: EventData[];
  transaction_receipts: TransactionReceipt[];
  logs: string[];
  disk_storage_charged: bigint;
  network_bandwidth_charged: bigint;
  compute_bandwidth_charged: bigint;
  state_delta_entries: StateDeltaEntry[];
}

/** Protobuf type names used across the code. */
export const TYPES = {
  transaction: 'koinos.protocol.transaction',
  transactionHeader: 'koinos.protocol.transaction_header',
  operation: 'koinos.protocol.operation',
  transactionReceipt: 'koinos.protocol.transaction_receipt',
  block: 'koinos.protocol.block',
  blockHeader: 'koinos.protocol.block_header',
  blockReceipt: 'koinos.protocol.block_receipt',
  eventData: 'koinos.protocol.event_data',
  valueType: 'koinos.chain.value_type',
  genesisData: 'koinos.chain.genesis_data',
} as const;
