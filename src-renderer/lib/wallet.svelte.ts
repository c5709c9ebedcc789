// The renderer's shared state as one rune class: vault status, settings, accounts, networks, the selected
// account's dashboard and the head block, and the status of transactions this window sent. Screens read it and
// call its methods; it refreshes the dashboard on every new head block while a screen shows its figures (and once as
// one opens after heads came), keeping the old figures until new ones come.
import type {
  AccountInfo,
  Dashboard,
  HeadInfo,
  IpcEvents,
  NetworkInfo,
  Settings,
  VaultStatus,
} from '../../src-main/ipc/contract.ts';
import { HistoryAhead, type PageFor } from './historyAhead.ts';
import { FIRST_HISTORY_PAGE } from './historyPages.ts';
import { coalesced } from './coalesced.ts';
import { call, PushCount } from './ipc.ts';
import { toProblem, type Problem } from './problem.ts';
import { applyTheme } from './theme.ts';

/** The screens of an unlocked wallet, in navigation order. */
export const SCREENS = [
  'dashboard',
  'send',
  'history',
  'nfts',
  'offline',
  'dapps',
  'accounts',
  'networks',
  'settings',
] as const;
export type Screen = (typeof SCREENS)[number];

/**
 * The screens that show the dashboard's figures (balances, mana). A new head refreshes them only while one of these is
 * open: on the others a refresh at every block (every 3 s on Koinos) asked the node for each token's balance and the
 * mana for nothing, against a public node's rate limit or an API key's quota.
 */
const FIGURE_SCREENS: ReadonlySet<Screen> = new Set(['dashboard', 'send', 'offline']);

export type TxUpdate = IpcEvents['tx:update'];

/** The wallet as the renderer sees it. One instance, {@link wallet}. */
class WalletState {
  status = $state<VaultStatus | undefined>();
  settings = $state<Settings | undefined>();
  accounts = $state.raw<AccountInfo[]>([]);
  networks = $state.raw<NetworkInfo[]>([]);
  /** Where main kept the network settings file it could not read whole (NetworkList.settingsKeptAside). */
  settingsKeptAside = $state<string | undefined>();
  selectedNetworkId = $state('');
  selectedAccountId = $state<string | undefined>();
  dashboard = $state.raw<Dashboard | undefined>();
  dashboardProblem = $state<Problem | undefined>();
  head = $state.raw<HeadInfo | undefined>();
  /** A problem loading the wallet itself (status, accounts, networks). */
  loadProblem = $state<Problem | undefined>();
  #screen = $state<Screen>('dashboard');
  /** True while the first-run flow is still adding the first account after the vault was created. */
  onboarding = $state(false);
  /** Latest status of each transaction, by id, from `tx:update`. */
  txStatus = $state<Record<string, TxUpdate>>({});
  /** The History screen's first page, fetched ahead by the Dashboard (historyAhead.ts). */
  readonly historyAhead = new HistoryAhead((accountId) =>
    call('history:page', { accountId, limit: FIRST_HISTORY_PAGE, ascending: false, irreversibleOnly: false }),
  );

  selectedAccount = $derived(this.accounts.find((a) => a.id === this.selectedAccountId));
  selectedNetwork = $derived(this.networks.find((n) => n.id === this.selectedNetworkId));
  /** The account, network and chain whose history the History screen shows, once the chain is known. */
  historyTarget = $derived.by((): PageFor | undefined => {
    const chainId = this.head?.chainId;
    if (!this.selectedAccountId || !this.selectedNetworkId || !chainId) return undefined;
    return { accountId: this.selectedAccountId, networkId: this.selectedNetworkId, chainId };
  });

  #unsubscribe: (() => void)[] = [];
  /** A head came while no screen showed the figures: the next screen that shows them refreshes them first. */
  #figuresBehind = false;
  /** Heads pushed by main (`head:new`): how a dashboard answer knows whether a head came while it was asked. */
  readonly #headPushes = new PushCount();
  /** Network lists pushed by main (`networks:changed`) and applied: a networks call's answer read before one is not. */
  readonly #networkPushes = new PushCount();
  /** Lock states pushed by main (`vault:lockState`): the status read as the page starts is not applied after one. */
  readonly #lockPushes = new PushCount();

