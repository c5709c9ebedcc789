// Who pays a transaction's mana when it is not the account that sends: another account (which signs too), or the
// network's free mana sharer, a contract that approves through its own `authorize` (Kondor's way: payer = sharer,
// payee = the user, rc_limit within the sharer's cap plus its recommended offset). Also: whose signatures a
// transaction with a payer still needs.
import protobuf from 'protobufjs';
import { BTYPE, bytesToJson, decode, encode } from '../../koinos/codec.ts';
import { addressFromString } from '../../koinos/address.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import type { NetworkInfo } from './types.ts';
import type { KoinosNode } from './koinosNode.ts';

/**
 * The free mana sharers of the public networks (Kondor storage.ts, research notes §1). A devnet started with
 * `--like mainnet|harbinger` deploys it at the same address, which is how the Local network discovers it.
 */
export const FREE_MANA_SHARERS: Readonly<Partial<Record<NetworkInfo['kind'], string>>> = {
  mainnet: '162GhJwsciDiKsgwzj2t6VoFHt3RMzGKdG',
  testnet: '1NDqFZLVJUtuY3FNii8ZAJ4kAiUnESur1n',
};

/** The sharer's default cap on rc_limit (10 mana) when it does not say its own (the koinosbox version has no reads). */
export const DEFAULT_SHARER_CAP = 1_000_000_000n;
/** get_status() → info{1 mana, 2 koin_balance, 3 koin_reserved, 4 available_mana, 5 available_balance, 6 recommended_mana_offset}. */
const GET_STATUS = 0x72cdbfdd;
/** get_rc_limit() → { value: uint64 }: the most rc_limit it pays for. */
const GET_RC_LIMIT = 0xc42b62f8;

/** Who pays, as a request names it: an account (of the wallet, or any address for the CLI), or the free mana sharer. */
export type PayerChoice = { kind: 'account'; address: string } | { kind: 'freeMana' };

/** Where a network's free mana sharer is when the wallet is told (tests, a custom devnet): network id → address. */
export type SharerOverrides = Readonly<Record<string, string>>;

/** What the free mana sharer pays for now. */
export interface SharerTerms {
  address: string;
  bytes: Uint8Array;
  /** Its mana now, as the node reports it. */
  mana: bigint;
  /** The most rc_limit it approves. */
  cap: bigint;
  /** Added to a measured rc_limit, as Kondor does, so that a transaction sized by a dry run still fits. */
  offset: bigint;
}

/** Reads the unsigned varint fields of a message the wallet has no descriptor for (the sharer's own `info`). */
function uintFields(bytes: Uint8Array): Map<number, bigint> {
  const reader = protobuf.Reader.create(bytes);
  const fields = new Map<number, bigint>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) !== 0) {
      reader.skipType(tag & 7);
      continue;
    }
    fields.set(tag >>> 3, BigInt(reader.uint64().toString()));
  }
  return fields;
}

/**
 * Whether the contract at `address` approves transactions through its own `authorize` entry point (uploaded with
 * authorizes_transaction_application): such a payer needs no signature.
 * @throws node errors.
 */
export async function authorizesByContract(node: KoinosNode, address: Uint8Array): Promise<boolean> {
  const args = encode('koinos.chain.get_contract_metadata_arguments', { contract_id: address });
  const { value } = await node.rpc.callMessage('chain.invoke_system_call', { name: 'get_contract_metadata', args });
  const result = decode('koinos.chain.get_contract_metadata_result', value);
  return result.value?.authorizes_transaction_application === true;
}

/**
 * The address of the network's free mana sharer: told (`overrides`), the public network's, or, on a local or custom
 * network, whichever public sharer address holds a contract that authorizes transactions (a devnet `--like` one).
 * Undefined when the network has none.
 */
export async function freeManaSharerOf(
  network: NetworkInfo,
  node: KoinosNode,
  overrides: SharerOverrides = {},
): Promise<string | undefined> {
  const told = overrides[network.id];
  if (told !== undefined) return told;
  const own = FREE_MANA_SHARERS[network.kind];
  if (own !== undefined) return own;
  for (const candidate of Object.values(FREE_MANA_SHARERS)) {
    if (await authorizesByContract(node, addressFromString(candidate)).catch(() => false)) return candidate;
  }
  return undefined;
}

