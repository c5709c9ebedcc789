// Turns what happens on the chain into notifications while the setting is on: updates of this wallet's transactions
// (from the follower) and tokens arriving in its accounts (the selected network's history, polled). The words are
// notificationText.ts's; showing them is a shell's (Electron's Notification) or the page's (the browser's).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addressFromString, lookalikeAmong } from '../../koinos/address.ts';
import type { HistoryRecord, KnownAddress, KnownAddresses } from '../chain/types.ts';
import type { AccountInfo } from '../vault/types.ts';
import type { NotificationSettings, WalletNotification } from './types.ts';
import { writeFileAtomic } from '../atomicFile.ts';
import { expectedTokenEvents, transactionEntries, type HistoryService } from '../chain/history.ts';
import type { NetworkService } from '../chain/networks.ts';
import { nonceAccountOf, type PendingTransactions } from '../chain/pendingTransactions.ts';
import type { TokenService } from '../chain/tokens.ts';
import type { TransactionFollower } from '../chain/transactionFollower.ts';
import { incomingNotifications, txUpdateNotification, type SentTransactionContext } from './notificationText.ts';

/** The file name inside the data folder (the setting alone; nothing secret). */
export const NOTIFICATION_SETTINGS_FILE = 'notifications.json';

/** Newest records read per account and poll: arrivals beyond this many between two polls are not each notified. */
const INCOMING_PAGE = 50;

export interface NotifierOptions {
  dataDir: string;
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  history: HistoryService;
  /** The wallet's accounts now (watched for incoming tokens). */
  accounts: () => AccountInfo[];
  /** Receives each notification to show. */
  emit: (notification: WalletNotification) => void;
  presenter: NotificationSettings['presenter'];
  /** Between two looks at the accounts' history (default 3 s, the block time). */
  intervalMs?: number;
  /** The addresses a sender is compared with, for a notification to say it was made to look like one (absent: none). */
  knownAddresses?: KnownAddresses;
  log?: (line: string) => void;
}

/**
 * @example
 * const notifier = await Notifier.open({ dataDir, networks, tokens, pending, follower, history, accounts, emit, presenter: 'main' });
 * notifier.start();
 * await notifier.update({ enabled: false }); // nothing more is notified
 */
export class Notifier {
  private readonly o: NotifierOptions;
  private enabled = true;
  /** What each followed transaction does, kept while it is followed (the follower forgets a dropped one first). */
  private readonly sent = new Map<string, SentTransactionContext>();
  /** Network|address -> the newest history sequence number seen; the first look only sets it. */
  private readonly seen = new Map<string, bigint>();
  private readonly shown = new Set<string>();
  private stopFollower: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private checking = false;

  private constructor(options: NotifierOptions) {
    this.o = options;
  }

  /** Reads the setting (on when never set, or when the file is unreadable). */
  static async open(options: NotifierOptions): Promise<Notifier> {
    const notifier = new Notifier(options);
    try {
      const json = JSON.parse(await readFile(notifier.path, 'utf8')) as { enabled?: unknown };
      if (typeof json.enabled === 'boolean') notifier.enabled = json.enabled;
    } catch {
      // first run, or a damaged file: notifications on
    }
    return notifier;
  }

  private get path(): string {
    return join(this.o.dataDir, NOTIFICATION_SETTINGS_FILE);
  }

  settings(): NotificationSettings {
    return { enabled: this.enabled, presenter: this.o.presenter };
  }

  /** Turns notifications on or off, kept for the next run; off also stops looking at the accounts' history. */
  async update(patch: { enabled: boolean }): Promise<NotificationSettings> {
    await writeFileAtomic(this.path, JSON.stringify({ version: 1, enabled: patch.enabled }));
    this.enabled = patch.enabled;
    if (this.enabled) this.arm(0);
    else this.disarm();
    return this.settings();
  }

  /** Listens to the follower and starts looking for incoming tokens. */
  start(): void {
    this.running = true;
    for (const entry of this.o.pending.all()) void this.remember(entry.id);
    this.stopFollower ??= this.o.follower.on((update) => {
      if (update.status === 'pending') {
        void this.remember(update.transactionId);
        return;
      }
      const context = this.sent.get(update.transactionId) ?? { entries: [] };
      // Followed on while its block may still lose a fork: included, or reverted there and still followed.
      const inBlock =
        update.status === 'included' ||
        (update.status === 'failed' && this.o.pending.get(update.transactionId) !== undefined);
      if (!inBlock) this.sent.delete(update.transactionId);
      const notification = txUpdateNotification(update, context);
      if (notification) this.show(notification);
      // The block it was announced in: should a fork move it, the next "included" says so.
      if (inBlock && update.blockHeight !== undefined)
        this.sent.set(update.transactionId, { ...context, includedIn: update.blockHeight });
    });
    if (this.enabled) this.arm(0);
  }

