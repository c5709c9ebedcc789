// What a submitted transaction's receipt says: where it stands, from main's follower updates, and whether the figures
// of the node's answer at submission (its mana and events) still describe what the chain did.
import type { ReceiptEvent, SubmitReceipt, TokenInfo, TxUpdate } from '../../src-main/ipc/contract.ts';
import { tokenEventSentence, tokenEventType } from '../../src-main/koinos/tokenEvents.ts';
import { displayAmount } from './format.ts';

export interface ReceiptStanding {
  /** The status line. */
  text: string;
  /**
   * The transaction was sent but the chain did not apply it (dropped after it left the node, or refused): the mana
   * and events of the node's answer at submission never happened.
   */
  notApplied: boolean;
  /**
   * The chain included the transaction but reverted it: the mana it charged (base units, the block's figure, not the
   * node's answer at submission). Its events never happened.
   */
  revertedRcUsed?: string;
}

/** Where `receipt`'s transaction stands, given the follower's latest `update` for it (none yet: just sent). */
export function receiptStanding(receipt: SubmitReceipt, update: TxUpdate | undefined): ReceiptStanding {
  if (!receipt.broadcast) return { text: 'Trial run only: nothing was sent.', notApplied: false };
  if (receipt.reverted)
    return { text: 'The transaction was reverted: it changed nothing, but its mana was used.', notApplied: false };
  switch (update?.status) {
    case undefined:
    case 'pending':
      return { text: 'Sent. Waiting for it to be included in a block…', notApplied: false };
    case 'included':
      return {
        text: `Included in block ${update.blockHeight ?? ''}. Waiting until it is irreversible…`,
        notApplied: false,
      };
    case 'irreversible':
      return {
        text: `Irreversible (block ${update.blockHeight ?? ''}). It can no longer be undone.`,
        notApplied: false,
      };
    case 'expired':
      return {
        text:
          update.message ??
          'It expired without being included in a block: nothing was changed. Send it again if needed.',
        notApplied: true,
      };
    case 'failed':
      if (update.rcUsed !== undefined) {
        return {
          text: update.message ?? `Included in block ${update.blockHeight ?? ''}, but the chain reverted it.`,
          notApplied: false,
          revertedRcUsed: update.rcUsed,
        };
      }
      return { text: `It failed: ${update.message ?? 'the node refused it'}.`, notApplied: true };
  }
}

/**
 * What an event of a receipt did, in words: main's sentence for an NFT collection's, and for a token's (KCS-4 transfer,
 * mint, burn, allowance) one made here with the token's decimals, when `tokens` (the wallet's, on the receipt's network)
 * has it; undefined otherwise (the event is shown by its name). Addresses in full, as in a review.
 * @example
 * eventText({ name: 'token.transfer_event', source: koin, data: { from, to, value: '150000000' }, impacted: [] }, [KOIN]);
 * // 'Transfer 1.5 KOIN from 1Abc… to 1Def…'
 */
export function eventText(event: ReceiptEvent, tokens: readonly TokenInfo[]): string | undefined {
  if (event.summary) return event.summary;
  const type = tokenEventType(event.name);
  const token = tokens.find((t) => t.contract === event.source);
  const data = event.data as Partial<Record<'from' | 'to' | 'owner' | 'spender' | 'value', string>> | null;
  if (!type || !token || typeof data !== 'object' || data === null) return undefined;
  const value = data.value ?? '0';
  return tokenEventSentence(type, data, `${displayAmount(value, token.decimals)} ${token.symbol}`, BigInt(value));
}