/** A read of the sharer that may not exist (the koinosbox version only authorizes): undefined when it fails. */
async function optionalRead(
  node: KoinosNode,
  contract: Uint8Array,
  entryPoint: number,
): Promise<Map<number, bigint> | undefined> {
  try {
    return uintFields(await node.readContract(contract, entryPoint, new Uint8Array()));
  } catch (error) {
    // A contract without this entry point reverts or is refused; a node that cannot be reached still fails the call.
    if (error instanceof WalletError && (error.code === 'NODE_ERROR' || error.code === 'TRANSACTION_REVERTED'))
      return undefined;
    throw error;
  }
}

/**
 * What the sharer at `address` pays for: its mana (the smaller of the node's figure and its own `available_mana`),
 * its cap (`get_rc_limit`, else 10 mana) and its `recommended_mana_offset` (else 0).
 * @throws WalletError NOT_ENOUGH_MANA when it is not a contract that pays for transactions; node errors.
 */
export async function sharerTerms(node: KoinosNode, address: string): Promise<SharerTerms> {
  const bytes = addressFromString(address);
  if (!(await authorizesByContract(node, bytes))) {
    throw new WalletError(
      'NOT_ENOUGH_MANA',
      `The free mana sharer ${address} is not a contract that pays for transactions on this network. Choose another payer.`,
    );
  }
  const [rc, status, limit] = await Promise.all([
    node.rc(bytes),
    optionalRead(node, bytes, GET_STATUS),
    optionalRead(node, bytes, GET_RC_LIMIT),
  ]);
  const available = status?.get(4);
  return {
    address,
    bytes,
    mana: available !== undefined && available < rc ? available : rc,
    cap: limit?.get(1) ?? DEFAULT_SHARER_CAP,
    offset: status?.get(6) ?? 0n,
  };
}

/**
 * The signatures a transaction still needs: its payer's (unless the payer approves as a contract) and its payee's
 * when it names another one, minus those present.
 * @example
 * signaturesNeeded({ payer: 'A', payee: 'B' }, ['B'], false); // ['A']
 */
export function signaturesNeeded(
  parties: { payer: string; payee?: string },
  present: readonly string[],
  contractPayer: boolean,
): string[] {
  const needed = [
    ...(contractPayer || parties.payer === '' ? [] : [parties.payer]),
    ...(parties.payee && parties.payee !== parties.payer ? [parties.payee] : []),
  ];
  return needed.filter((a) => !present.includes(a));
}

/** The payer and payee of a header as addresses ('' / undefined for empty fields). */
export function partiesOf(header: { payer: Uint8Array; payee: Uint8Array }): { payer: string; payee?: string } {
  return {
    payer: header.payer.length > 0 ? bytesToJson(header.payer, BTYPE.ADDRESS) : '',
    ...(header.payee.length > 0 ? { payee: bytesToJson(header.payee, BTYPE.ADDRESS) } : {}),
  };
}

/** Whether `address` is the free mana sharer of a public network (known without a node). */
export function isKnownSharer(address: string): boolean {
  return Object.values(FREE_MANA_SHARERS).includes(address);
}

/**
 * The payer of a request, checked: an address (not the sender itself) or the free mana sharer.
 * @throws WalletError INVALID_ADDRESS.
 */
export function checkPayerChoice(choice: PayerChoice, from: string): PayerChoice {
  if (choice.kind === 'freeMana') return choice;
  let text: string;
  try {
    text = bytesToJson(addressFromString(choice.address.trim()), BTYPE.ADDRESS);
  } catch (cause) {
    throw new WalletError(
      'INVALID_ADDRESS',
      `The payer is not a valid Koinos address (${cause instanceof WalletError ? cause.shortMessage : describe(cause)}). Choose another payer.`,
      { cause },
    );
  }
  return text === from ? { kind: 'account', address: from } : { kind: 'account', address: text };
}
