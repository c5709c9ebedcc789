// The REST routes of koinos-rest about contracts (facts §9.2): /v1/contract/{id} with its ABI, metadata and calls by
// method name, /v1/decode/{operations,events} and /v1/transaction/prepare. They read the
// contract's ABI from contract_meta_store, as koinos-rest does, and call the node like any client. Arguments and
// results use the types of the contract's own ABI (contractAbi.ts), so uploaded contracts work as the built-in ones.
import {
  BTYPE,
  bytesToJson,
  decode,
  encode,
  fromJson,
  toJson,
  type JsonValue,
  type ProtoMessage,
} from '../../koinos/codec.ts';
import { fromBase64, toBase64Url } from '../../koinos/bytes.ts';
import { WalletError, describe, causeText } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { contractAbiOf, type AbiMethod, type ContractAbi } from '../../koinos/contractAbi.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import { nonceFromBytes, nonceToBytes, prepareTransaction, transactionToJson } from '../../koinos/transaction.ts';
import type { Operation, Transaction } from '../../koinos/types.ts';
import { contractDecoder, type ContractDecoder } from '../../koinos/contractDecoder.ts';

/** A route of the REST table. */
export type Route = {
  method: 'GET' | 'POST';
  pattern: string[];
  run: (params: Record<string, string>, query: URLSearchParams, body: string) => Promise<JsonValue>;
};

