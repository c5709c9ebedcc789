// The vault's vocabulary: its status, settings, accounts and the secrets it shows once. Types only: the IPC contract
// re-exports them for the renderer, and the wallet's modules import them from here.
import type { ContactMergeSummary } from '../addressBookTypes.ts';

export interface VaultStatus {
  /** A wallet (password, settings) exists in this data folder. */
  exists: boolean;
  unlocked: boolean;
  /** Where encrypted secrets live: the OS keychain, or an owner-only file when no keychain answers. */
  storage: 'keychain' | 'file';
  /** A sentence for the user when storage is `file` (why, and what it means); absent otherwise. */
  storageNotice?: string;
  /** Idle time before the wallet locks itself, in minutes (a number: a setting, not an amount). */
  autoLockMinutes: number;
}

/** The settings the vault keeps in wallet.json. */
export interface VaultSettings {
  autoLockMinutes: number;
  theme: 'system' | 'light' | 'dark';
  selectedAccountId?: string;
}

/**
 * What `settings:*` answer: the vault's settings and the selected network, which the chain settings own
 * (chain/chainSettings.ts).
 */
export interface Settings extends VaultSettings {
  selectedNetworkId: string;
}

export interface EncryptedBackup {
  /** A suggested file name, `koinos-wallet-backup-YYYY-MM-DD.json`. */
  fileName: string;
  /** The backup file's text: every secret in it is encrypted with the backup password. */
  content: string;
}

/** What `vault:importBackup` did: the wallet's accounts now, and an account of the import. */
export interface BackupImportResult {
  accounts: AccountInfo[];
  summary: BackupImportSummary;
}

export interface BackupImportSummary {
  /** The accounts the backup added, in the wallet's order. */
  addedAccountIds: string[];
  /** Watch-only accounts that the backup's key or phrase turned into signing accounts (same id, name and place). */
  upgradedAccountIds: string[];
  /** The backup's accounts the wallet had already. */
  alreadyPresent: number;
  contacts: ContactMergeSummary;
  /** Sentences on what did not go in though the accounts did (the contacts could not be saved). */
  warnings: string[];
}

export type AccountKind =
  /** Derived from a BIP39 phrase kept in the vault, at m/44'/659'/index'/0/0. */
  | 'phrase'
  /** An imported private key (WIF or hex). */
  | 'key'
  /** An address only: balances and history, no signing. */
  | 'watch';

export interface AccountInfo {
  id: string;
  name: string;
  address: string;
  kind: AccountKind;
  /** For `phrase` accounts: which phrase (accounts of one phrase share it) and the derivation index. */
  phraseId?: string;
  derivationIndex?: number;
  /** Imported from the local devnet's published development keys: never for real funds. */
  developmentOnly?: boolean;
}

export interface NewPhrase {
  /** Identifies this not-yet-saved phrase for `accounts:confirmPhrase`; it expires when the wallet locks. */
  draftId: string;
  /** The words, shown once so the user can write them down. */
  words: string[];
  /** 1-based positions of the words the user must type back to confirm. */
  checkPositions: number[];
}

/** What `accounts:discover` found of a phrase on the selected network. */
export interface AccountDiscovery {
  networkName: string;
  /** The accounts added, in index order: every one up to the last used (empty: none looked at was used). */
  added: AccountInfo[];
  /** The first and the last index looked at. */
  checkedFrom: number;
  checkedThrough: number;
}

export interface RevealedSecret {
  kind: 'phrase' | 'wif';
  secret: string;
}