  /** The screen on view. Opening one that shows the figures refreshes them when heads came while none did. */
  get screen(): Screen {
    return this.#screen;
  }

  set screen(screen: Screen) {
    this.#screen = screen;
    if (this.#figuresBehind && FIGURE_SCREENS.has(screen)) void this.refreshDashboard();
  }

  /** Reads the vault status and, when unlocked, everything else; subscribes to main's pushes. Call once. */
  async start(): Promise<void> {
    this.#unsubscribe.push(
      window.koinos.on('vault:lockState', (status) => {
        this.#lockPushes.add();
        void this.#onLockState(status);
      }),
      window.koinos.on('head:new', (head) => this.#onHead(head)),
      window.koinos.on('tx:update', (update) => {
        this.txStatus = { ...this.txStatus, [update.transactionId]: update };
        this.historyAhead.drop();
      }),
      // Another window (or this one) added, changed or removed a network, or chose another one.
      window.koinos.on('networks:changed', (list) => {
        if (!this.status?.unlocked) return;
        this.#networkPushes.add();
        void this.#applyNetworks(list);
      }),
    );
    // The theme comes with the settings: ask for both at once so the first paint has the right colours.
    const settings = this.loadSettings();
    let status: VaultStatus | undefined;
    try {
      status = await this.#lockPushes.unlessPushed(() => call('vault:status'));
      this.loadProblem = undefined;
    } catch (error) {
      this.loadProblem = toProblem(error, 'vault:status');
      return;
    }
    // A lock or an unlock pushed while the status was asked was applied (with what it loads).
    if (!status) return;
    this.status = status;
    await settings;
    if (status.unlocked) await this.loadUnlocked();
  }

  /** Stops listening to main (tests and hot reload). */
  stop(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await call('settings:get');
      applyTheme(this.settings.theme);
    } catch {
      // Settings may be unreadable before a wallet exists: keep the system theme.
    }
  }

  /** Loads accounts and networks after an unlock, then the dashboard of the selected account. */
  async loadUnlocked(): Promise<void> {
    try {
      const [settings, accounts, networks] = await Promise.all([
        call('settings:get'),
        call('accounts:list'),
        this.#networkPushes.unlessPushed(() => call('networks:list')),
      ]);
      this.settings = settings;
      applyTheme(settings.theme);
      this.accounts = accounts;
      if (networks) {
        this.networks = networks.networks;
        this.selectedNetworkId = networks.selectedId;
        this.settingsKeptAside = networks.settingsKeptAside;
      }
      const selected = accounts.find((a) => a.id === settings.selectedAccountId) ?? accounts[0];
      this.selectedAccountId = selected?.id;
      this.loadProblem = undefined;
    } catch (error) {
      this.loadProblem = toProblem(error, 'loading the wallet');
      return;
    }
    await this.refreshDashboard();
  }

  /** Called by the unlock and first-run screens with the status main answered. */
  async unlocked(status: VaultStatus): Promise<void> {
    this.status = status;
    if (status.unlocked) await this.loadUnlocked();
  }

  async lock(): Promise<void> {
    try {
      const status = await call('vault:lock');
      await this.#onLockState(status);
    } catch (error) {
      this.loadProblem = toProblem(error, 'vault:lock');
    }
  }

  async reloadAccounts(): Promise<void> {
    this.accounts = await call('accounts:list');
    if (!this.accounts.some((a) => a.id === this.selectedAccountId)) {
      this.selectedAccountId = this.accounts[0]?.id;
      this.dashboard = undefined;
      await this.refreshDashboard();
    }
  }

  async reloadNetworks(): Promise<void> {
    const list = await this.#networkPushes.unlessPushed(() => call('networks:list'));
    if (list) await this.#applyNetworks(list);
  }

