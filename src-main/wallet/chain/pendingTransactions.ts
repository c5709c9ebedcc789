// This wallet's own transactions that a node accepted but that are not irreversible yet: the next nonce counts them,
// the dashboard shows the mana they hold, the history lists them until they are included.
import type { TxStatus } from '../../ipc/contract.ts';
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

  /** The highest nonce among the account's waiting transactions. */
  highestNonce(networkId: string, payer: string): bigint | undefined {
    let highest: bigint | undefined;
    for (const e of this.waiting(networkId, payer)) if (highest === undefined || e.nonce > highest) highest = e.nonce;
    return highest;
  }

  /** Mana held by the account's waiting transactions (the sum of their rc_limit). */
  heldMana(networkId: string, payer: string): bigint {
    return this.waiting(networkId, payer).reduce((sum, e) => sum + e.rcLimit, 0n);
  }
}
