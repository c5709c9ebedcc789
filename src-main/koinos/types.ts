// Short names for the protocol messages the code handles directly (their shapes are generated from proto/ into
// generated/messages.ts, as the codec decodes them), the node methods' request and response types, and type names.

import type {
  ProtocolBlock,
  ProtocolBlockHeader,
  ProtocolBlockReceipt,
  ProtocolCallContractOperation,
  ProtocolEventData,
  ProtocolOperation,
  ProtocolSetSystemCallOperation,
  ProtocolSetSystemContractOperation,
  ProtocolTransaction,
  ProtocolTransactionHeader,
  ProtocolTransactionReceipt,
  ProtocolUploadContractOperation,
  ChainObjectSpace,
  ProtocolStateDeltaEntry,
  MessageMap,
  RpcMethods,
} from './generated/messages.ts';

export type TransactionHeader = ProtocolTransactionHeader;
export type CallContractOperation = ProtocolCallContractOperation;
export type UploadContractOperation = ProtocolUploadContractOperation;
export type SetSystemCallOperation = ProtocolSetSystemCallOperation;
export type SetSystemContractOperation = ProtocolSetSystemContractOperation;
/** Exactly one member is set. */
export type Operation = ProtocolOperation;
export type Transaction = ProtocolTransaction;
export type ObjectSpace = ChainObjectSpace;
/** `value` absent means the object was deleted. */
export type StateDeltaEntry = ProtocolStateDeltaEntry;
export type EventData = ProtocolEventData;
export type TransactionReceipt = ProtocolTransactionReceipt;
export type BlockHeader = ProtocolBlockHeader;
export type Block = ProtocolBlock;
export type BlockReceipt = ProtocolBlockReceipt;

/** A node method, `service.method` (`chain.get_account_rc`): every koinos.rpc method with a request and a response. */
export type RpcMethod = keyof RpcMethods;
/** The request message of a node method, as decoded (every scalar present). */
export type RpcRequest<M extends RpcMethod> = MessageMap[RpcMethods[M]['request']];
/** The response message of a node method, as decoded (every scalar present). */
export type RpcResponse<M extends RpcMethod> = MessageMap[RpcMethods[M]['response']];

/** The protobuf type of a node method's request: `koinos.rpc.<service>.<method>_request`. */
export function rpcRequestType<M extends RpcMethod>(method: M): RpcMethods[M]['request'] {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_request` as RpcMethods[M]['request'];
}

/** The protobuf type of a node method's response: `koinos.rpc.<service>.<method>_response`. */
export function rpcResponseType<M extends RpcMethod>(method: M): RpcMethods[M]['response'] {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_response` as RpcMethods[M]['response'];
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