  stop(): void {
    this.running = false;
    this.stopFollower?.();
    this.stopFollower = undefined;
    this.disarm();
  }

  /**
   * Looks once at every account's newest history on the selected network and notifies what arrived since the last
   * look (tests call it directly instead of waiting for the timer).
   */
  async checkIncoming(): Promise<void> {
    const accounts = this.o.accounts();
    // Nothing to watch: no node is asked (asking would start the embedded devnet before anyone uses it).
    if (accounts.length === 0) return;
    const networkId = (await this.o.networks.list()).selectedId;
    const nameOf = (address: string) => accounts.find((a) => a.address === address)?.name;
    // Read once a look, when something arrived.
    let known: KnownAddress[] | undefined;
    for (const account of accounts) {
      const key = `${networkId}|${account.address}`;
      let last = this.seen.get(key);
      let newest: bigint;
      const fresh: HistoryRecord[] = [];
      try {
        // The newest record alone first: most looks find nothing new, and a page of decoded records (three or four
        // requests to the node, every few seconds, for every account) is read only when there is something to tell.
        newest = await this.newestRecord(networkId, account.address);
        // A history shorter than the last look's is another chain's (a devnet reset, a restarted testnet): all it
        // holds arrived since.
        if (last !== undefined && newest < last) last = -1n;
        if (last !== undefined && this.enabled && newest > last) {
          const mark = last;
          const page = await this.o.history.page({
            networkId,
            address: account.address,
            limit: INCOMING_PAGE,
            ascending: false,
            irreversibleOnly: false,
          });
          for (const record of page.records) {
            const seq = record.seqNum === undefined ? undefined : BigInt(record.seqNum);
            if (seq === undefined || seq <= mark) continue;
            fresh.push(record);
            if (seq > newest) newest = seq; // arrived since the first request
          }
        }
      } catch {
        continue; // the node is unreachable for now: the next look catches up
      }
      this.seen.set(key, last === undefined || newest > last ? newest : last);
      if (fresh.length === 0) continue;
      const among = (known ??= (await this.o.knownAddresses?.(networkId).catch(() => undefined)) ?? []);
      const lookalikeOf = (address: string) => lookalikeAmong(among, address);
      const watched = { accountId: account.id, name: account.name };
      for (const n of incomingNotifications(fresh, networkId, watched, nameOf, lookalikeOf)) this.show(n);
    }
  }

  /** The sequence number of the account's newest history record on the network (-1 when it has none). */
  private async newestRecord(networkId: string, address: string): Promise<bigint> {
    const { node } = await this.o.networks.node(networkId);
    const [record] = await node.accountHistory({
      address: addressFromString(address),
      limit: 1n,
      ascending: false,
      irreversible: false,
    });
    return record?.seq_num ?? -1n;
  }

  private show(notification: WalletNotification): void {
    if (!this.enabled || this.shown.has(notification.id)) return;
    this.shown.add(notification.id);
    this.o.emit(notification);
  }

  /** Decodes a followed transaction once, while the follower still holds it. */
  private async remember(id: string): Promise<void> {
    const entry = this.o.pending.get(id);
    if (!entry || this.sent.has(id)) return;
    // Its sender is the account whose nonce it uses: the payer may be another account, or the free mana sharer.
    const sender = nonceAccountOf(entry);
    const account = this.o.accounts().find((a) => a.address === sender);
    this.sent.set(id, { entries: [], ...(account ? { accountId: account.id } : {}) });
    const tokens = await this.o.tokens.known(entry.networkId).catch(() => []);
    const entries = transactionEntries(
      entry.transaction,
      expectedTokenEvents(entry.transaction, tokens),
      sender,
      tokens,
    );
    const current = this.sent.get(id);
    if (current) this.sent.set(id, { ...current, entries });
  }

  private arm(delay: number): void {
    if (this.timer || this.checking || !this.running || !this.enabled) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.checking = true;
      void this.checkIncoming()
        .catch((error: unknown) =>
          this.o.log?.(`[notifications] ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => {
          this.checking = false;
          this.arm(this.o.intervalMs ?? 3000);
        });
    }, delay);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Turned on again later, the first look starts afresh: what arrived while off is not notified in a burst.
    this.seen.clear();
  }
}
