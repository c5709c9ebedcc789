// What sending a token needs before anything is signed, shared by Send and by the offline export: the recipient and
// the amount checked, who pays the mana, and the chain ID, nonce (the sender's) and mana (the payer's) fetched now.
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { formatAmount, parseAmount } from '../../koinos/amounts.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { KOIN_METHODS } from '../../koinos/koin.ts';
import { nonceToBytes } from '../../koinos/transaction.ts';
import type { Operation, Transaction } from '../../koinos/types.ts';
import type { NetworkInfo, TokenInfo } from './types.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { manaRefillText } from './dashboard.ts';
import { tokenBalance, type TokenService } from './tokens.ts';
import { authorizesByContract, checkPayerChoice, freeManaSharerOf, sharerTerms, type PayerChoice, type SharerOverrides } from './payer.ts';

/** A transfer as the services take it: the account by its address (the shells map account ids to addresses). */
export interface TransferRequest {
  /** Absent: the selected network. */
  networkId?: string;
  from: string;
  to: string;
  /** `koin`, `vhp` or a token contract address. */
  token: string;
  /** Decimal amount in the token's units, as typed ("1.5"). */
  amount: string;
  /** Mana limit set by hand (base units, decimal string); absent: automatic. */
  rcLimit?: string;
  /** Who pays the mana; absent: the sender. */
  payer?: PayerChoice;
}

/** Who pays a planned transfer's mana. */
export interface PayerPlan {
  /** `self`: the sender; `account`: another account, which signs too; `sharer`: a contract (the free mana sharer) that approves through its own `authorize`. */
  kind: 'self' | 'account' | 'sharer';
  address: string;
  bytes: Uint8Array;
  /** Added to an rc_limit sized by a dry run: the sharer's recommended_mana_offset (Kondor does the same); 0 for an account. */
  offset: bigint;
}

export interface TransferPlan {
  network: NetworkInfo;
  node: KoinosNode;
  token: TokenInfo;
  from: string;
  fromBytes: Uint8Array;
  to: string;
  amount: bigint;
  chainId: Uint8Array;
  nonce: bigint;
  /** The nonce the chain stored for the account (a dry run, which skips the mempool, must use this plus one). */
  confirmedNonce: bigint;
  /** Who pays the mana. */
  payer: PayerPlan;
  /** The accounts whose signatures the transaction needs: the sender, and a payer account (not a contract payer). */
  signers: string[];
  /** The payer's mana now (the node's figure). */
  mana: bigint;
  /** The payer's mana not held by pending transactions (and within the sharer's cap): what rc_limit may use. */
  availableMana: bigint;
  balance: bigint;
  /** rc_limit set by hand, checked against the available mana. */
  rcLimitByHand?: bigint;
  /** The payer's KOIN balance, which is its maximum mana (read when asked: only a shortage needs it). */
  maxMana(): Promise<bigint>;
  /** The transaction with every header field but rc_limit, unsigned. */
  unsigned(rcLimit: bigint, nonce?: bigint): Transaction;
}

export interface TransferDeps {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  /** Where the free mana sharer is on networks the wallet cannot find it by itself (network id → address). */
  sharers?: SharerOverrides;
}

/**
 * Checks the recipient (checksum; not the sender) before asking the node anything.
 * @throws WalletError INVALID_ADDRESS.
 */
export function checkRecipient(from: string, to: string): { to: string; toBytes: Uint8Array } {
  if (typeof to !== 'string' || to.trim() === '') throw new WalletError('INVALID_ADDRESS', 'expected the recipient\'s address, got nothing');
  let toBytes: Uint8Array;
  try {
    toBytes = addressFromString(to.trim());
  } catch (cause) {
    const reason = cause instanceof WalletError ? cause.shortMessage : describe(cause);
    throw new WalletError('INVALID_ADDRESS', `The recipient is not a valid Koinos address (${reason}). Check it, or paste it again.`, { cause });
  }
  const text = bytesToJson(toBytes, BTYPE.ADDRESS);
  if (text === from) throw new WalletError('INVALID_ADDRESS', 'The recipient is the sending account itself; a token cannot be sent to its own sender. Choose another recipient.');
  return { to: text, toBytes };
}

function parseRcLimit(text: string | undefined): bigint | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,20}$/.test(text.trim())) throw new WalletError('INVALID_AMOUNT', `expected the mana limit as a whole number of base units, got ${describe(text)}`);
  const value = BigInt(text.trim());
  if (value === 0n) throw new WalletError('INVALID_AMOUNT', 'expected a mana limit above 0, got 0: the chain refuses a transaction that may use no mana');
  return value;
}

/**
 * A NOT_ENOUGH_MANA error whose hint carries the figures: "0.41 mana needed, 0.12 available, full again in about 2 h".
 * @example
 * throw notEnoughMana('Send less.', { needed: 41_000_000n, available: 12_000_000n, current: 12_000_000n, max: 100_000_000n });
 */
