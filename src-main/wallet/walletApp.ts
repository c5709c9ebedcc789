// The wallet's one composition root: builds the vault and the chain services from a data folder and a keychain,
// and joins their events into the IPC pushes. The Electron shell, the browser shell and the tests all start the
// wallet through createWalletApp(); what each channel does is in walletChannels.ts.
import type { NotificationTarget } from './notifications/types.ts';
import type { IpcHandlers } from '../ipc/dispatcher.ts';
import { WalletError, causeText } from '../koinos/errors.ts';
import { ApprovalQueue, type Approver } from './approvals/approvalQueue.ts';
import { createEventHub, type IpcEventSource } from '../ipc/eventHub.ts';
import { FileChainSettings } from './chain/chainSettings.ts';
import { createChainServices } from './chain/chainServices.ts';
import { approvalsLog } from './approvals/approvalsLog.ts';
import { EmbeddedDevnet, type EmbeddedDevnetOptions } from './chain/embeddedDevnet.ts';
import { HeadWatcher } from './chain/headWatcher.ts';
import { NftService } from './chain/nfts.ts';
import type { MediaFetchOptions } from './chain/nftImages.ts';
import { NftTransferService } from './chain/nftTransfer.ts';
import { AllowanceService } from './chain/allowances.ts';
import { PendingTransactions } from './chain/pendingTransactions.ts';
import { DappService } from './dapps/dappService.ts';
import { DappStore } from './dapps/dappStore.ts';
import { WalletConnectBridge } from './dapps/walletConnect.ts';
import { storageKey } from './dapps/walletConnectStorage.ts';
import { Notifier } from './notifications/notifier.ts';
import { loadKeytar, type Keychain } from './vault/secretStore.ts';
import { Vault, type VaultOptions } from './vault/vault.ts';
import { walletChannels, type WalletServices } from './walletChannels.ts';
import { AddressBook, knownAddresses as knownAddressesOf } from './addressBook.ts';
import { HistoryNotes } from './historyNotes.ts';
import { NameResolver } from './chain/names.ts';

export interface WalletAppOptions {
  /** The app's data folder: wallet.json, network settings, the devnet's chain, the key file when no keychain answers. */
  dataDir: string;
  /** The OS keychain (default: keytar). */
  keychain?: Keychain;
  /** Vault options for tests: a unique keychain service, a cheap scrypt cost, a hand-driven clock. */
  vault?: Pick<VaultOptions, 'keychainService' | 'scryptCost' | 'clock' | 'writeFile'>;
  /** The embedded devnet: its port (default 8080, any free one when taken; 0 for any) and devnet options. */
  devnet?: Pick<EmbeddedDevnetOptions, 'port' | 'devnet'>;
  /** Polling intervals (tests poll faster): the head (default 3 s) and followed transactions (default 1 s). */
  polling?: { headMs?: number; transactionsMs?: number };
  /** Receives log lines (default: console.error). Never given a secret. */
  log?: (line: string) => void;
  /**
   * Who approves signing requests: Electron passes a dialog main draws itself; by default (the browser shell, tests)
   * an approval needs the wallet password, which the page does not hold.
   */
  approver?: Approver;
  /**
   * Who shows notifications: `main` when the shell shows `notifications:new` itself (Electron), `page` (default) when
   * the page does (the browser shell, with the browser's Notification API).
   */
  notificationPresenter?: 'main' | 'page';
  /**
   * How NFT media is fetched, for tests only (a cap, a timeout, loopback allowed for their servers on 127.0.0.1). The
   * shells never set it, and no channel or setting reaches it.
   */
  nftMedia?: MediaFetchOptions;
  /** Opens a kondor-js page in a window of the shell's own (`dapps:openPage`); absent, that channel is refused. */
  openDappPage?: (url: string) => void;
  /** Where KOINOS_WALLET_WC_RELAY_URL and KOINOS_WALLET_WC_PROJECT_ID are read (default: process.env). */
  env?: Record<string, string | undefined>;
}

