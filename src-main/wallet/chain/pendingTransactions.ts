// This wallet's own transactions that a node accepted but that are not irreversible yet: the next nonce counts them,
// the dashboard shows the mana they hold, the history lists them until they are included.
import type { TxStatus } from '../../ipc/contract.ts';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import type { Transaction } from '../../koinos/types.ts';

export interface PendingTransaction {
  networkId: string;
  /** `0x1220…` */
  id: string;
  payer: string;
  nonce: bigint;
  rcLimit: bigint;
  transaction: Transaction;
  /** Epoch ms when the node accepted it. */
  submittedAt: number;
  status: TxStatus;
  blockHeight?: bigint;
}

/** The account whose nonce the transaction uses: its payee when it names one, else its payer (as koinos-chain checks it). */
export function nonceAccountOf(entry: PendingTransaction): string {
  const payee = entry.transaction.header?.payee;
  return payee && payee.length > 0 ? bytesToJson(payee, BTYPE.ADDRESS) : entry.payer;
}

/** In memory: a restart forgets them, and the node's own nonce and history take over. */
export class PendingTransactions {
  private readonly entries = new Map<string, PendingTransaction>();

  add(entry: PendingTransaction): void {
    this.entries.set(entry.id, entry);
  }

  get(id: string): PendingTransaction | undefined {
    return this.entries.get(id);
  }

  update(id: string, patch: Partial<Pick<PendingTransaction, 'status' | 'blockHeight'>>): void {
    const entry = this.entries.get(id);
    if (entry) this.entries.set(id, { ...entry, ...patch });
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Everything tracked, oldest first. */
  all(): PendingTransaction[] {
    return [...this.entries.values()];
  }

  /** The account's transactions on a network that are not in a block yet (they hold mana and nonces). */
  waiting(networkId: string, payer: string): PendingTransaction[] {
    return this.all().filter((e) => e.networkId === networkId && e.payer === payer && e.status === 'pending');
  }

  /**
   * Those of `entries` the chain has not taken in yet: their nonce is above the nonce the chain stored for their nonce
   * account (`confirmedNonce`, read once per account). The follower learns of an inclusion only at its next poll, so a
   * status of 'pending' can be stale; a nonce the chain has reached cannot be (the transaction is in a block, or another
   * one took its nonce and it never will be). Read the nonce after whatever it is compared with (the account history).
   */
  async unconfirmed(entries: readonly PendingTransaction[], confirmedNonce: (account: string) => Promise<bigint>): Promise<PendingTransaction[]> {
    const accounts = [...new Set(entries.map(nonceAccountOf))];
    const nonces = new Map(await Promise.all(accounts.map(async (a) => [a, await confirmedNonce(a)] as const)));
    return entries.filter((e) => e.nonce > (nonces.get(nonceAccountOf(e)) ?? 0n));
  }

  /**
   * The highest nonce among the waiting transactions that use the account's nonce: those it pays for itself and those
   * another payer pays for on its behalf (payee), not those it pays for someone else.
   */
  highestNonce(networkId: string, account: string): bigint | undefined {
    let highest: bigint | undefined;
    for (const e of this.all()) {
      if (e.networkId !== networkId || e.status !== 'pending' || nonceAccountOf(e) !== account) continue;
      if (highest === undefined || e.nonce > highest) highest = e.nonce;
    }
    return highest;
  }

  /** Mana held by the account's waiting transactions (the sum of their rc_limit). */
  heldMana(networkId: string, payer: string): bigint {
    return this.waiting(networkId, payer).reduce((sum, e) => sum + e.rcLimit, 0n);
  }
}