export function notEnoughMana(
  message: string,
  figures: { needed: bigint; available: bigint; current: bigint; max: bigint },
  cause?: WalletError,
): WalletError {
  const line = `${formatAmount(figures.needed)} mana needed, ${formatAmount(figures.available)} available, ${manaRefillText(figures.current, figures.max)}.`;
  return new WalletError('NOT_ENOUGH_MANA', message, {
    metaMessages: [line.charAt(0).toUpperCase() + line.slice(1)],
    ...(cause ? { details: cause.details ?? cause.shortMessage, cause } : {}),
  });
}

/** Who pays: the sender, another account, or a contract that approves by itself (the sharer), with its terms. */
async function resolvePayer(
  deps: TransferDeps,
  network: NetworkInfo,
  node: KoinosNode,
  from: string,
  choice: PayerChoice | undefined,
): Promise<{ payer: PayerPlan; cap?: bigint; sharerMana?: bigint }> {
  const checked = choice ? checkPayerChoice(choice, from) : undefined;
  if (!checked || (checked.kind === 'account' && checked.address === from)) {
    return { payer: { kind: 'self', address: from, bytes: addressFromString(from), offset: 0n } };
  }
  // A contract payer (`--payer` naming the sharer) approves through its authorize entry point, within its terms.
  if (checked.kind === 'account' && !(await authorizesByContract(node, addressFromString(checked.address)))) {
    return { payer: { kind: 'account', address: checked.address, bytes: addressFromString(checked.address), offset: 0n } };
  }
  const sharer = checked.kind === 'account' ? checked.address : await freeManaSharerOf(network, node, deps.sharers);
  if (sharer === undefined) {
    throw new WalletError('INVALID_ARGUMENT', `${network.name} has no free mana sharer the wallet knows of. Choose another account of this wallet to pay the mana.`);
  }
  const terms = await sharerTerms(node, sharer);
  return { payer: { kind: 'sharer', address: terms.address, bytes: terms.bytes, offset: terms.offset }, cap: terms.cap, sharerMana: terms.mana };
}

/** What to do when the payer cannot pay: the sender can ask another payer; a payer can be replaced. */
function noManaAdvice(payer: PayerPlan): string {
  switch (payer.kind) {
    case 'self':
      return 'Choose another account of this wallet or the network\'s free mana sharer to pay the mana, or wait for mana to regenerate.';
    case 'account':
      return `Choose another payer than ${payer.address}, or wait for its mana to regenerate.`;
    case 'sharer':
      return 'Choose another account of this wallet to pay the mana, or wait for the sharer\'s mana to regenerate.';
  }
}

/** What the node says of a sender and its payer now, with this wallet's own pending transactions counted in. */
export interface AccountNow {
  chainId: Uint8Array;
  /** The nonce the chain stored for the sender (a dry run, which skips the mempool, must use this plus one). */
  confirmedNonce: bigint;
  /** The nonce a new transaction takes: one above the highest of the stored nonce, the node's pending nonce and this wallet's own pending transactions. */
  nonce: bigint;
  /** The sender's mana (the node's figure). */
  senderMana: bigint;
  /** What pending transactions hold of the payer's mana: the node's figure where it gives one, else this wallet's own count. */
  held: bigint;
}

/**
 * Chain ID, nonce and mana for a new transaction of `from` paid by `payer` (the sender itself, or another), read at once:
 * what every review the wallet prepares starts from (a token transfer here, an NFT transfer in nftTransfer.ts).
 * @throws node errors.
 */
export async function readAccountNow(
  node: KoinosNode,
  pending: PendingTransactions,
  networkId: string,
  from: { address: string; bytes: Uint8Array },
  payer: { address: string; bytes: Uint8Array },
): Promise<AccountNow> {
  const [chainId, confirmed, nodePending, senderMana, reserved] = await Promise.all([
    node.chainId(),
    node.nonce(from.bytes),
    node.pendingNonce(from.bytes),
    node.rc(from.bytes),
    node.reservedRc(payer.bytes),
  ]);
  const ownPending = pending.highestNonce(networkId, from.address);
  let highest = confirmed;
  if (nodePending !== undefined && nodePending > highest) highest = nodePending;
  if (ownPending !== undefined && ownPending > highest) highest = ownPending;
  return { chainId, confirmedNonce: confirmed, nonce: highest + 1n, senderMana, held: reserved ?? pending.heldMana(networkId, payer.address) };
}

/**
 * An unsigned transaction of `operations` (id and merkle root empty: prepareTransaction fills them). With a payer other
 * than the sender, the sender is the payee: its nonce is used and it signs; the payer's mana is spent.
 */
export function unsignedTransaction(
  header: { chainId: Uint8Array; rcLimit: bigint; nonce: bigint; payer: Uint8Array; payee?: Uint8Array },
  operations: Operation[],
): Transaction {
  return {
    id: new Uint8Array(),
    header: {
      chain_id: header.chainId,
      rc_limit: header.rcLimit,
      nonce: nonceToBytes(header.nonce),
      operation_merkle_root: new Uint8Array(),
      payer: header.payer,
      payee: header.payee ?? new Uint8Array(),
    },
    operations,
    signatures: [],
  };
}