export interface WalletApp {
  /** Every channel of the contract. */
  readonly handlers: IpcHandlers;
  /** Push events: head:new (polled while someone listens), vault:lockState, tx:update. */
  readonly events: IpcEventSource;
  /** dApp connections, for a shell's own dApp transport (kondor pages in a wallet-owned window). */
  readonly dapps: DappService;
  /** Records user activity: restarts the vault's idle timer. */
  touch(): void;
  /** A notification shown by the shell was clicked: the window opens its entry (`notifications:open`). */
  openNotification(target: NotificationTarget): void;
  /** Locks the vault now (the machine sleeps, the screen locks). */
  lock(): Promise<void>;
  /** Locks, stops following transactions and polling, and stops the embedded devnet. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the wallet of a data folder; the embedded devnet starts on first use.
 * @throws WalletError VAULT_CORRUPT when wallet.json is not one this wallet wrote.
 * @example
 * const wallet = await createWalletApp({ dataDir: app.getPath('userData') });
 * const status = await wallet.handlers['vault:status']();
 * await wallet.close();
 */
export async function createWalletApp(options: WalletAppOptions): Promise<WalletApp> {
  const log = options.log ?? ((line: string) => console.error(line));
  const vault = await Vault.open({
    dataDir: options.dataDir,
    keychain: options.keychain ?? (await loadKeytar()),
    ...options.vault,
  });
  const devnet = new EmbeddedDevnet({
    dataDir: options.dataDir,
    log: (line) => log(`[devnet] ${line}`),
    ...options.devnet,
  });
  const settings = new FileChainSettings(options.dataDir);
  // The chain settings own the network selection; a wallet.json from before keeps its selection through this hand-over.
  await vault.handOverSelectedNetwork((id) =>
    settings.update((d) => {
      d.selectedNetworkId ??= id;
    }),
  );
  // What was sent in the last run and is not irreversible yet is followed again (resumed below, once listened to).
  const pending = await PendingTransactions.open(options.dataDir, log);
  const approvals = new ApprovalQueue({
    approver: options.approver ?? { mode: 'password', checkPassword: (password) => vault.verifyPassword({ password }) },
    // Every decision, approved or not, is kept beside the wallet (no secret is in a record).
    record: approvalsLog(options.dataDir),
    // Nobody is asked to approve what the vault could not sign: a locked wallet, a watch-only or unknown account.
    // Every signer counts: a payer account signs under the same approval as the sender (coSigners).
    admit: (review) => {
      if (!vault.status().unlocked)
        throw new WalletError('VAULT_LOCKED', 'The wallet is locked. Unlock it, then sign again.');
      // A connection signs nothing: watch-only accounts may be granted (their signing requests are refused later).
      if (review.kind === 'connect') return;
      for (const signer of [review.signer, ...(review.coSigners ?? [])]) {
        const accounts = vault.listAccounts().filter((a) => a.address === signer);
        if (accounts.length === 0)
          throw new WalletError('ACCOUNT_NOT_FOUND', `expected an account of this wallet to sign, got ${signer}`);
        if (accounts.every((a) => a.kind === 'watch')) {
          throw new WalletError(
            'WATCH_ONLY',
            `${signer} is watch-only: the wallet has no key to sign with. Import its key or phrase to sign.`,
          );
        }
      }
    },
  });
  const addressBook = new AddressBook(options.dataDir);
  // What a review compares a transfer's recipient with: the wallet's accounts, its contacts and its recipients.
  const knownAddresses = knownAddressesOf(addressBook, () => vault.listAccounts());
  const chain = createChainServices({
    settings,
    apiKeys: vault.apiKeys,
    localDevnetUrl: () => devnet.url(),
    approvals,
    signer: vault,
    pending,
    knownAddresses,
    ...(options.polling?.transactionsMs !== undefined ? { followIntervalMs: options.polling.transactionsMs } : {}),
  });
  const { networks, tokens, follower, send, offline, history, dashboard } = chain;
  const heads = new HeadWatcher({ networks, intervalMs: options.polling?.headMs });
  const nfts = new NftService({ networks, settings, ...(options.nftMedia ? { media: options.nftMedia } : {}) });
  // What the wallet's own calls for an account (an NFT sent, an allowance taken back) are reviewed and sent with.
  const ownCalls = { networks, tokens, nfts, pending, follower, signer: vault, approvals, knownAddresses };
  const nftTransfers = new NftTransferService(ownCalls);
  const allowances = new AllowanceService(ownCalls);

  const hub = createEventHub(log);
  const dappStore = await DappStore.open(options.dataDir);
  const dapps = new DappService({
    vault,
    networks,
    tokens,
    pending,
    follower,
    approvals,
    store: dappStore,
    knownAddresses,
  });
  // The dApps screen's list after a change of the grants or of WalletConnect's state.
  const pushConnections = () => hub.emit('dapps:changed', dapps.connections(walletConnect.status()));
  const walletConnect = new WalletConnectBridge({
    dataDir: options.dataDir,
    service: dapps,
    store: dappStore,
    ...(options.env ? { env: options.env } : {}),
    log,
    onChange: pushConnections,
    storageKey: (path) => storageKey(vault.apiKeys, path),
  });
  const stopDappEvents = dapps.onChange(pushConnections);
  const notifier = await Notifier.open({
    dataDir: options.dataDir,
    networks,
    tokens,
    pending,
    follower,
    history,
    accounts: () => vault.listAccounts(),
    emit: (notification) => hub.emit('notifications:new', notification),
    presenter: options.notificationPresenter ?? 'page',
    intervalMs: options.polling?.headMs,
    knownAddresses,
    log,
  });
  const services: WalletServices = {
    vault,
    devnet,
    networks,
    tokens,
    send,
    offline,
    history,
    dashboard,
    approvals,
    nfts,
    nftTransfers,
    allowances,
    notifier,
    names: new NameResolver({ networks, tokens }),
    addressBook,
    historyNotes: new HistoryNotes(options.dataDir),
    log,
    dapps,
    walletConnect,
    exportProgress: (progress) => hub.emit('history:exportProgress', progress),
    ...(options.openDappPage ? { openDappPage: options.openDappPage } : {}),
  };

  const stopLockEvents = vault.onLockChange((status) => {
    // A locked wallet signs nothing: what waited for a decision is rejected, not left to be approved after unlocking.
    if (!status.unlocked) approvals.rejectAll('the wallet locked');
    // Without a keychain, WalletConnect's file opens with a key sealed under the password: its sessions come back now.
    else void walletConnect.resume();
    hub.emit('vault:lockState', status);
  });
  const stopApprovalEvents = approvals.onChange((state) => hub.emit('approvals:changed', state));
  // Each push carries the list as it is once its change is written, read one after the other: two quick changes (an
  // add, then a removal) arrive in their order, the last with the last state.
  let networkPushes = Promise.resolve();
  const stopNetworkEvents = networks.onChange(() => {
    networkPushes = networkPushes
      .then(() => networks.list())
      .then(
        (list) => hub.emit('networks:changed', list),
        (error: unknown) => log(`the networks:changed push was not sent: ${causeText(error)}`),
      );
  });
  const stopTxEvents = follower.on((update) => hub.emit('tx:update', update));
  notifier.start();
  follower.resume();
  // Sessions of the last run are restored in the background; a relay that does not answer is shown on the dApps screen.
  void walletConnect.resume();

  // The head is polled only while someone listens to head:new (a window or a browser tab is open).
  let headListeners = 0;
  let stopHeads: (() => void) | undefined;
  const events: IpcEventSource = {
    on(event, listener) {
      const off = hub.on(event, listener);
      if (event !== 'head:new') return off;
      if (headListeners++ === 0) stopHeads = heads.subscribe((head) => hub.emit('head:new', head));
      let subscribed = true;
      return () => {
        off();
        if (!subscribed) return;
        subscribed = false;
        if (--headListeners === 0) {
          stopHeads?.();
          stopHeads = undefined;
        }
      };
    },
  };

  let closing: Promise<void> | undefined;
  return {
    handlers: walletChannels(services),
    events,
    dapps,
    touch: () => vault.touch(),
    openNotification: (target) => hub.emit('notifications:open', target),
    lock: async () => {
      vault.lock();
    },
    close() {
      closing ??= (async () => {
        vault.lock();
        stopHeads?.();
        stopLockEvents();
        stopTxEvents();
        approvals.close('the wallet closed');
        dapps.close();
        stopDappEvents();
        await walletConnect.close();
        stopApprovalEvents();
        stopNetworkEvents();
        notifier.stop();
        // A transfer on its way to the node, and what a look at the node under way learns, are written with the rest
        // before the data folder is let go.
        await follower.stop();
        await pending.flush();
        await devnet.close();
      })();
      return closing;
    },
  };
}
