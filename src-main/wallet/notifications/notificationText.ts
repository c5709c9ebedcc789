// What the wallet notifies and in which words, decided without any shell: a sent transaction that is included,
// irreversible, failed or dropped (from `tx:update`), and tokens that arrive (from the account's history). Pure.
import { formatAmount } from '../../koinos/amounts.ts';
import type { HistoryEntry, HistoryRecord, KnownAddress, TxUpdate } from '../chain/types.ts';
import type { WalletNotification } from './types.ts';

/** `1AbcdE…WxYz`: long enough to recognise, short enough for a notification line. */
export function shortId(text: string): string {
  return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}

function amountText(entry: HistoryEntry): string {
  if (entry.tokenId !== undefined) return `NFT ${shortId(entry.tokenId)} of ${shortId(entry.contract ?? '')}`;
  if (entry.allNfts) return `every NFT of ${shortId(entry.contract ?? '')}`;
  if (entry.amount === undefined) return '';
  if (!entry.token) return `${entry.amount} base units`;
  const amount = `${formatAmount(BigInt(entry.amount), entry.token.decimals)} ${entry.token.symbol}`;
  // Any contract can call itself KOIN: one the wallet does not list is named by its address too.
  return entry.token.unlisted ? `${amount} (unlisted token ${shortId(entry.token.contract)})` : amount;
}

/** What a transaction did, as the start of a sentence: `Sending 1.5 KOIN to 1Abc…`. */
function transactionSummary(entries: readonly HistoryEntry[], transactionId: string): string {
  const movement = entries.find(
    (e) => e.kind === 'sent' || e.kind === 'burned' || e.kind === 'minted' || e.kind === 'approved',
  );
  if (movement?.kind === 'sent')
    return `Sending ${amountText(movement)}${movement.counterparty ? ` to ${shortId(movement.counterparty)}` : ''}`;
  if (movement?.kind === 'burned') return `Burning ${amountText(movement)}`;
  if (movement?.kind === 'minted') return `Minting ${amountText(movement)}`;
  if (movement?.kind === 'approved')
    return `An allowance for ${movement.counterparty ? shortId(movement.counterparty) : 'an account'}`;
  const call = entries.find((e) => e.kind === 'call');
  if (call) return `The call ${call.name ?? 'to a contract'}${call.contract ? ` on ${shortId(call.contract)}` : ''}`;
  return `The transaction ${shortId(transactionId)}`;
}

/** What the wallet knows of one of its own transactions when an update about it comes. */
export interface SentTransactionContext {
  /** The transaction's entries as the history shows it (what it sends, to whom). */
  entries: readonly HistoryEntry[];
  /** The wallet account that sent it, when it is one. */
  accountId?: string;
  /** The block height its last "included" update named: an "included" in another block means a fork moved it. */
  includedIn?: string;
}

/**
 * The notification for an update of a transaction this wallet sent, or undefined when the update is not worth one
 * (`pending`: the user just sent it and is looking).
 * @example
 * txUpdateNotification({ transactionId: '0x1220…', networkId: 'local', status: 'included', blockHeight: '12' }, { entries });
 * // { id: 'tx:0x1220…:included', title: 'Transaction included', body: 'Sending 1.5 KOIN to 1Abc…Wxyz is in block 12.', target: {…} }
 */
export function txUpdateNotification(
  update: TxUpdate,
  context: SentTransactionContext,
): WalletNotification | undefined {
  const what = transactionSummary(context.entries, update.transactionId);
  const block = update.blockHeight !== undefined ? ` block ${update.blockHeight}` : '';
  // Announced in another block before: that block lost a fork, and the chain has the transaction in this one.
  const moved =
    context.includedIn !== undefined && update.blockHeight !== undefined && context.includedIn !== update.blockHeight;
  let id = `tx:${update.transactionId}:${update.status}`;
  let title: string;
  let body: string;
  switch (update.status) {
    case 'pending':
      return undefined;
    case 'included':
      if (moved) {
        id += `:${update.blockHeight}`;
        title = 'Transaction moved to another block';
        body = `${what} is now in${block}: block ${context.includedIn}, which had it, lost a fork.`;
      } else {
        title = 'Transaction included';
        body = `${what} is in${block || ' a block'}.`;
      }
      body += ' It becomes final once the block is irreversible.';
      break;
    case 'irreversible':
      title = 'Transaction final';
      body = `${what} is irreversible${block ? ` (${block.trim()})` : ''}.`;
      // Final in this block before the follower saw it included here.
      if (moved) body += ` Block ${context.includedIn}, which had it first, lost a fork.`;
      break;
    case 'failed':
      title = 'Transaction failed';
      body = `${what} failed.${update.message ? ` ${update.message}` : ''}`;
      break;
    case 'expired':
      title = 'Transaction dropped';
      // The follower's message says why: never included, or in a block that lost its fork.
      body = `${what} was dropped.${update.message ? ` ${update.message}` : ' It was not included in a block.'}`;
      break;
  }
  return {
    id,
    title,
    body,
    target: {
      networkId: update.networkId,
      transactionId: update.transactionId,
      ...(context.accountId ? { accountId: context.accountId } : {}),
    },
  };
}

/** An account of the wallet whose incoming tokens are notified. */
export interface WatchedAccount {
  accountId: string;
  name: string;
}

/**
 * The notifications for tokens arriving in `records` (an account's history records newer than the last ones seen):
 * one per received or minted amount, oldest first. Records not yet in a block are skipped (they have no sequence
 * number and may never be). A sender whose address `lookalikeOf` finds made to look like a known one is said to be
 * so, without its short form: that form is the known address's too (address poisoning sends a small amount so that
 * the address is copied from a history or a notification).
 */
export function incomingNotifications(
  records: readonly HistoryRecord[],
  networkId: string,
  account: WatchedAccount,
  nameOf: (address: string) => string | undefined = () => undefined,
  lookalikeOf: (address: string) => KnownAddress | undefined = () => undefined,
): WalletNotification[] {
  const out: WalletNotification[] = [];
  const ordered = records
    .filter((r) => r.seqNum !== undefined && r.transactionId !== undefined)
    .sort((a, b) => (BigInt(a.seqNum!) < BigInt(b.seqNum!) ? -1 : 1));
  for (const record of ordered) {
    record.entries.forEach((entry, index) => {
      if (entry.kind !== 'received' && entry.kind !== 'minted') return;
      const name = entry.counterparty ? nameOf(entry.counterparty) : undefined;
      const like = entry.counterparty && name === undefined ? lookalikeOf(entry.counterparty) : undefined;
      const from = entry.counterparty ? (name ?? shortId(entry.counterparty)) : undefined;
      const block = record.blockHeight ? `, in block ${record.blockHeight}` : '';
      out.push({
        id: `in:${networkId}:${record.transactionId}:${account.accountId}:${index}`,
        title: `Received ${amountText(entry)}`,
        body: like
          ? `To ${account.name}${block}, from a look-alike of ${like.label}: do not copy its address or send to it.`
          : `${from ? `From ${from} to` : 'To'} ${account.name}${block}.`,
        target: { networkId, transactionId: record.transactionId!, accountId: account.accountId },
      });
    });
  }
  return out;
}