/**
 * Checks a transfer and fetches what signing needs: chain ID, nonce (the highest of the node's confirmed nonce, its
 * pending nonce and this wallet's own pending transactions of the sender, plus one), the payer's mana and balances.
 * @throws WalletError INVALID_ADDRESS, INVALID_AMOUNT, INVALID_ARGUMENT (no free mana sharer on the network),
 *   INSUFFICIENT_BALANCE, NOT_ENOUGH_MANA, and node errors.
 */
export async function planTransfer(deps: TransferDeps, request: TransferRequest): Promise<TransferPlan> {
  const fromBytes = addressFromString(request.from);
  const from = bytesToJson(fromBytes, BTYPE.ADDRESS);
  const { to, toBytes } = checkRecipient(from, request.to);
  const rcLimitByHand = parseRcLimit(request.rcLimit);
  const { network, node } = await deps.networks.node(request.networkId);
  const token = await deps.tokens.resolve(network.id, request.token);
  const amount = parseAmount(request.amount, token.decimals);
  if (amount === 0n) throw new WalletError('INVALID_AMOUNT', `expected an amount above 0 ${token.symbol}, got ${describe(request.amount)}`);
  const { payer, cap, sharerMana } = await resolvePayer(deps, network, node, from, request.payer);
  const self = payer.kind === 'self';

  const [now, payerMana, balance] = await Promise.all([
    readAccountNow(node, deps.pending, network.id, { address: from, bytes: fromBytes }, payer),
    sharerMana !== undefined ? Promise.resolve(sharerMana) : self ? undefined : node.rc(payer.bytes),
    tokenBalance(node, token, fromBytes),
  ]);
  const { chainId, nonce, senderMana } = now;
  const mana = payerMana ?? senderMana;
  await deps.networks.observeChainId(network.id, chainId);
  const unheld = mana > now.held ? mana - now.held : 0n;
  const availableMana = cap !== undefined && cap < unheld ? cap : unheld;

  if (amount > balance) {
    throw new WalletError(
      'INSUFFICIENT_BALANCE',
      `The amount ${formatAmount(amount, token.decimals)} ${token.symbol} is more than the balance of ${formatAmount(balance, token.decimals)} ${token.symbol}. Send at most the balance.`,
    );
  }
  const maxMana = async (): Promise<bigint> =>
    self && token.system === 'koin' ? balance : tokenBalance(node, await deps.tokens.resolve(network.id, 'koin'), payer.bytes);
  // The KOIN contract itself refuses to move KOIN whose mana the sender used, whoever pays for the transaction.
  if (token.system === 'koin' && amount > senderMana) {
    throw notEnoughMana(
      `Only KOIN whose mana is unused can be sent: the account has ${formatAmount(senderMana)} mana for ${formatAmount(amount)} KOIN. Send less, or wait for mana to regenerate.`,
      { needed: amount, available: senderMana, current: senderMana, max: balance },
    );
  }
  const who = self ? 'The account' : payer.kind === 'sharer' ? 'The free mana sharer' : `The payer ${payer.address}`;
  if (availableMana === 0n) {
    throw notEnoughMana(
      `${who} has no mana left for a transaction (${formatAmount(mana)} mana, all held by pending transactions or used). ${noManaAdvice(payer)}`,
      { needed: 1n, available: 0n, current: mana, max: await maxMana() },
    );
  }
  if (rcLimitByHand !== undefined && rcLimitByHand > availableMana) {
    const whose = payer.kind === 'sharer' ? 'the free mana sharer pays for now (its cap included)' : self ? 'the account has available' : 'the payer has available';
    throw notEnoughMana(`The mana limit ${formatAmount(rcLimitByHand)} is more than the ${formatAmount(availableMana)} mana ${whose}. Lower it.`, {
      needed: rcLimitByHand,
      available: availableMana,
      current: mana,
      max: await maxMana(),
    });
  }

  const operation = {
    call_contract: {
      contract_id: addressFromString(token.contract),
      entry_point: KOIN_METHODS.transfer.entryPoint,
      args: encode(KOIN_METHODS.transfer.argsType, { from: fromBytes, to: toBytes, value: amount }),
    },
  };
  return {
    network,
    node,
    token,
    from,
    fromBytes,
    to,
    amount,
    chainId,
    nonce,
    confirmedNonce: now.confirmedNonce,
    payer,
    signers: payer.kind === 'account' ? [from, payer.address] : [from],
    mana,
    availableMana,
    balance,
    ...(rcLimitByHand !== undefined ? { rcLimitByHand } : {}),
    maxMana,
    unsigned: (rcLimit: bigint, nonceOverride?: bigint) =>
      unsignedTransaction({ chainId, rcLimit, nonce: nonceOverride ?? nonce, payer: payer.bytes, ...(self ? {} : { payee: fromBytes }) }, [operation]),
  };
}
