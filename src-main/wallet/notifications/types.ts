// The notifier's vocabulary: a notification, what it opens, and its settings. Types only: the IPC contract re-exports
// them for the renderer.

/** What a notification opens when clicked: the History entry of a transaction. */
export interface NotificationTarget {
  networkId: string;
  transactionId: string;
  /** The wallet's account the entry belongs to (the History screen shows that account). */
  accountId?: string;
}

/** A desktop notification, decided and worded in main; a shell (or the page) only shows it. */
export interface WalletNotification {
  /** Unique per notification; a repeated id is the same notification (shown once). */
  id: string;
  title: string;
  body: string;
  target: NotificationTarget;
}

export interface NotificationSettings {
  /** On by default; off: nothing is notified. */
  enabled: boolean;
  /**
   * Who shows them: `main` (the Electron shell, with the system's notifications) or `page` (the browser shell: the
   * page shows `notifications:new` with the browser's Notification API, after asking for permission).
   */
  presenter: 'main' | 'page';
}
