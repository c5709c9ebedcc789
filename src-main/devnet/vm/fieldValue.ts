// get_transaction_field / get_block_field (koinos-chain proto_utils.cpp get_nested_field_value): a dotted field path
// of the transaction or block, answered as a koinos.chain.value_type - scalars in their own kind, messages packed in
// an Any, repeated fields as a packed list_type.
import { encode } from '../../koinos/codec.ts';
import { ChainError } from '../state/chainError.ts';

type Kind = 'bytes' | 'uint64' | 'uint32' | { message: string };

interface Field {
  kind: Kind;
  repeated?: boolean;
}

const P = 'koinos.protocol.';

/** The fields of the protocol messages a path can walk (koinos/protocol/protocol.proto). */
const SCHEMA: Record<string, Record<string, Field>> = {
  [`${P}transaction`]: {
    id: { kind: 'bytes' },
    header: { kind: { message: `${P}transaction_header` } },
    operations: { kind: { message: `${P}operation` }, repeated: true },
    signatures: { kind: 'bytes', repeated: true },
  },
  [`${P}transaction_header`]: {
    chain_id: { kind: 'bytes' },
    rc_limit: { kind: 'uint64' },
    nonce: { kind: 'bytes' },
    operation_merkle_root: { kind: 'bytes' },
    payer: { kind: 'bytes' },
    payee: { kind: 'bytes' },
  },
  [`${P}block`]: {
    id: { kind: 'bytes' },
    header: { kind: { message: `${P}block_header` } },
    transactions: { kind: { message: `${P}transaction` }, repeated: true },
    signature: { kind: 'bytes' },
  },
  [`${P}block_header`]: {
    previous: { kind: 'bytes' },
    height: { kind: 'uint64' },
    timestamp: { kind: 'uint64' },
    previous_state_merkle_root: { kind: 'bytes' },
    transaction_merkle_root: { kind: 'bytes' },
    signer: { kind: 'bytes' },
    approved_proposals: { kind: 'bytes', repeated: true },
  },
};

const EMPTY = new Uint8Array(0);

function any(type: string, value: object): { type_url: string; value: Uint8Array } {
  return { type_url: `type.googleapis.com/${type}`, value: encode(type, value) };
}

function single(kind: Kind, value: unknown): Record<string, unknown> {
  if (kind === 'bytes') return { bytes_value: (value as Uint8Array | undefined) ?? EMPTY };
  if (kind === 'uint64') return { uint64_value: (value as bigint | undefined) ?? 0n };
  if (kind === 'uint32') return { uint32_value: (value as number | undefined) ?? 0 };
  return { message_value: any(kind.message, (value as object | undefined) ?? {}) };
}

/**
 * The value_type of `path` in `message` of protobuf type `type`.
 * @throws ChainError field_not_found (-100) for a path the message does not have.
 */
export function fieldValue(type: string, message: object, path: string): Record<string, unknown> {
  let currentType = type;
  let current: Record<string, unknown> = message as Record<string, unknown>;
  const segments = path.split('.');
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i]!;
    const field = SCHEMA[currentType]?.[name];
    if (!field) throw new ChainError(-100, `unable to find field ${name}`);
    const value = current[name];
    if (i < segments.length - 1) {
      if (typeof field.kind !== 'object' || field.repeated)
        throw new ChainError(-100, 'expected nested field to be within a message');
      currentType = field.kind.message;
      current = (value as Record<string, unknown> | undefined) ?? {};
      continue;
    }
    if (field.repeated) {
      const values = ((value as unknown[] | undefined) ?? []).map((v) => single(field.kind, v));
      return { message_value: any('koinos.chain.list_type', { values }) };
    }
    return single(field.kind, value);
  }
  throw new ChainError(-100, 'unable to find field ');
}
