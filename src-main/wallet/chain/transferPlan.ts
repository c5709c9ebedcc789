// What sending a token needs before anything is signed, shared by Send and by the offline export: the recipient and
// the amount checked, who pays the mana, and the chain ID, nonce (the sender's) and mana (the payer's) fetched now.
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { formatAmount, parseAmount } from '../../koinos/amounts.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { KOIN_METHODS } from '../../koinos/koin.ts';
import { memoProblem } from '../../koinos/memo.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { NetworkInfo, TokenInfo } from './types.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { manaRefillText } from './dashboard.ts';
import { tokenBalance, type TokenService } from './tokens.ts';
import {
  authorizesByContract,
  checkPayerChoice,
  freeManaSharerOf,
  sharerTerms,
  type PayerChoice,
  type SharerOverrides,
} from './payer.ts';
import { parseRcLimit, prepareOperations } from './submission.ts';

// Moved to submission.ts, the pipeline every kind of transaction shares; exported here as before for existing importers.
export { readAccountNow, unsignedTransaction, type AccountNow } from './submission.ts';

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
  /** Public text kept with the transfer on the chain (KCS-4 `memo`); absent or empty: none. */
  memo?: string;
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
  if (typeof to !== 'string' || to.trim() === '')
    throw new WalletError('INVALID_ADDRESS', "expected the recipient's address, got nothing");
  let toBytes: Uint8Array;
  try {
    toBytes = addressFromString(to.trim());
  } catch (cause) {
    const reason = cause instanceof WalletError ? cause.shortMessage : describe(cause);
    throw new WalletError(
      'INVALID_ADDRESS',
      `The recipient is not a valid Koinos address (${reason}). Check it, or paste it again.`,
      { cause },
    );
  }
  const text = bytesToJson(toBytes, BTYPE.ADDRESS);
  if (text === from)
    throw new WalletError(
      'INVALID_ADDRESS',
      'The recipient is the sending account itself; a token cannot be sent to its own sender. Choose another recipient.',
    );
  return { to: text, toBytes };
}

/**
 * Refuses a recipient that is a contract the transfer goes through (the token's own, or another token the wallet
 * lists; an NFT collection's): it is no account, and what is sent there cannot be taken out again.
 * @throws WalletError INVALID_ADDRESS naming the contract.
 */