  /** The networks and the selection as main has them; a change of selection loads the new network's dashboard. */
  async #applyNetworks({ networks, selectedId, settingsKeptAside }: IpcEvents['networks:changed']): Promise<void> {
    this.networks = networks;
    this.settingsKeptAside = settingsKeptAside;
    if (selectedId !== this.selectedNetworkId) {
      this.selectedNetworkId = selectedId;
      this.dashboard = undefined;
      this.dashboardProblem = undefined;
      this.head = undefined;
      await this.refreshDashboard();
    }
  }

  async selectAccount(id: string): Promise<void> {
    if (id === this.selectedAccountId) return;
    this.selectedAccountId = id;
    this.dashboard = undefined;
    this.dashboardProblem = undefined;
    void call('settings:update', { selectedAccountId: id }).then(
      (settings) => (this.settings = settings),
      (error: unknown) => console.warn('[renderer] could not remember the selected account', error),
    );
    await this.refreshDashboard();
  }

  async selectNetwork(id: string): Promise<void> {
    const network = await this.#networkPushes.unlessPushed(() => call('networks:select', { id }));
    // The networks:changed push of this selection (or of a later one, made in another window) came first: it chose
    // the network and loaded its dashboard.
    if (!network || this.selectedNetworkId === network.id) return;
    this.selectedNetworkId = network.id;
    this.dashboard = undefined;
    this.dashboardProblem = undefined;
    this.head = undefined;
    await this.refreshDashboard();
  }

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    this.settings = await call('settings:update', patch);
    applyTheme(this.settings.theme);
    if (patch.autoLockMinutes !== undefined && this.status) {
      this.status = { ...this.status, autoLockMinutes: this.settings.autoLockMinutes };
    }
  }

  /**
   * Fetches the selected account's dashboard. Calls that arrive while one is under way are folded into one more
   * call after it, so a burst of head blocks costs two requests; the old figures stay on screen meanwhile.
   */
  readonly refreshDashboard = coalesced(async () => {
    const accountId = this.selectedAccountId;
    const networkId = this.selectedNetworkId;
    if (!accountId || !this.status?.unlocked) return;
    this.#figuresBehind = false;
    const headPushed = this.#headPushes.mark();
    try {
      const dashboard = await call('dashboard:get', { accountId });
      if (accountId === this.selectedAccountId && networkId === this.selectedNetworkId) {
        this.dashboard = dashboard;
        // The answer's head was read after the ask, so it is newer than every head pushed before it. A head pushed
        // meanwhile may be newer than the answer's (a block came, the chain was reset): it stays on screen, and the
        // refresh it asked for runs next. Heights are not compared: after a revert the newer head is the lower one.
        if (!headPushed()) this.head = dashboard.head;
        this.dashboardProblem = undefined;
      }
    } catch (error) {
      if (accountId === this.selectedAccountId && networkId === this.selectedNetworkId)
        this.dashboardProblem = toProblem(error, 'dashboard:get');
    }
  });

  /** Asks for History's first page ahead of its opening (historyAhead.ts), once the chain is known. */
  fetchHistoryAhead(): void {
    const target = this.historyTarget;
    if (target) this.historyAhead.fetch(target);
  }

  #onHead(head: HeadInfo): void {
    if (!this.status?.unlocked) return;
    if (this.selectedNetworkId && head.networkId !== this.selectedNetworkId) return;
    this.#headPushes.add();
    this.head = head;
    if (FIGURE_SCREENS.has(this.#screen)) void this.refreshDashboard();
    else this.#figuresBehind = true;
  }

  async #onLockState(status: VaultStatus): Promise<void> {
    const wasUnlocked = this.status?.unlocked ?? false;
    this.status = status;
    if (!status.unlocked) this.#forget();
    else if (!wasUnlocked) await this.loadUnlocked();
  }

  /** Drops everything tied to the unlocked wallet; screens holding secrets are unmounted by the App. */
  #forget(): void {
    this.accounts = [];
    this.dashboard = undefined;
    this.dashboardProblem = undefined;
    this.txStatus = {};
    this.historyAhead.drop();
    this.onboarding = false;
    this.#figuresBehind = false;
    this.#screen = 'dashboard';
  }
}

/** The one instance the screens share. */
export const wallet = new WalletState();
