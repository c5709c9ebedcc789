// Helpers of the devnet's HTTP tests: JSON-RPC and REST calls over real HTTP, and signed KOIN transfers built with the
// project's protocol library.
import { expect } from 'vitest';
import { concatBytes, fromBase64, toBase58, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { sha256 } from '../../src-main/koinos/hash.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { privateKeyFromWif } from '../../src-main/koinos/keys.ts';
import { decodeKoinResult, encodeKoinArgs, KOIN_METHODS, koinOperation } from '../../src-main/koinos/koin.ts';
import { nonceFromBytes, nonceToBytes, signTransaction, transactionToJson } from '../../src-main/koinos/transaction.ts';
import type { Operation, Transaction } from '../../src-main/koinos/types.ts';
import type { JsonObject } from '../../src-main/koinos/codec.ts';
import type { Devnet } from '../../src-main/devnet/server/startDevnet.ts';

export interface RpcAnswer {
  status: number;
  body: any;
}

let nextId = 1;

/** Sends one JSON-RPC request (POST `${url}/jsonrpc` unless `path` says otherwise) and returns status and parsed body. */
export async function rpcRaw(
  url: string,
  body: unknown,
  init: { path?: string; headers?: Record<string, string> } = {},
): Promise<RpcAnswer> {
  const response = await fetch(`${url}${init.path ?? '/jsonrpc'}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, body: await response.json() };
}

/** Calls a method and returns its `result`; fails the test on an error envelope. */
export async function rpc(url: string, method: string, params: unknown = {}): Promise<any> {
  const id = nextId++;
  const { status, body } = await rpcRaw(url, { jsonrpc: '2.0', id, method, params });
  expect(status).toBe(200);
  expect(body.error, `${method}: ${JSON.stringify(body.error)}`).toBeUndefined();
  expect(body.id).toBe(id);
  return body.result;
}

/** Calls a method that must fail; returns the error object `{code, message, data?}` after checking the envelope. */
export async function rpcError(
  url: string,
  method: string,
  params: unknown = {},
): Promise<{ code: number; message: string; data?: string }> {
  const id = nextId++;
  const { status, body } = await rpcRaw(url, { jsonrpc: '2.0', id, method, params });
  expect(status).toBe(200);
  expect(body.result, `${method} should fail`).toBeUndefined();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(id);
  return body.error;
}

/** GET (or another method) on the REST API; returns status and parsed body. */
export async function rest(url: string, path: string, init: RequestInit = {}): Promise<RpcAnswer> {
  const response = await fetch(`${url}${path}`, init);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  return { status: response.status, body: await response.json() };
}

/** A valid address with one character changed, so that its checksum no longer matches. */
export function corruptAddress(address: string): string {
  const last = address.at(-1)!;
  return address.slice(0, -1) + (last === '2' ? '3' : '2');
}

/**
 * Texts that base58-decode but are no Koinos address, each with the reason the devnet gives: the wrong length, a
 * checksum that does not match, and a version byte other than 0x00 (with a correct checksum).
 */
export function invalidAddresses(valid: string): { text: string; reason: RegExp }[] {
  const body = addressFromString(valid).slice(0, 21);
  body[0] = 0x05;
  const versioned = toBase58(concatBytes(body, sha256(sha256(body)).slice(0, 4)));
  return [
    { text: 'notanaddress', reason: /^expected an address of 25 bytes, got 9$/ },
    {
      text: corruptAddress(valid),
      reason:
        /^the address checksum does not match: a character is mistyped \(expected checksum [0-9a-f]{8}, got [0-9a-f]{8}\)$/,
    },
    { text: versioned, reason: /^expected the address version byte 0x00, got 0x05$/ },
  ];
}

/**
 * Asserts the text of an invalid-address error as the library's strict reader words it: `lead` (such as "parameters
 * could not be parsed: "), the field path, then the reason (`header.payer: the address checksum does not match: …`).
 */
export function expectAddressError(
  actual: string | undefined,
  lead: string,
  path: string,
  _text: string,
  reason: RegExp,
): void {
  const prefix = `${lead}${path}: `;
  expect(actual?.startsWith(prefix), `${actual} should start with ${prefix}`).toBe(true);
  expect(actual!.slice(prefix.length)).toMatch(reason);
}

export interface TransferInput {
  chainId: string;
  koinAddress: string;
  fromWif: string;
  from: string;
  to: string;
  value: bigint;
  nonce: bigint;
  rcLimit?: bigint;
}

/** A signed KOIN transfer, built and signed with the project's protocol library. */
export function signedTransfer(input: TransferInput): Transaction {
  const header = {
    chain_id: fromBase64(input.chainId),
    rc_limit: input.rcLimit ?? 100_000_000n,
    nonce: nonceToBytes(input.nonce),
    operation_merkle_root: new Uint8Array(0),
    payer: addressFromString(input.from),
    payee: new Uint8Array(0),
  };
  const op = koinOperation(addressFromString(input.koinAddress), 'transfer', {
    from: addressFromString(input.from),
    to: addressFromString(input.to),
    value: input.value,
  });
  return signTransaction(
    { id: new Uint8Array(0), header, operations: [op], signatures: [] },
    privateKeyFromWif(input.fromWif).privateKey,
  );
}

/** The JSON of a signed transfer from dev account `from` (index) to dev account `to` (index) on `devnet`. */
export function transferJson(
  devnet: Devnet,
  from: number,
  to: number,
  value: bigint,
  nonce: bigint,
  rcLimit?: bigint,
): JsonObject {
  const sender = devnet.accounts[from]!;
  return transactionToJson(
    signedTransfer({
      chainId: devnet.chainId,
      koinAddress: devnet.koinAddress,
      fromWif: sender.wif,
      from: sender.address,
      to: devnet.accounts[to]!.address,
      value,
      nonce,
      rcLimit,
    }),
  );
}

/**
 * A transaction of `operations` signed by development account `from` (index) of `devnet`, with the next nonce the node
 * gives the account and rc_limit 10 KOIN, as gateway JSON.
 */
export async function signedOperationsJson(devnet: Devnet, from: number, operations: Operation[]): Promise<JsonObject> {
  const account = devnet.accounts[from]!;
  const header = {
    chain_id: fromBase64(devnet.chainId),
    rc_limit: 1_000_000_000n,
    nonce: nonceToBytes(await nextNonce(devnet.url, account.address)),
    operation_merkle_root: new Uint8Array(0),
    payer: addressFromString(account.address),
    payee: new Uint8Array(0),
  };
  return transactionToJson(
    signTransaction(
      { id: new Uint8Array(0), header, operations, signatures: [] },
      privateKeyFromWif(account.wif).privateKey,
    ),
  );
}

/** The next nonce of an account, read over JSON-RPC the way a client does (current nonce + 1). */
export async function nextNonce(url: string, address: string): Promise<bigint> {
  const { nonce } = await rpc(url, 'chain.get_account_nonce', { account: address });
  return nonceFromBytes(fromBase64(nonce ?? 'KAA=')) + 1n;
}

/** KOIN balance (base units) of an address, read with chain.read_contract over JSON-RPC. */
export async function koinBalance(url: string, koinAddress: string, owner: string): Promise<bigint> {
  const { result } = await rpc(url, 'chain.read_contract', {
    contract_id: koinAddress,
    entry_point: KOIN_METHODS.balance_of.entryPoint,
    args: toBase64Url(encodeKoinArgs('balance_of', { owner: addressFromString(owner) })),
  });
  return decodeKoinResult('balance_of', result ? fromBase64(result) : new Uint8Array(0)).value;
}