export function refuseContractRecipient(to: string, contracts: readonly { contract: string; symbol: string }[]): void {
  const hit = contracts.find((c) => c.contract === to);
  if (hit) {
    throw new WalletError(
      'INVALID_ADDRESS',
      `The recipient is the ${hit.symbol} contract, not an account: what is sent there cannot be taken out again. Choose another recipient.`,
    );
  }
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
    return {
      payer: { kind: 'account', address: checked.address, bytes: addressFromString(checked.address), offset: 0n },
    };
  }
  const sharer = checked.kind === 'account' ? checked.address : await freeManaSharerOf(network, node, deps.sharers);
  if (sharer === undefined) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${network.name} has no free mana sharer the wallet knows of. Choose another account of this wallet to pay the mana.`,
    );
  }
  const terms = await sharerTerms(node, sharer);
  return {
    payer: { kind: 'sharer', address: terms.address, bytes: terms.bytes, offset: terms.offset },
    cap: terms.cap,
    sharerMana: terms.mana,
  };
}

/** What to do when the payer cannot pay: the sender can ask another payer; a payer can be replaced. */
function noManaAdvice(payer: PayerPlan): string {
  switch (payer.kind) {
    case 'self':
      return "Choose another account of this wallet or the network's free mana sharer to pay the mana, or wait for mana to regenerate.";
    case 'account':
      return `Choose another payer than ${payer.address}, or wait for its mana to regenerate.`;
    case 'sharer':
      return "Choose another account of this wallet to pay the mana, or wait for the sharer's mana to regenerate.";
  }
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
  refuseContractRecipient(to, [token, ...(await deps.tokens.list(network.id))]);
  const memo = request.memo ?? '';
  const badMemo = memoProblem(memo);
  if (badMemo) throw new WalletError('INVALID_ARGUMENT', badMemo);
  const amount = parseAmount(request.amount, token.decimals);
  if (amount === 0n)
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected an amount above 0 ${token.symbol}, got ${describe(request.amount)}`,
    );
  const { payer, cap, sharerMana } = await resolvePayer(deps, network, node, from, request.payer);
  const self = payer.kind === 'self';

  const operation = {
    call_contract: {
      contract_id: addressFromString(token.contract),
      entry_point: KOIN_METHODS.transfer.entryPoint,
      args: encode(KOIN_METHODS.transfer.argsType, {
        from: fromBytes,
        to: toBytes,
        value: amount,
        ...(memo !== '' ? { memo } : {}),
      }),
    },
  };
  const [prepared, balance] = await Promise.all([
    prepareOperations({
      node,
      networkId: network.id,
      pending: deps.pending,
      payer,
      ...(self ? {} : { payee: { address: from, bytes: fromBytes } }),
      operations: [operation],
      ...(rcLimitByHand !== undefined ? { rcLimit: rcLimitByHand } : {}),
      ...(sharerMana !== undefined ? { payerMana: sharerMana } : {}),
      ...(cap !== undefined ? { payerCap: cap } : {}),
    }),
    tokenBalance(node, token, fromBytes),
  ]);
  const { chainId, nonce, senderMana, mana, availableMana } = prepared;
  await deps.networks.observeChainId(network.id, chainId);

  // What the sender's transfers still waiting for a block take of the balance is not the sender's to send again.
  const outgoing = deps.pending.outgoing(network.id, from, token.contract, prepared.confirmedNonce);
  const spendable = balance > outgoing ? balance - outgoing : 0n;
  if (amount > spendable) {
    const of = (value: bigint) => `${formatAmount(value, token.decimals)} ${token.symbol}`;
    throw new WalletError(
      'INSUFFICIENT_BALANCE',
      outgoing === 0n
        ? `The amount ${of(amount)} is more than the balance of ${of(balance)}. Send at most the balance.`
        : `The amount ${of(amount)} is more than the ${of(spendable)} left of the balance of ${of(balance)} once the account's transfers waiting for a block (${of(outgoing)}) are in. Send at most ${of(spendable)}, or wait for them.`,
    );
  }
  const maxMana = async (): Promise<bigint> =>
    self && token.system === 'koin'
      ? balance
      : tokenBalance(node, await deps.tokens.resolve(network.id, 'koin'), payer.bytes);
  // The KOIN contract itself refuses to move KOIN whose mana the sender used, whoever pays for the transaction; the
  // KOIN the sender's waiting transfers move leaves with its mana.
  const unusedMana = token.system === 'koin' && senderMana > outgoing ? senderMana - outgoing : 0n;
  if (token.system === 'koin' && amount > unusedMana) {
    const has =
      outgoing > 0n
        ? `${formatAmount(senderMana)} mana, of which ${formatAmount(outgoing)} leaves with its transfers waiting for a block: ${formatAmount(unusedMana)}`
        : `${formatAmount(senderMana)} mana`;
    throw notEnoughMana(
      `Only KOIN whose mana is unused can be sent: the account has ${has} for ${formatAmount(amount)} KOIN. Send less, or wait for mana to regenerate.`,
      { needed: amount, available: unusedMana, current: senderMana, max: balance },
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
    const whose =
      payer.kind === 'sharer'
        ? 'the free mana sharer pays for now (its cap included)'
        : self
          ? 'the account has available'
          : 'the payer has available';
    throw notEnoughMana(
      `The mana limit ${formatAmount(rcLimitByHand)} is more than the ${formatAmount(availableMana)} mana ${whose}. Lower it.`,
      {
        needed: rcLimitByHand,
        available: availableMana,
        current: mana,
        max: await maxMana(),
      },
    );
  }

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
    confirmedNonce: prepared.confirmedNonce,
    payer,
    signers: payer.kind === 'account' ? [from, payer.address] : [from],
    mana,
    availableMana,
    balance,
    ...(rcLimitByHand !== undefined ? { rcLimitByHand } : {}),
    maxMana,
    unsigned: prepared.unsigned,
  };
}
