// What sending a token needs before anything is signed, shared by Send and by the offline export: the recipient and
// the amount checked, and the chain ID, nonce and mana fetched from the node at this moment.
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { formatAmount, parseAmount } from '../../koinos/amounts.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { KOIN_METHODS } from '../../koinos/koin.ts';
import { nonceToBytes } from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { NetworkInfo, TokenInfo } from '../../ipc/contract.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { manaRefillText } from './dashboard.ts';
import { tokenBalance, type TokenService } from './tokens.ts';

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
  /** The account's mana now (the node's figure). */
  mana: bigint;
  /** Mana not held by pending transactions: what a new transaction's rc_limit may use. */
  availableMana: bigint;
  balance: bigint;
  /** rc_limit set by hand, checked against the available mana. */
  rcLimitByHand?: bigint;
  /** The account's KOIN balance, which is its maximum mana (read when asked: only a shortage needs it). */
  maxMana(): Promise<bigint>;
  /** The transaction with every header field but rc_limit, unsigned. */
  unsigned(rcLimit: bigint, nonce?: bigint): Transaction;
}

export interface TransferDeps {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
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

/**
 * Checks a transfer and fetches what signing needs: chain ID, nonce (the highest of the node's confirmed nonce, its
 * pending nonce and this wallet's own pending transactions, plus one), mana and balances.
 * @throws WalletError INVALID_ADDRESS, INVALID_AMOUNT, INSUFFICIENT_BALANCE, NOT_ENOUGH_MANA, and node errors.
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

  const [chainId, confirmed, nodePending, mana, reserved, balance] = await Promise.all([
    node.chainId(),
    node.nonce(fromBytes),
    node.pendingNonce(fromBytes),
    node.rc(fromBytes),
    node.reservedRc(fromBytes),
    tokenBalance(node, token, fromBytes),
  ]);
  await deps.networks.observeChainId(network.id, chainId);
  const ownPending = deps.pending.highestNonce(network.id, from);
  let highest = confirmed;
  if (nodePending !== undefined && nodePending > highest) highest = nodePending;
  if (ownPending !== undefined && ownPending > highest) highest = ownPending;
  const held = reserved ?? deps.pending.heldMana(network.id, from);
  const availableMana = mana > held ? mana - held : 0n;

  if (amount > balance) {
    throw new WalletError(
      'INSUFFICIENT_BALANCE',
      `The amount ${formatAmount(amount, token.decimals)} ${token.symbol} is more than the balance of ${formatAmount(balance, token.decimals)} ${token.symbol}. Send at most the balance.`,
    );
  }
  const maxMana = async (): Promise<bigint> => (token.system === 'koin' ? balance : tokenBalance(node, await deps.tokens.resolve(network.id, 'koin'), fromBytes));
  if (token.system === 'koin' && amount > mana) {
    throw notEnoughMana(
      `Only KOIN whose mana is unused can be sent: the account has ${formatAmount(mana)} mana for ${formatAmount(amount)} KOIN. Send less, or wait for mana to regenerate.`,
      { needed: amount, available: mana, current: mana, max: balance },
    );
  }
  if (availableMana === 0n) {
    throw notEnoughMana(
      `The account has no mana left for a transaction (${formatAmount(mana)} mana, all held by pending transactions or used). Wait for them to be included, or for mana to regenerate.`,
      { needed: 1n, available: 0n, current: mana, max: await maxMana() },
    );
  }
  if (rcLimitByHand !== undefined && rcLimitByHand > availableMana) {
    throw notEnoughMana(`The mana limit ${formatAmount(rcLimitByHand)} is more than the ${formatAmount(availableMana)} mana the account has available. Lower it.`, {
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
  const nonce = highest + 1n;
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
    confirmedNonce: confirmed,
    mana,
    availableMana,
    balance,
    ...(rcLimitByHand !== undefined ? { rcLimitByHand } : {}),
    maxMana,
    unsigned: (rcLimit: bigint, nonceOverride?: bigint) => ({
      id: new Uint8Array(),
      header: {
        chain_id: chainId,
        rc_limit: rcLimit,
        nonce: nonceToBytes(nonceOverride ?? nonce),
        operation_merkle_root: new Uint8Array(),
        payer: fromBytes,
        payee: new Uint8Array(),
      },
      operations: [operation],
      signatures: [],
    }),
  };
}
