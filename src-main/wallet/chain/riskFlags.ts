// The one risk assessment behind every review (send, offline signing, the approval queue, the CLI's `tx decode` and
// its signing commands): what in a transaction a person must look at twice, each with a name for `--allow-risk`.
import { lookalikeAmong } from '../../koinos/address.ts';
import { BTYPE, bytesToJson, decode } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { KNOWN_TOKEN_CONTRACTS, type KnownNetwork } from '../../koinos/knownContracts.ts';
import { koinMethodByEntryPoint, type TokenMethod } from '../../koinos/koin.ts';
import type { CallContractOperation, Transaction } from '../../koinos/types.ts';
import { KCS5_ABI } from './kcs5.ts';
import type { KnownAddress, NetworkInfo, RiskCode, RiskFlag } from './types.ts';

/** What the transaction alone does not tell: who signs, what this network's known contracts are, and its chain ID. */
export interface RiskContext {
  /**
   * The addresses (base58) that sign or will sign. For a transaction whose signer is not known yet (an offline
   * review), its payer and payee: the accounts the chain makes sign it.
   */
  signers: readonly string[];
  /** Contract addresses (base58) this network is known to hold: its tokens (KOIN, VHP, added ones) and system contracts. */
  knownContracts: readonly string[];
  /** Contracts whose ABI the caller has, so that their arguments are shown decoded (the CLI's `contract call`). */
  contractsWithAbi?: readonly string[];
  /** True when the network's chain ID differs from the one last seen on it (a restart, or another network). */
  chainIdChanged?: boolean;
  /**
   * The chain ID (base64) of the network the transaction is reviewed on, when the transaction is made for another chain
   * that none of this wallet's networks was seen with (an offline signature while another network is selected).
   */
  otherChain?: string;
  /**
   * The addresses the person knows on this network (the wallet's accounts, contacts and the recipients it sent to): a
   * token or NFT transfer to an address that looks like one of them ({@link lookalikeAmong}) and is none of them is flagged.
   * Absent: nothing is compared (a review that shows the resemblance its own way, the CLI).
   */
  knownAddresses?: readonly KnownAddress[];
}

/** The order flags are listed in: what takes an account over first. */
const ORDER: readonly RiskCode[] = [
  'REPLACES_ACCOUNT',
  'UPLOAD_CONTRACT',
  'SET_SYSTEM_CONTRACT',
  'SET_SYSTEM_CALL',
  'CHAIN_ID_CHANGED',
  'OTHER_CHAIN',
  'LOOKALIKE_RECIPIENT',
  'TOKEN_ALLOWANCE',
  'NFT_ALLOWANCE',
  'UNKNOWN_CONTRACT',
  'NO_ABI',
  'SELF_TRANSFER',
];

/** The `--allow-risk` name of each code: its kebab case. A record, so that the compiler fails when a code is left out. */
export const RISK_NAMES: Readonly<Record<RiskCode, string>> = {
  UPLOAD_CONTRACT: 'upload-contract',
  REPLACES_ACCOUNT: 'replaces-account',
  SET_SYSTEM_CALL: 'set-system-call',
  SET_SYSTEM_CONTRACT: 'set-system-contract',
  NO_ABI: 'no-abi',
  SELF_TRANSFER: 'self-transfer',
  TOKEN_ALLOWANCE: 'token-allowance',
  NFT_ALLOWANCE: 'nft-allowance',
  UNKNOWN_CONTRACT: 'unknown-contract',
  CHAIN_ID_CHANGED: 'chain-id-changed',
  OTHER_CHAIN: 'other-chain',
  LOOKALIKE_RECIPIENT: 'lookalike-recipient',
};

const CODE_BY_NAME = new Map(Object.entries(RISK_NAMES).map(([code, name]) => [name, code as RiskCode]));

/** Every `--allow-risk` name, in the order flags are listed. */
export const RISK_NAME_LIST: readonly string[] = ORDER.map((code) => RISK_NAMES[code]);

/**
 * The risk code of an `--allow-risk` name.
 * @throws WalletError INVALID_ARGUMENT naming the valid names.
 * @example
 * riskCodeOf('upload-contract'); // 'UPLOAD_CONTRACT'
 */
