// What a transaction must hold before anyone signs it: a header with chain id, nonce, rc_limit and a valid payer, and
// for calls to a known system token (KOIN, VHP), arguments with valid addresses and a transfer's from, to and value.
// A signature makes a mistake final (the nonce and the mana are spent even when the call reverts), so this refuses.
import { assertAddressBytes } from './address.ts';
import { addressFieldPaths, decode } from './codec.ts';
import { WalletError, causeText } from './errors.ts';
import { KOIN_METHODS, koinMethodByEntryPoint } from './koin.ts';
import { knownTokenContract } from './knownContracts.ts';
import type { Transaction } from './types.ts';

function refuse(message: string, hint?: string): never {
  throw new WalletError('INVALID_TRANSACTION', message, { metaMessages: hint ? [hint] : [] });
}

/** Checks one ADDRESS field's bytes; `required` fields must be present. */
function checkAddressField(bytes: unknown, path: string, required: boolean): void {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    if (required) refuse(`${path}: expected an address, got none`);
    return;
  }
  try {
    assertAddressBytes(bytes);
  } catch (cause) {
    if (!(cause instanceof WalletError)) throw cause;
    throw new WalletError('INVALID_TRANSACTION', `${path}: ${cause.shortMessage}`, {
      metaMessages: cause.metaMessages,
      cause,
    });
  }
}

/** Checks the arguments of a call to a known system token, when its entry point is a method the library knows. */
function checkTokenCall(call: { contract_id: Uint8Array; entry_point: number; args: Uint8Array }, path: string): void {
  const method = koinMethodByEntryPoint(call.entry_point);
  if (!method) return;
  let args: Record<string, unknown>;
  // Read as any message: the checks below look at fields by name, across the methods.
  const argsType: string = method.argsType;
  try {
    args = decode(argsType, call.args);
  } catch (cause) {
    const reason = causeText(cause);
    throw new WalletError(
      'INVALID_TRANSACTION',
      `${path}.args: expected the arguments of ${method.name}, got bytes that do not decode (${reason})`,
      { cause },
    );
  }
  const isTransfer = method.entryPoint === KOIN_METHODS.transfer.entryPoint;
  for (const fields of addressFieldPaths(method.argsType)) {
    if (fields.length !== 1) continue; // token arguments are flat
    const name = fields[0]!;
    checkAddressField(args[name], `${path}.args.${name}`, isTransfer && (name === 'from' || name === 'to'));
  }
  if (isTransfer && args.value === 0n) {
    refuse(
      `${path}.args.value: expected a transfer value above 0, got none`,
      'A transfer of 0 still spends the nonce and mana.',
    );
  }
}

/**
 * Refuses a transaction that must not be signed: no header; no chain_id, nonce or rc_limit; no payer or a payer (or
 * payee) that is not a valid address; a call to a known KOIN or VHP contract whose address arguments are invalid, or a
 * transfer without `from`, `to` or `value`.
 * @throws WalletError INVALID_TRANSACTION naming the field ("header.payer: expected an address, got none").
 * @example
 * assertReadyToSign(tx); // passes, or throws before anything is signed
 */
export function assertReadyToSign(tx: Transaction): void {
  const header = tx.header;
  if (!header) refuse('expected a transaction with a header, got one without');
  const missing = [
    header.chain_id.length === 0 && 'chain_id',
    header.nonce.length === 0 && 'nonce',
    header.rc_limit === 0n && 'rc_limit',
  ].filter(Boolean);
  if (missing.length > 0) {
    refuse(
      `expected a transaction header with chain_id, nonce and rc_limit set, got none for ${missing.join(', ')}`,
      'Fetch the chain ID and the account nonce from the node, and choose rc_limit, before signing.',
    );
  }
  checkAddressField(header.payer, 'header.payer', true);
  checkAddressField(header.payee, 'header.payee', false);
  tx.operations.forEach((op, i) => {
    const call = op.call_contract;
    if (call && knownTokenContract(call.contract_id)) checkTokenCall(call, `operations[${i}].call_contract`);
  });
}
