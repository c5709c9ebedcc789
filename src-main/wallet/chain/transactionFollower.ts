// Follows this wallet's submitted transactions until they are in a block and then irreversible (or expire from the
// mempool), polling the node - no busy loop, and no timer at all when nothing is followed - and reports each change as
// a `tx:update` event. One the chain reverted in its block is reported failed at once and followed until that block is
// irreversible: a fork may still put it in a block where it goes through. Its block is the one the chain has
// (includingBlocks.ts): none is called irreversible in a block the chain does not have, and a transaction whose block
// lost its fork is pending again if the node has it in its mempool, else dropped at once (when the node still lists
// that block; a node that lists nothing may only be late, except the Local devnet, a single node: what it lists nowhere
// is gone).
import { BTYPE, bytesFromJson } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { hexId, includingBlocks } from './includingBlocks.ts';
import type { TxStatus, TxUpdate } from './types.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransaction, PendingTransactions } from './pendingTransactions.ts';

export interface TransactionFollowerOptions {
  networks: NetworkService;
  pending: PendingTransactions;
  /** Between two polls (default 1 s). */
  intervalMs?: number;
  /** A transaction neither in a block nor in the mempool this long after submission has expired (default 150 s: the mempool keeps one 120 s). */
  expireAfterMs?: number;
}

/**
 * @example
 * const stop = follower.on((u) => win.webContents.send('tx:update', u));
 * follower.track(pendingEntry); // after a successful submission
 */
export class TransactionFollower {
  private readonly networks: NetworkService;
  private readonly pending: PendingTransactions;
  private readonly intervalMs: number;
  private readonly expireAfterMs: number;
  private readonly listeners = new Set<(update: TxUpdate) => void>();
  private readonly waiters = new Set<{ id: string; statuses: ReadonlySet<TxStatus>; resolve: (u: TxUpdate) => void }>();
  private timer: NodeJS.Timeout | undefined;
  /** The look at the node under way (a poll, or settle's), which stop() waits for; undefined between looks. */
  private looking: Promise<void> | undefined;
  /** The submissions under way (broadcasting), which stop() waits for. */
  private readonly broadcasts = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(options: TransactionFollowerOptions) {
    this.networks = options.networks;
    this.pending = options.pending;
    this.intervalMs = options.intervalMs ?? 1000;
    this.expireAfterMs = options.expireAfterMs ?? 150_000;
  }