export function riskCodeOf(name: string): RiskCode {
  const code = CODE_BY_NAME.get(name);
  if (!code) {
    const shown = name.length > 40 ? `${name.length} characters` : JSON.stringify(name);
    throw new WalletError(
      'INVALID_ARGUMENT',
      `--allow-risk: expected one of ${RISK_NAME_LIST.join(', ')}, got ${shown}`,
    );
  }
  return code;
}

/**
 * The KCS-4 token method a call's entry point names, with its arguments, when they decode as that method's. The same
 * rule `decodeOperation` shows operations by, so that "cannot be decoded" means what the review shows.
 */
export function tokenCall(
  call: CallContractOperation,
): { method: TokenMethod; args: Record<string, unknown> } | undefined {
  const method = koinMethodByEntryPoint(call.entry_point);
  if (!method) return undefined;
  // Read as any message: callers look at fields by name, across the methods.
  const argsType: string = method.argsType;
  try {
    return { method, args: decode(argsType, call.args) };
  } catch {
    return undefined;
  }
}

const KNOWN_NETWORK: Readonly<Record<NetworkInfo['kind'], KnownNetwork | undefined>> = {
  local: 'devnet',
  testnet: 'testnet',
  mainnet: 'mainnet',
  custom: undefined,
};

/**
 * The token contracts a wallet knows on a network without asking it (KOIN and VHP of knownContracts.ts) plus the given
 * ones. `kind` absent (no network chosen, as on an offline computer): those of every known network; `custom`: none.
 * @example
 * knownContractsOf('mainnet', tokens.map((t) => t.contract)); // ['15DJN4a8…', '18tWNU7E…', …tokens]
 */
export function knownContractsOf(kind: NetworkInfo['kind'] | undefined, extra: readonly string[] = []): string[] {
  const network = kind === undefined ? undefined : KNOWN_NETWORK[kind];
  const fixed = KNOWN_TOKEN_CONTRACTS.filter((c) => kind === undefined || c.network === network).map((c) => c.address);
  return [...new Set([...fixed, ...extra])];
}

/**
 * What a call grants over NFTs, when its arguments decode as a collection's (KCS-5) `approve` of one token or
 * `set_approval_for_all`, and it grants (an `approve: false` or `approved: false` takes a grant back): the operator
 * (base58), and the token id or every token. Undefined for any other call, a KCS-4 token's approve included (the same
 * entry point, a value where KCS-5 has a token id, which does not decode as the other).
 */
function nftGrant(call: CallContractOperation): { operator: string; owner?: string; tokenId?: string } | undefined {
  const method = KCS5_ABI.methodByEntryPoint(call.entry_point);
  if (method?.name !== 'approve' && method?.name !== 'set_approval_for_all') return undefined;
  let args: Record<string, unknown>;
  try {
    args = KCS5_ABI.decodeArguments(method, call.args);
  } catch {
    return undefined;
  }
  const { operator, owner } = args;
  if (typeof operator !== 'string' || operator === '') return undefined;
  const owned = typeof owner === 'string' && owner !== '' ? { owner } : {};
  if (method.name === 'set_approval_for_all') return args['approved'] === true ? { operator, ...owned } : undefined;
  // KCS-5's `approve` is optional and means a grant when absent.
  if (args['approve'] === false || typeof args['token_id'] !== 'string') return undefined;
  return { operator, tokenId: args['token_id'], ...owned };
}

/**
 * The recipient (base58) of a call whose arguments decode as a token's `transfer` (`decoded`) or, failing that, as an
 * NFT collection's (KCS-5: the same entry point, a token id instead of a value); undefined for any other call.
 */