/** What the contract routes need from the REST layer. */
export interface ContractRouteDeps {
  rpc(method: string, params: Record<string, unknown>): Promise<ProtoMessage>;
  resolveAddress(text: string, what: 'account' | 'contract_id'): Promise<string>;
  badRequest(message: string): WalletError;
  isSystemToken(contractId: Uint8Array): boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseBody(body: string, what: string): unknown {
  // JSON.parse costs about a second for a megabyte of "[[[[": nesting no message needs is refused unread.
  if (jsonDepth(body) > MAX_JSON_DEPTH)
    throw new WalletError(
      'INVALID_ARGUMENT',
      `invalid request body: expected ${what} as JSON nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`,
    );
  try {
    return JSON.parse(body);
  } catch {
    throw new WalletError('INVALID_ARGUMENT', `invalid request body: expected ${what} as JSON`);
  }
}

/** The contract routes over `deps`. */
export function contractRoutes(deps: ContractRouteDeps): {
  routes: Route[];
  /** A decoder of operations and events with the contracts' ABIs, for one request. */
  decoder(): ContractDecoder;
} {
  const { rpc, resolveAddress, badRequest } = deps;

  async function abiText(contractId: string): Promise<string | undefined> {
    const { meta } = await rpc('contract_meta_store.get_contract_meta', { contract_id: contractId });
    const text = (meta as { abi?: string } | undefined)?.abi;
    return text ? text : undefined;
  }

  /** The contract's parsed ABI (cached by contract id and ABI hash); a 400 naming the problem when it does not parse. */
  async function abiOf(contractId: string): Promise<ContractAbi | undefined> {
    const text = await abiText(contractId);
    if (text === undefined) return undefined;
    try {
      return contractAbiOf(contractId, text);
    } catch (e) {
      throw badRequest(`abi of contract ${contractId} is not usable: ${causeText(e)}`);
    }
  }

  async function requireAbi(contractId: string): Promise<ContractAbi> {
    const abi = await abiOf(contractId);
    if (!abi) throw badRequest(`abi not available for contract ${contractId}`);
    return abi;
  }

  /** The encoded arguments of a method, '' type meaning none. */
  function encodeArgs(abi: ContractAbi, m: AbiMethod, args: ProtoMessage): Uint8Array {
    return m.argument === '' ? new Uint8Array(0) : abi.codec.encode(m.argument, args);
  }

  /** Reads a method through chain.read_contract; its raw result bytes. */
  async function readRaw(
    contractId: string,
    abi: ContractAbi,
    m: AbiMethod,
    args: ProtoMessage = {},
  ): Promise<Uint8Array> {
    const { result } = await rpc('chain.read_contract', {
      contract_id: contractId,
      entry_point: m.entryPoint,
      args: toBase64Url(encodeArgs(abi, m, args)),
    });
    return (result as Uint8Array | undefined) ?? new Uint8Array(0);
  }

  function method(abi: ContractAbi, name: string): AbiMethod {
    const m = abi.methods.get(name);
    if (!m) throw badRequest(`method "${name}" does not exist`);
    return m;
  }

  const decoder = (): ContractDecoder => contractDecoder({ abiText, isSystemToken: deps.isSystemToken });

  /**
   * A call by method name (koinos-rest app/v1/contract/[contract_id]/[method]/route.ts): read-only → the decoded
   * result; otherwise → the operation a client signs (not submitted). Arguments are read with the contract's ABI types.
   */
  async function callByName(p: Record<string, string>, args: unknown): Promise<JsonValue> {
    const id = await resolveAddress(p.contract!, 'contract_id');
    const abi = await requireAbi(id);
    const m = method(abi, p.method!);
    let message: ProtoMessage = {};
    if (m.argument !== '') {
      try {
        message = abi.codec.fromJson(m.argument, args ?? {}, { strict: true, unknownFields: 'discard' }); // the one reader: addresses checked
      } catch (e) {
        throw badRequest(`invalid arguments of ${p.method}: ${causeText(e)}`);
      }
    }
    if (m.readOnly) {
      if (m.return === '') throw badRequest(`method "${m.name}" has no return type in the contract's ABI`);
      return abi.decodeResult(m, await readRaw(id, abi, m, message));
    }
    const op: Operation = {
      call_contract: {
        contract_id: addressFromString(id),
        entry_point: m.entryPoint,
        args: encodeArgs(abi, m, message),
      },
    };
    return toJson('koinos.protocol.operation', op);
  }

  /**
   * GET arguments from the query string as koinos-rest reads them (qs with allowDots): `owner=…&limit=10`, nested
   * fields with dots (`a.b=1`). Values stay text (the codec reads integers from decimal text), but true and false.
   */
  function queryArgs(query: URLSearchParams): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    for (const [key, value] of query) {
      const path = key.split('.');
      if (path.length > 8 || path.some((part) => part === '' || part === '__proto__'))
        throw badRequest(`invalid argument name: ${describe(key)}`);
      let scope = args;
      for (const part of path.slice(0, -1)) {
        const next = scope[part];
        scope = (scope[part] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
      }
      scope[path.at(-1)!] = value === 'true' ? true : value === 'false' ? false : value;
    }
    return args;
  }

  /** Decodes operations with the ABIs of their contracts (koinos-rest utils/operations.ts decodeOperations). */
  async function decodeOperations(body: string): Promise<JsonValue> {
    const input = parseBody(body, 'an array of operations');
    if (!Array.isArray(input))
      throw badRequest(`invalid request body: expected an array of operations, got ${describe(input)}`);
    const ops = input.map((item, i) => {
      try {
        return fromJson('koinos.protocol.operation', item);
      } catch (e) {
        throw badRequest(`invalid operation [${i}]: ${causeText(e)}`);
      }
    });
    const d = decoder();
    return Promise.all(ops.map((op) => d.operation(op)));
  }

  /** Decodes events with the ABIs of their source contracts (koinos-rest utils/events.ts decodeEvents). */
  async function decodeEvents(body: string): Promise<JsonValue> {
    const input = parseBody(body, 'an array of events');
    if (!Array.isArray(input))
      throw badRequest(`invalid request body: expected an array of events, got ${describe(input)}`);
    const events = input.map((item, i) => {
      try {
        return fromJson('koinos.protocol.event_data', item);
      } catch (e) {
        throw badRequest(`invalid event [${i}]: ${causeText(e)}`);
      }
    });
    const d = decoder();
    return Promise.all(events.map((event) => d.event(event)));
  }

  /** koilib prepareTransaction: chain id, nonce (current + 1), rc_limit (the payer's mana), merkle root and id. */
  async function prepare(body: string): Promise<JsonValue> {
    const input = parseBody(body, 'a transaction');
    if (!isObject(input))
      throw badRequest(`invalid request body: expected a transaction as a JSON object, got ${describe(input)}`);
    let tx: Transaction;
    try {
      tx = fromJson('koinos.protocol.transaction', input, { strict: true, unknownFields: 'discard' }); // addresses checked
    } catch (e) {
      throw badRequest(`invalid transaction: ${causeText(e)}`);
    }
    const header = tx.header;
    if (!header || header.payer.length === 0) throw badRequest('invalid transaction: header.payer is required');
    if (header.chain_id.length === 0) header.chain_id = (await rpc('chain.get_chain_id', {})).chain_id as Uint8Array;
    if (header.nonce.length === 0) {
      const account = bytesToJson(header.payee.length > 0 ? header.payee : header.payer, BTYPE.ADDRESS);
      const { nonce } = await rpc('chain.get_account_nonce', { account });
      const bytes = (nonce as Uint8Array | undefined) ?? new Uint8Array(0);
      header.nonce = nonceToBytes((bytes.length === 0 ? 0n : nonceFromBytes(bytes)) + 1n);
    }
    if (header.rc_limit === 0n) {
      const { rc } = await rpc('chain.get_account_rc', { account: bytesToJson(header.payer, BTYPE.ADDRESS) });
      header.rc_limit = (rc as bigint | undefined) ?? 0n;
    }
    return transactionToJson(prepareTransaction({ ...tx, header }));
  }

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: ['contract', ':contract'],
      run: async (p) => ({ contract_id: await resolveAddress(p.contract!, 'contract_id') }),
    },
    {
      method: 'GET',
      pattern: ['contract', ':contract', 'abi'],
      run: async (p) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        // koinos-rest app/v1/contract/[contract_id]/abi/route.ts: the ABI after fixAbi (koilib_types from `types`).
        return { contract_id: id, abi: (await requireAbi(id)).json };
      },
    },
    {
      method: 'GET',
      pattern: ['contract', ':contract', 'metadata'],
      run: async (p) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        const args = encode('koinos.chain.get_contract_metadata_arguments', { contract_id: addressFromString(id) });
        const { value } = await rpc('chain.invoke_system_call', {
          name: 'get_contract_metadata',
          args: toBase64Url(args),
        });
        const result = decode(
          'koinos.chain.get_contract_metadata_result',
          (value as Uint8Array | undefined) ?? new Uint8Array(0),
        );
        if (!result.value) throw badRequest(`contract ${id} does not exist`);
        const json = toJson('koinos.chain.contract_metadata_object', result.value);
        // koilib renders the hash as hex (btype HEX), as koinos-rest passes it on.
        return {
          contract_id: id,
          ...json,
          hash: `0x${Buffer.from(fromBase64(String(json.hash ?? ''))).toString('hex')}`,
        };
      },
    },
    {
      method: 'GET',
      pattern: ['contract', ':contract', ':method'],
      run: (p, query) => callByName(p, queryArgs(query)),
    },
    {
      method: 'POST',
      pattern: ['contract', ':contract', ':method'],
      run: (p, _q, body) => callByName(p, parseBody(body || '{}', 'the arguments')),
    },
    { method: 'POST', pattern: ['decode', 'operations'], run: (_p, _q, body) => decodeOperations(body) },
    { method: 'POST', pattern: ['decode', 'events'], run: (_p, _q, body) => decodeEvents(body) },
    { method: 'POST', pattern: ['transaction', 'prepare'], run: (_p, _q, body) => prepare(body) },
  ];
  return { routes, decoder };
}
