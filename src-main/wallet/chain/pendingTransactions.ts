// This wallet's own transactions that a node accepted but that are not irreversible yet: the next nonce counts them,
// the dashboard shows the mana they hold, the history lists them until they are included. Kept in a file of the data
// folder (a signed transaction holds no secret) so that a restart follows them on to irreversible.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TxStatus } from './types.ts';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { KOIN_METHODS, decodeKoinArgs, type KoinArguments } from '../../koinos/koin.ts';
import { transactionFromBase64, transactionToBase64 } from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import { writeFileAtomic } from '../atomicFile.ts';

/** The file name inside the data folder. */
export const PENDING_TRANSACTIONS_FILE = 'pending-transactions.json';

// Followed: waiting, in a block, or reverted in a block that is not irreversible yet.
const STATUSES: ReadonlySet<TxStatus> = new Set(['pending', 'included', 'failed']);

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
  /** `0x…`, the block it was last seen in (a fork may put it in another block at the same height). */
  blockId?: string;
}

/** The account whose nonce the transaction uses: its payee when it names one, else its payer (as koinos-chain checks it). */
export function nonceAccountOf(entry: PendingTransaction): string {
  const payee = entry.transaction.header?.payee;
  return payee && payee.length > 0 ? bytesToJson(payee, BTYPE.ADDRESS) : entry.payer;
}

/** One entry as the file keeps it: the transaction as base64 of its bytes, 64-bit numbers as decimal strings. */
interface StoredEntry {
  networkId: string;
  id: string;
  payer: string;
  nonce: string;
  rcLimit: string;
  transaction: string;
  submittedAt: number;
  status: TxStatus;
  blockHeight?: string;
  blockId?: string;
}

function toStored(e: PendingTransaction): StoredEntry {
  return {
    networkId: e.networkId,
    id: e.id,
    payer: e.payer,
    nonce: e.nonce.toString(),
    rcLimit: e.rcLimit.toString(),
    transaction: transactionToBase64(e.transaction),
    submittedAt: e.submittedAt,
    status: e.status,
    ...(e.blockHeight !== undefined ? { blockHeight: e.blockHeight.toString() } : {}),
    ...(e.blockId !== undefined ? { blockId: e.blockId } : {}),
  };
}

const UINT = /^\d{1,20}$/;
/** A block id as hexId writes it (0x, then a multihash: 0x1220 and the 32 bytes of a sha256 on Koinos). */
const BLOCK_ID = /^0x(?:[0-9a-f]{2}){1,100}$/;

/** An entry read back, or undefined when it is damaged (it is dropped: the node's nonce and history take over). */
function fromStored(raw: unknown): PendingTransaction | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const strings = ['networkId', 'id', 'payer', 'transaction'].every((k) => typeof r[k] === 'string');
  if (
    !strings ||
    typeof r.nonce !== 'string' ||
    !UINT.test(r.nonce) ||
    typeof r.rcLimit !== 'string' ||
    !UINT.test(r.rcLimit)
  )
    return undefined;
  if (typeof r.submittedAt !== 'number' || !STATUSES.has(r.status as TxStatus)) return undefined;
  if (r.blockHeight !== undefined && (typeof r.blockHeight !== 'string' || !UINT.test(r.blockHeight))) return undefined;
  if (r.blockId !== undefined && (typeof r.blockId !== 'string' || !BLOCK_ID.test(r.blockId))) return undefined;
  let transaction: Transaction;
  try {
    transaction = transactionFromBase64(r.transaction as string);
  } catch {
    return undefined;
  }
  if (`0x${Buffer.from(transaction.id).toString('hex')}` !== r.id) return undefined;
  return {
    networkId: r.networkId as string,
    id: r.id as string,
    payer: r.payer as string,
    nonce: BigInt(r.nonce),
    rcLimit: BigInt(r.rcLimit),
    transaction,
    submittedAt: r.submittedAt,
    status: r.status as TxStatus,
    ...(r.blockHeight !== undefined ? { blockHeight: BigInt(r.blockHeight as string) } : {}),
    ...(r.blockId !== undefined ? { blockId: r.blockId as string } : {}),
  };
}

export interface PendingTransactionsOptions {
  /** The file that keeps them between runs; absent: in memory only (the CLI, which waits for its one transaction). */
  path?: string;
  /** Told when the file cannot be written (the entries stay in memory and are followed; a restart forgets them). */
  log?: (line: string) => void;
}

/**
 * @example
 * const pending = await PendingTransactions.open(dataDir); // the entries of the last run, to be followed again
 * pending.add(entry); // written to the file in the background; `await pending.flush()` waits for it
 */