function transferRecipient(call: CallContractOperation, decoded: ReturnType<typeof tokenCall>): string | undefined {
  let to: unknown;
  if (decoded) {
    if (decoded.method.name !== 'transfer') return undefined;
    to = decoded.args['to'] instanceof Uint8Array ? bytesToJson(decoded.args['to'], BTYPE.ADDRESS) : undefined;
  } else {
    const method = KCS5_ABI.methodByEntryPoint(call.entry_point);
    if (method?.name !== 'transfer') return undefined;
    try {
      to = KCS5_ABI.decodeArguments(method, call.args)['to'];
    } catch {
      return undefined;
    }
  }
  return typeof to === 'string' && to !== '' ? to : undefined;
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * Everything in `tx` a person must confirm explicitly before it is signed, at most one flag per code (its message
 * names every operation concerned, addresses in full), listed account takeovers first. Pure: the same transaction
 * and context give the same flags in every review.
 * - `upload_contract`: UPLOAD_CONTRACT; also REPLACES_ACCOUNT when the contract id is a signer's own address.
 * - `set_system_call`, `set_system_contract`: SET_SYSTEM_CALL, SET_SYSTEM_CONTRACT (governance operations).
 * - a call to a contract not in `knownContracts`: UNKNOWN_CONTRACT.
 * - a call whose arguments do not decode as a token method, to a contract not in `contractsWithAbi`: NO_ABI.
 * - a token `transfer` from a signer to that same signer: SELF_TRANSFER.
 * - a token or NFT `transfer` to an address that is none of `knownAddresses` but looks like one: LOOKALIKE_RECIPIENT.
 * - a token `approve` of more than 0 to a spender that does not sign: TOKEN_ALLOWANCE (the drainer's way in: the
 *   spender takes the tokens later, with no signature of the owner).
 * - an NFT collection's `approve` or `set_approval_for_all` granting an operator that does not sign: NFT_ALLOWANCE.
 * - `context.chainIdChanged`: CHAIN_ID_CHANGED.
 * - `context.otherChain`: OTHER_CHAIN, naming the transaction's chain and the network's.
 * @example
 * const risks = assessRisks(tx, { signers: [payer], knownContracts: knownContractsOf('mainnet') });
 * risks.map((r) => r.name); // ['replaces-account', 'upload-contract'] for an upload over the payer's address
 */
export function assessRisks(tx: Transaction, context: RiskContext): RiskFlag[] {
  const signers = new Set(context.signers);
  const knownContracts = new Set(context.knownContracts);
  const withAbi = new Set(context.contractsWithAbi ?? []);
  const knownAddresses = context.knownAddresses ?? [];
  const found = new Map<RiskCode, string[]>();
  const add = (code: RiskCode, item: string) => {
    const items = found.get(code) ?? [];
    if (!items.includes(item)) items.push(item);
    found.set(code, items);
  };
  const address = (bytes: Uint8Array) => (bytes.length > 0 ? bytesToJson(bytes, BTYPE.ADDRESS) : '(no address)');

  for (const op of tx.operations) {
    if (op.upload_contract) {
      const id = address(op.upload_contract.contract_id);
      add('UPLOAD_CONTRACT', id);
      if (signers.has(id)) add('REPLACES_ACCOUNT', id);
    }
    if (op.set_system_call) add('SET_SYSTEM_CALL', String(op.set_system_call.call_id));
    if (op.set_system_contract)
      add(
        'SET_SYSTEM_CONTRACT',
        `${address(op.set_system_contract.contract_id)} (${op.set_system_contract.system_contract ? 'made' : 'no longer'} a system contract)`,
      );
    const call = op.call_contract;
    if (!call) continue;
    const contract = address(call.contract_id);
    if (!knownContracts.has(contract)) add('UNKNOWN_CONTRACT', contract);
    const decoded = tokenCall(call);
    if (!decoded && !withAbi.has(contract)) add('NO_ABI', `${contract} (entry point ${call.entry_point})`);
    if (decoded?.method.name === 'transfer') {
      // From a signer to that same signer: nothing changes hands. A transfer to a signer from another account (a
      // payer receiving, a pull with an allowance) moves tokens and is not flagged.
      const { from, to } = decoded.args;
      if (
        to instanceof Uint8Array &&
        from instanceof Uint8Array &&
        to.length > 0 &&
        address(to) === address(from) &&
        signers.has(address(to))
      )
        add('SELF_TRANSFER', address(to));
    }
    const recipient = transferRecipient(call, decoded);
    const like = recipient === undefined ? undefined : lookalikeAmong(knownAddresses, recipient);
    if (like) add('LOOKALIKE_RECIPIENT', `${recipient}, not ${like.label} (${like.address})`);
    const grant = decoded ? undefined : nftGrant(call);
    if (grant && !signers.has(grant.operator))
      add(
        'NFT_ALLOWANCE',
        `${grant.operator} (${grant.tokenId === undefined ? 'every NFT' : `NFT ${grant.tokenId}`} of ${contract}${grant.owner ? ` held by ${grant.owner}` : ''})`,
      );
    if (decoded?.method.name === 'approve') {
      const { owner, spender, value } = decoded.args;
      if (spender instanceof Uint8Array && !signers.has(address(spender)) && value !== 0n)
        add(
          'TOKEN_ALLOWANCE',
          `${address(spender)} (tokens of ${contract}${owner instanceof Uint8Array ? ` held by ${address(owner)}` : ''})`,
        );
    }
  }
  if (context.chainIdChanged) found.set('CHAIN_ID_CHANGED', []);
  if (context.otherChain !== undefined) {
    found.set('OTHER_CHAIN', [bytesToJson(tx.header!.chain_id, BTYPE.BASE64), context.otherChain]);
  }

  return ORDER.filter((code) => found.has(code)).map((code) => ({
    code,
    name: RISK_NAMES[code],
    message: riskMessage(code, found.get(code)!),
  }));
}

function riskMessage(code: RiskCode, items: string[]): string {
  const s = items.length > 1 ? 's' : '';
  switch (code) {
    case 'REPLACES_ACCOUNT':
      return `It uploads contract code over ${list(items)}, the signer's own account: this replaces this account with contract code, which from then on decides what happens to its tokens and mana.`;
    case 'UPLOAD_CONTRACT':
      return `It uploads contract code to ${list(items)}: that code runs at th${items.length > 1 ? 'ese addresses' : 'is address'} from then on.`;
    case 'SET_SYSTEM_CONTRACT':
      return `It changes which contracts are system contracts (${list(items)}): a governance operation that gives a contract the chain's own authority.`;
    case 'SET_SYSTEM_CALL':
      return `It replaces the chain's system call${s} ${list(items)}: a governance operation that changes how every transaction runs.`;
    case 'CHAIN_ID_CHANGED':
      return "The network's chain ID changed since the wallet last saw it (it was restarted, or another network answers at the same address): check that this is the network you mean.";
    case 'OTHER_CHAIN':
      return `It is made for chain ${items[0]}, which none of this wallet's networks was seen with, not for ${items[1]}, the chain of the network it is reviewed on: check that it is for the network you mean, as its signature is valid only there.`;
    case 'UNKNOWN_CONTRACT':
      return `It calls ${list(items)}, ${items.length > 1 ? 'contracts that are' : 'a contract that is'} neither a known token nor a system contract of this network: check what ${items.length > 1 ? 'they do' : 'it does'} before signing.`;
    case 'NO_ABI':
      return `Its call${s} to ${list(items)} ha${items.length > 1 ? 've' : 's'} arguments that cannot be decoded without the contract's ABI: they are shown as bytes, so what ${items.length > 1 ? 'they do' : 'it does'} cannot be checked here.`;
    case 'NFT_ALLOWANCE':
      return `It lets ${list(items)} transfer NFTs later without another signature: sign only if you trust ${items.length > 1 ? 'these accounts' : 'this account'} with them. A grant of every NFT covers the ones the account receives later too.`;
    case 'TOKEN_ALLOWANCE':
      return `It lets ${list(items)} take tokens later without another signature (an allowance): sign only if you trust ${items.length > 1 ? 'these accounts' : 'this account'} with them.`;
    case 'LOOKALIKE_RECIPIENT':
      return `It transfers to ${list(items)}: ${items.length > 1 ? 'addresses that begin' : 'an address that begins'} and end${items.length > 1 ? '' : 's'} like one you know but ${items.length > 1 ? 'are' : 'is'} another. Addresses are made to look alike to be copied by mistake from a history: compare every character with the address you mean before signing.`;
    case 'SELF_TRANSFER':
      return `It transfers tokens from ${list(items)} to the same address, the signer's own: nothing changes hands, yet it costs mana. Check the recipient.`;
  }
}

/**
 * The flags of `risks` that `allowed` (`--allow-risk` names) does not accept; empty when the transaction may be signed.
 * @throws WalletError INVALID_ARGUMENT for a name that is no risk's name.
 */
export function unacceptedRisks(risks: readonly RiskFlag[], allowed: readonly string[]): RiskFlag[] {
  const accepted = new Set(allowed.map(riskCodeOf));
  return risks.filter((r) => !accepted.has(r.code));
}
