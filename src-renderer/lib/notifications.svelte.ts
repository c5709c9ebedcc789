// Notifications on the page's side: the setting, showing `notifications:new` with the browser's Notification API when
// main leaves it to the page (the browser shell), and opening the History entry a clicked notification names.
import type { NotificationSettings, NotificationTarget, WalletNotification } from '../../src-main/ipc/contract.ts';
import { call } from './ipc.ts';
import { wallet } from './wallet.svelte.ts';

/** The page's notification state. One instance, {@link notifications}. */
class NotificationState {
  settings = $state<NotificationSettings | undefined>();
  /** The browser's permission (`unsupported` without a Notification API); main's presenter needs none. */
  permission = $state<NotificationPermission | 'unsupported'>(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  /** The entry a clicked notification opened, shown on the History screen until closed. */
  focus = $state<NotificationTarget | undefined>();

  /** Loads the setting and listens to main; returns the function that stops listening. */
  start(): () => void {
    const offs = [
      window.koinos.on('notifications:new', (n) => this.#show(n)),
      window.koinos.on('notifications:open', (target) => void this.open(target)),
    ];
    void this.load();
    return () => {
      for (const off of offs) off();
    };
  }

  async load(): Promise<void> {
    try {
      this.settings = await call('notifications:get');
    } catch {
      // Without the setting nothing is shown by the page; main still decides.
    }
  }

  /**
   * Turns notifications on or off. Turning them on in the browser asks for the permission first (a browser asks only
   * in answer to a click), and the setting is saved whatever the answer: the Settings screen says when it was denied.
   */
  async setEnabled(enabled: boolean): Promise<void> {
    if (
      enabled &&
      this.settings?.presenter !== 'main' &&
      typeof Notification !== 'undefined' &&
      Notification.permission === 'default'
    ) {
      this.permission = await Notification.requestPermission();
    }
    this.settings = await call('notifications:update', { enabled });
  }

  /** Shows the History screen of the entry's account, on the entry's network, with the entry on top. */
  async open(target: NotificationTarget): Promise<void> {
    window.focus();
    // A transaction's updates come from the network it was sent on, which the user may have left since.
    if (target.networkId !== wallet.selectedNetworkId && wallet.networks.some((n) => n.id === target.networkId))
      await wallet.selectNetwork(target.networkId);
    if (target.accountId && wallet.accounts.some((a) => a.id === target.accountId))
      await wallet.selectAccount(target.accountId);
    this.focus = target;
    wallet.screen = 'history';
  }

  #show(notification: WalletNotification): void {
    if (this.settings?.presenter !== 'page' || !this.settings.enabled) return;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const shown = new Notification(notification.title, { body: notification.body, tag: notification.id });
    shown.onclick = () => void this.open(notification.target);
  }
}

/** The one instance the screens share. */
export const notifications = new NotificationState();