export class PendingTransactions {
  private readonly entries = new Map<string, PendingTransaction>();
  private readonly path: string | undefined;
  private readonly log: (line: string) => void;
  private writes: Promise<void> = Promise.resolve();

  constructor(options: PendingTransactionsOptions = {}) {
    this.path = options.path;
    this.log = options.log ?? ((line) => console.error(line));
  }

  /**
   * The entries kept in `<dataDir>/pending-transactions.json`, then kept there. A missing or damaged file starts empty:
   * nothing in it is needed to spend, only to show and follow what was sent.
   */
  static async open(dataDir: string, log?: (line: string) => void): Promise<PendingTransactions> {
    const pending = new PendingTransactions({
      path: join(dataDir, PENDING_TRANSACTIONS_FILE),
      ...(log ? { log } : {}),
    });
    let json: unknown;
    try {
      json = JSON.parse(await readFile(pending.path!, 'utf8'));
    } catch {
      json = undefined;
    }
    const list =
      typeof json === 'object' && json !== null && Array.isArray((json as { entries?: unknown }).entries)
        ? (json as { entries: unknown[] }).entries
        : [];
    for (const raw of list) {
      const entry = fromStored(raw);
      if (entry) pending.entries.set(entry.id, entry);
    }
    return pending;
  }

  add(entry: PendingTransaction): void {
    this.entries.set(entry.id, entry);
    this.save();
  }

  get(id: string): PendingTransaction | undefined {
    return this.entries.get(id);
  }

  update(id: string, patch: Partial<Pick<PendingTransaction, 'status' | 'blockHeight' | 'blockId'>>): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.set(id, { ...entry, ...patch });
    this.save();
  }

  remove(id: string): void {
    if (this.entries.delete(id)) this.save();
  }

  /** Resolves when every change made so far is in the file. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Queues one atomic write of the whole list (writes stay in order, so the file ends as the last change left it). */
  private save(): void {
    const path = this.path;
    if (!path) return;
    const content = JSON.stringify({ version: 1, entries: this.all().map(toStored) }, null, 2);
    this.writes = this.writes.then(() =>
      writeFileAtomic(path, content).catch((error: unknown) =>
        this.log(`[pending] cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
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
   * What the account's transactions not in a block yet will still move out of it of the token at `contract`: the
   * values of their transfers from it. The chain's balance does not count them yet, and a transfer signed after them
   * (its nonce after theirs: no dry run can see their effect) would revert for what they take. `confirmedNonce`, the
   * nonce the chain stored for `from`, leaves out those already in a block that the follower has not seen there yet
   * (the balance counts them already).
   */
  outgoing(networkId: string, from: string, contract: string, confirmedNonce: bigint): bigint {
    let total = 0n;
    for (const entry of this.waitingOf(networkId, from)) {
      if (nonceAccountOf(entry) === from && entry.nonce <= confirmedNonce) continue;
      for (const op of entry.transaction.operations ?? []) {
        const call = op.call_contract;
        if (!call || call.entry_point !== KOIN_METHODS.transfer.entryPoint) continue;
        if (bytesToJson(call.contract_id, BTYPE.CONTRACT_ID) !== contract) continue;
        let args: KoinArguments<'transfer'>;
        try {
          args = decodeKoinArgs('transfer', call.args);
        } catch {
          continue; // not a token transfer's arguments: it moves nothing this can count
        }
        if (args.from && bytesToJson(args.from, BTYPE.ADDRESS) === from) total += args.value ?? 0n;
      }
    }
    return total;
  }

  /**
   * The transactions on a network not in a block yet that the account pays for or sends (uses its nonce while another
   * account or a free mana sharer pays): the ones its history lists as pending.
   */
  waitingOf(networkId: string, address: string): PendingTransaction[] {
    return this.all().filter(
      (e) =>
        e.networkId === networkId && e.status === 'pending' && (e.payer === address || nonceAccountOf(e) === address),
    );
  }

  /**
   * Those of `entries` the chain has not taken in yet: their nonce is above the nonce the chain stored for their nonce
   * account (`confirmedNonce`, read once per account). The follower learns of an inclusion only at its next poll, so a
   * status of 'pending' can be stale; a nonce the chain has reached cannot be (the transaction is in a block, or another
   * one took its nonce and it never will be). Read the nonce after whatever it is compared with (the account history).
   */
  async unconfirmed(
    entries: readonly PendingTransaction[],
    confirmedNonce: (account: string) => Promise<bigint>,
  ): Promise<PendingTransaction[]> {
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