  /** Listens to every update; returns the function that stops listening. */
  on(listener: (update: TxUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records a transaction the node accepted as pending and follows it (once stopped, it is recorded and followed
   * after resume()).
   */
  track(entry: PendingTransaction): void {
    this.pending.add(entry);
    this.emit({ transactionId: entry.id, networkId: entry.networkId, status: 'pending' });
    this.schedule(0);
  }

  /**
   * Runs `broadcast` (a submission to the node and the track() of what it sent) as one that stop() waits for, so that
   * a transaction sent as the wallet closes is recorded before the data folder is let go. Refused once stopped.
   * @throws WalletError NODE_UNREACHABLE after stop(); whatever `broadcast` throws otherwise.
   */
  async broadcasting<T>(broadcast: () => Promise<T>): Promise<T> {
    if (this.stopped) throw new WalletError('NODE_UNREACHABLE', 'The wallet is closing: it sends nothing more.');
    const sending = broadcast();
    this.broadcasts.add(sending);
    try {
      return await sending;
    } finally {
      this.broadcasts.delete(sending);
    }
  }

  /** Follows again what `pending` already holds: the transactions of the last run, after a restart. */
  resume(): void {
    if (this.pending.all().length === 0) return;
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Resolves with the first update of `id` to one of `statuses` (or a final one: failed, expired).
   * @throws WalletError NODE_TIMEOUT when none comes within `timeoutMs`.
   */
  waitFor(id: string, statuses: TxStatus[], timeoutMs: number): Promise<TxUpdate> {
    const entry = this.pending.get(id);
    // One reverted in a block that is not irreversible yet is still followed, and failed is a final answer here.
    if (entry && (statuses.includes(entry.status) || entry.status === 'failed')) {
      return Promise.resolve({
        transactionId: id,
        networkId: entry.networkId,
        status: entry.status,
        ...(entry.blockHeight !== undefined ? { blockHeight: entry.blockHeight.toString() } : {}),
        ...(entry.status === 'failed'
          ? {
              message: `Included in block ${entry.blockHeight}, but the chain reverted it. Nothing was changed but the mana it used.`,
            }
          : {}),
      });
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        id,
        statuses: new Set<TxStatus>([...statuses, 'failed', 'expired']),
        resolve: (u: TxUpdate) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(u);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new WalletError(
            'NODE_TIMEOUT',
            `The transaction ${id} was not ${statuses.join(' or ')} within ${Math.round(timeoutMs / 1000)} s. It may still be; check the account's history.`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /**
   * Looks once, now, at what `pending` holds for `networkId` (only that network's node is asked), and returns when
   * that look is done: a command that opens a data folder learns which of the last commands' transactions were
   * included or dropped before it counts their nonces. A node that does not answer leaves them as they were.
   */
  async settle(networkId: string): Promise<void> {
    const entries = this.pending.all().filter((e) => e.networkId === networkId);
    if (entries.length === 0 || this.looking) return;
    await this.look(async () => {
      try {
        await this.pollNetwork(networkId, entries);
      } catch {
        // the node is down: the entries stay as they are, and count as before
      }
    });
  }

  /**
   * Stops polling and sending (the wallet quits); tracked transactions are kept but no longer followed. Resolves once
   * the submissions under way are answered and tracked, and the look at the node under way is done: what they sent
   * and learned is then in `pending` (to be written before the data folder is let go), and nothing changes it after.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled(this.broadcasts);
    await this.looking;
  }

  /** Runs one look at the node; looks do not overlap. */
  private async look(run: () => Promise<void>): Promise<void> {
    this.looking = run().finally(() => (this.looking = undefined));
    await this.looking;
  }

  private emit(update: TxUpdate): void {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {
        // a listener's failure is its own
      }
    }
    for (const waiter of [...this.waiters])
      if (waiter.id === update.transactionId && waiter.statuses.has(update.status)) waiter.resolve(update);
  }

  private schedule(delay: number): void {
    if (this.timer || this.looking || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, delay);
  }

  private async poll(): Promise<void> {
    try {
      await this.look(async () => {
        const byNetwork = new Map<string, PendingTransaction[]>();
        for (const e of this.pending.all()) byNetwork.set(e.networkId, [...(byNetwork.get(e.networkId) ?? []), e]);
        for (const [networkId, entries] of byNetwork) {
          try {
            await this.pollNetwork(networkId, entries);
          } catch {
            // the node is down for now: the next poll tries again
          }
        }
      });
    } finally {
      if (this.pending.all().length > 0) this.schedule(this.intervalMs);
    }
  }

  private async pollNetwork(networkId: string, entries: PendingTransaction[]): Promise<void> {
    const { network, node } = await this.networks.node(networkId);
    const [found, head] = await Promise.all([node.transactionsById(entries.map(idBytes)), node.head()]);
    const listed = found.flatMap((item) =>
      item.transaction ? [{ id: item.transaction.id, containing_blocks: item.containing_blocks }] : [],
    );
    const blockIds = distinctIds(listed.flatMap((t) => t.containing_blocks));
    const heights = new Map<string, bigint>();
    for (const item of await node.blocksById(blockIds)) heights.set(hexId(item.block_id), item.block_height);
    // Before a transaction is called irreversible, its block is checked to be on the chain: the transaction store also
    // lists blocks of abandoned forks.
    const blockOf = await includingBlocks(node, head, listed, heights, true);
    // Listed in a block the node does not give (yet: its block store may be behind its transaction store): undecided.
    const undecided = new Set(
      listed.filter((t) => t.containing_blocks.some((b) => !heights.has(hexId(b)))).map((t) => hexId(t.id)),
    );

    // A transaction that passed at submission is included reverted when the state it read changed before its block
    // (another spend of the balance, a contract's own state): its block's receipt says so, read once per block it is
    // seen in (several followed transactions in one block: one receipt read).
    const seenIn = distinctIds(
      entries.flatMap((entry) => {
        const block = blockOf.get(entry.id);
        if (!block) return [];
        // Once more when one that reverted there is final: the last word on it comes with the receipt.
        const failedFinal = entry.status === 'failed' && block.height <= head.lastIrreversible;
        return !lastSeenIn(entry, block) || failedFinal ? [block.id] : [];
      }),
    );
    const reverted = new Map(
      (await node.transactionReceiptsIn(seenIn)).filter((r) => r.reverted).map((r) => [hexId(r.id), r]),
    );

    const missing: PendingTransaction[] = [];
    for (const entry of entries) {
      const block = blockOf.get(entry.id);
      if (!block) {
        if (!undecided.has(entry.id)) missing.push(entry);
        continue;
      }
      const height = block.height;
      const blockId = hexId(block.id);
      const final = height <= head.lastIrreversible;
      const receipt = reverted.get(entry.id);
      if (receipt) {
        // Reverted in its block: its nonce is used, and it changed nothing but its payer's mana. It is followed until
        // that block is irreversible, as an included one is: until then a fork may still put it in a block where it
        // goes through, and the wallet says so then.
        if (final) this.pending.remove(entry.id);
        else this.pending.update(entry.id, { status: 'failed', blockHeight: height, blockId });
        this.emit({
          transactionId: entry.id,
          networkId,
          status: 'failed',
          blockHeight: height.toString(),
          rcUsed: receipt.rc_used.toString(),
          message:
            `Included in block ${height}, but the chain reverted it: ${revertReason(receipt.logs)}. Nothing was changed but the mana it used.` +
            (final ? '' : ' It becomes final once the block is irreversible.'),
        });
        continue;
      }
      // Reverted in this block at an earlier look, which is not irreversible yet (its receipt is read again then; if
      // that block's receipt no longer says reverted, it goes on as included or irreversible below).
      if (entry.status === 'failed' && !final && lastSeenIn(entry, block)) continue;
      const status: TxStatus = final ? 'irreversible' : 'included';
      if (status !== entry.status || height !== entry.blockHeight) {
        this.pending.update(entry.id, { status, blockHeight: height, blockId });
        this.emit({ transactionId: entry.id, networkId, status, blockHeight: height.toString() });
      } else if (blockId !== entry.blockId) {
        // Another block at the same height, where it goes through too: nothing to tell, but later looks compare with it.
        this.pending.update(entry.id, { blockId });
      }
      if (status === 'irreversible') this.pending.remove(entry.id);
    }
    if (missing.length === 0) return;
    const inMempool = new Set(
      (await node.pendingById(missing.map(idBytes))).flatMap((p) => (p.transaction ? [hexId(p.transaction.id)] : [])),
    );
    const stillListed = new Set(listed.map((t) => hexId(t.id)));
    // The Local devnet is one node on this machine: what it has in no block and not in its mempool is gone (a revert or
    // a new chain removed it), where a node behind an address may only be late.
    const gone =
      network.kind === 'local'
        ? await goneFrom(
            node,
            missing.filter((e) => !inMempool.has(e.id) && !stillListed.has(e.id)),
          )
        : new Set<string>();
    for (const entry of missing) {
      if (inMempool.has(entry.id)) {
        // In a block at the last look, in none of the chain's now, and waiting again: pending.
        if (entry.status === 'included' || entry.status === 'failed') {
          this.pending.update(entry.id, { status: 'pending', blockHeight: undefined, blockId: undefined });
          this.emit({ transactionId: entry.id, networkId, status: 'pending' });
        }
        continue;
      }
      // Included before, and the store still lists it but in no block of the chain: its block lost a fork, and the
      // node no longer has it. It is dropped now, so that its nonce is free for the next transaction at once. One the
      // node does not list at all may only be late (one of several nodes behind an address, behind the others): it has
      // the usual time, unless the node is the Local devnet (`gone`).
      const inBlockBefore = entry.status === 'included' || entry.status === 'failed';
      const forked = inBlockBefore && stillListed.has(entry.id);
      const removed = gone.has(entry.id);
      if (!forked && !removed && Date.now() - entry.submittedAt < this.expireAfterMs) continue;
      this.pending.remove(entry.id);
      this.emit({
        transactionId: entry.id,
        networkId,
        status: 'expired',
        message: forked
          ? 'Its block lost a fork, and the node no longer has the transaction. Nothing was changed; send it again if needed.'
          : removed && inBlockBefore
            ? 'The devnet no longer has the transaction or its block: its chain was reverted or started again. Nothing was changed; send it again if needed.'
            : 'The transaction left the node without being included in a block. Nothing was changed; send it again if needed.',
      });
    }
  }
}

/**
 * Whether `block` is the one `entry` was seen in at the last look: by its id (a fork may put the transaction in another
 * block at the same height), or by its height for an entry kept before ids were.
 */
function lastSeenIn(entry: PendingTransaction, block: { id: Uint8Array; height: bigint }): boolean {
  return entry.blockId !== undefined ? entry.blockId === hexId(block.id) : entry.blockHeight === block.height;
}

/** The longest reason shown: the node is not trusted, and its logs could fill a screen or a notification. */
const MAX_REASON_CHARS = 200;

/**
 * Why the chain reverted a transaction, from its receipt's logs ("transaction reverted: <reason>"): on one line, and cut
 * at MAX_REASON_CHARS.
 */
export function revertReason(logs: readonly string[]): string {
  const prefix = 'transaction reverted: ';
  const line = logs.find((log) => log.startsWith(prefix));
  if (!line) return 'its receipt gives no reason';
  const reason = line
    .slice(prefix.length)
    .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
    .trim();
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason || 'no reason given';
}

/** `ids` with each id once (the first of equal ones kept). */
function distinctIds(ids: Uint8Array[]): Uint8Array[] {
  return [...new Map(ids.map((id) => [hexId(id), id])).values()];
}

/** A followed transaction's id as the node takes it. */
function idBytes(entry: PendingTransaction): Uint8Array {
  return bytesFromJson(entry.id, BTYPE.TRANSACTION_ID, 'id');
}

/**
 * Of `entries`, which a single node had in no block and not in its mempool, those it still lists in no block when asked
 * once more: one that moved from the mempool into a block between the two reads of a look was seen in neither.
 */
async function goneFrom(node: KoinosNode, entries: PendingTransaction[]): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const found = await node.transactionsById(entries.map(idBytes));
  const listed = new Set(found.flatMap((item) => (item.transaction ? [hexId(item.transaction.id)] : [])));
  return new Set(entries.filter((e) => !listed.has(e.id)).map((e) => e.id));
}
