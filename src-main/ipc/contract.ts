// The one IPC contract between the renderer and main: channel names, their arguments and results, push events,
// and the envelope every call answers with. Types only plus runtime lists, so the renderer and preload may import it.
// Every value is JSON-safe: amounts and 64-bit integers are decimal strings (base units), never numbers.
// Results and events never carry a private key, phrase, password or API key; the one exception is
// `accounts:reveal`, which answers only after the password was given again, and the phrase of `accounts:newPhrase`,
// which the user must see once to write it down.
import type { WalletErrorJson } from '../koinos/errors.ts';

/** A decimal string of an unsigned integer in base units (KOIN: 1 = 0.00000001 KOIN). */
export type UintString = string;

// ---- Vault and settings -------------------------------------------------------------------------------------------

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

export interface Settings {
  autoLockMinutes: number;
  theme: 'system' | 'light' | 'dark';
  selectedAccountId?: string;
  selectedNetworkId: string;
}

export interface EncryptedBackup {
  /** A suggested file name, `koinos-wallet-backup-YYYY-MM-DD.json`. */
  fileName: string;
  /** The backup file's text: every secret in it is encrypted with the backup password. */
  content: string;
}

// ---- Accounts -----------------------------------------------------------------------------------------------------

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

export interface RevealedSecret {
  kind: 'phrase' | 'wif';
  secret: string;
}

// ---- Networks -----------------------------------------------------------------------------------------------------

export interface NetworkInfo {
  id: string;
  name: string;
  kind: 'local' | 'testnet' | 'mainnet' | 'custom';
  jsonRpcUrl: string;
  restUrl?: string;
  /** True when an API key is stored (in the keychain) for this network; the key itself never crosses. */
  hasApiKey: boolean;
}

export interface NetworkInput {
  name: string;
  jsonRpcUrl: string;
  restUrl?: string;
  /** A new API key; `null` removes the stored one; absent keeps it. */
  apiKey?: string | null;
}

export interface HeadInfo {
  networkId: string;
  chainId: string;
  height: UintString;
  /** Head block time, epoch milliseconds. */
  time: UintString;
  lastIrreversible: UintString;
  /** How far the head block time is behind this machine's clock, in milliseconds (0 when ahead). */
  lagMs: UintString;
  /** The head lags by minutes: the chain or the node is stuck. */
  stale: boolean;
  /** The chain ID differs from the one last seen on this network (a testnet restart): previous and current. */
  chainIdChanged?: { previous: string; current: string };
}

export interface DevnetStatus {
  running: boolean;
  /** Base URL of the devnet's HTTP server (JSON-RPC at `${url}/jsonrpc`). */
  url?: string;
  chainId?: string;
  headHeight?: UintString;
  /** Its published development accounts: for development only, never for real funds. */
  accounts: { index: number; address: string }[];
  /** Where its system and community contracts are: the devnet's own places, or mainnet's or harbinger's addresses. */
  shape?: LocalShape;
}

export type LocalShape = 'plain' | 'mainnet' | 'harbinger';

// ---- Tokens, dashboard, history -----------------------------------------------------------------------------------

export interface TokenInfo {
  /** Contract address (base58). */
  contract: string;
  name: string;
  symbol: string;
  decimals: number;
  /** Set for the chain's system tokens, resolved by system name. */
  system?: 'koin' | 'vhp';
}

export interface TokenBalance {
  token: TokenInfo;
  /** Base units; absent when the contract could not say (see `problem`). */
  balance?: UintString;
  /** Why there is no balance, for a token the user added: its contract is gone from this network, or it is no token. */
  problem?: string;
}

export interface ManaInfo {
  /** Current mana, base units (same units as KOIN). */
  current: UintString;
  /** Maximum mana: the KOIN balance. */
  max: UintString;
  /** Mana held by this wallet's pending transactions (their rc_limit). */
  pending: UintString;
  /** Milliseconds until mana is full again; "0" when full. */
  fullInMs: UintString;
}

export interface Dashboard {
  networkId: string;
  networkName: string;
  accountId: string;
  address: string;
  head: HeadInfo;
  balances: TokenBalance[];
  mana: ManaInfo;
}

/** The KOIN balance of every account of the wallet on the selected network (the Accounts screen's list). */
export interface AccountBalances {
  token: TokenInfo;
  balances: { accountId: string; balance: UintString }[];
}

export type HistoryKind = 'sent' | 'received' | 'minted' | 'burned' | 'approved' | 'call' | 'event';

export interface HistoryEntry {
  kind: HistoryKind;
  /** The token involved, when the record is a token movement. */
  token?: TokenInfo;
  amount?: UintString;
  /** The other side of a transfer or approval. */
  counterparty?: string;
  /** Entry point or event name, for calls and other events. */
  name?: string;
  contract?: string;
}

export interface HistoryRecord {
  /** Account history sequence number; absent for this wallet's pending transactions. */
  seqNum?: UintString;
  status: 'pending' | 'included' | 'irreversible';
  transactionId?: string;
  blockId?: string;
  blockHeight?: UintString;
  /** Epoch milliseconds, when known. */
  time?: UintString;
  payer?: string;
  rcUsed?: UintString;
  reverted?: boolean;
  entries: HistoryEntry[];
}

export interface HistoryQuery {
  accountId: string;
  limit: number;
  /** Start at this sequence number (inclusive); absent: the newest (descending) or the oldest (ascending). */
  seqNum?: UintString;
  ascending: boolean;
  irreversibleOnly: boolean;
}

export interface HistoryPage {
  records: HistoryRecord[];
  /** The seqNum to ask for next in the same order; absent at the end. */
  next?: UintString;
}

// ---- Send and offline signing -------------------------------------------------------------------------------------

export interface TransferInput {
  fromAccountId: string;
  to: string;
  /** Token contract address, or `koin` / `vhp`. */
  token: string;
  /** Decimal amount as typed (for example "1.5"), in the token's units. */
  amount: string;
  /** Set by hand, base units of mana; absent: automatic, from a dry run after the approval. */
  rcLimit?: UintString;
  /** Who pays the mana; absent: the sending account. */
  payer?: TransferPayer;
  /**
   * The `@nickname` or KAP name the user typed, when `to` came from resolving it: main resolves it again and refuses the
   * review when it no longer points to `to`.
   */
  recipientName?: string;
}

/**
 * Who pays a transfer's mana instead of the sender: another account of this wallet (it signs too), or the network's
 * free mana sharer (a contract that approves by itself, within its cap).
 */
export type TransferPayer = { kind: 'account'; accountId: string } | { kind: 'freeMana' };

export interface DecodedOperation {
  contract: string;
  /** Entry point name when known, else its number as a decimal string. */
  entryPoint: string;
  /** Arguments decoded to JSON when known, else base64. */
  args: unknown;
  /** One sentence: "Transfer 1.5 KOIN from 1Abc… to 1Def…". */
  summary?: string;
}

/**
 * Something in a transaction that a person must look at twice before signing it. Every review (online, offline, the
 * CLI's `tx decode`) lists them; a request with any needs an explicit second confirmation (the CLI: `--allow-risk NAME`).
 */
export type RiskCode =
  /** upload_contract: puts code at an address (any upload). */
  | 'UPLOAD_CONTRACT'
  /** upload_contract over the signer's own address: the account becomes contract code. */
  | 'REPLACES_ACCOUNT'
  | 'SET_SYSTEM_CALL'
  | 'SET_SYSTEM_CONTRACT'
  /** A call whose arguments cannot be decoded (no ABI known): they are shown as bytes. */
  | 'NO_ABI'
  /** A token transfer to the signer itself. */
  | 'SELF_TRANSFER'
  /** A call to a contract that is neither a known token nor a system contract of this network. */
  | 'UNKNOWN_CONTRACT'
  /** The network's chain ID changed since it was last seen (a restart, or another network behind the same URL). */
  | 'CHAIN_ID_CHANGED';

export interface RiskFlag {
  code: RiskCode;
  /** The flag's name for `--allow-risk` (kebab case of the code, `upload-contract`). */
  name: string;
  /** One sentence for the person deciding: what it does and why it matters. */
  message: string;
}

/** The answer of `send:maxAmount`. */
export interface MaxAmount {
  /** Base units of the token. */
  amount: UintString;
  decimals: number;
  /** The mana a transfer of this token is expected to use: an estimate, as TransactionReview's. */
  rcEstimate: UintString;
  /** `measured`: the last transfer of this token on this network; `default`: a reserve, none measured yet. */
  estimateSource: 'measured' | 'default';
}

export interface TransactionReview {
  /** Identifies the prepared transaction for `send:confirm`, which asks for the approval; it is signed only after it. */
  reviewId: string;
  networkId: string;
  networkName: string;
  chainId: string;
  /** The account that pays the mana (the sender, another account, or the free mana sharer). */
  payer: string;
  /** `self`: the sender pays; `account`: another account pays and signs; `freeMana`: the free mana sharer pays. */
  payerKind: 'self' | 'account' | 'freeMana';
  /** The sender when another account pays: the transaction's user, whose nonce it uses. */
  payee?: string;
  /** Every account whose signature the transaction gets, each covered by the one approval. */
  signers: string[];
  /** The sender's nonce. */
  nonce: UintString;
  /** The cap: the most mana the transfer may use (from the payer's mana). Its rc_limit is sized under it after the approval. */
  rcLimit: UintString;
  /** The expected cost: an estimate (see estimateSource), not a figure from the node. */
  rcEstimate: UintString;
  availableMana: UintString;
  /**
   * Where rcEstimate comes from: `measured` (the last transfer of this token on this network), or `default` (none
   * measured yet: a reserve stands in). Nothing is signed before approval, so the estimate is never a dry run.
   */
  estimateSource: 'measured' | 'default';
  operations: DecodedOperation[];
  risks: RiskFlag[];
  /** The names of the transfer's recipient on this network (reverse lookups), shown beside its full address. */
  names?: AddressNames[];
  /** The name the user typed, resolved again by main just now (it points to the recipient). */
  recipientName?: ResolvedName;
  /** No transfer from this wallet has gone to the recipient on this network before (and it is none of its accounts). */
  firstPayment?: boolean;
  /** The recipient's label in the address book, when it is a contact. */
  contactLabel?: string;
}

// ---- Names and the address book -----------------------------------------------------------------------------------

/** Which service a name comes from: the nicknames contract (`@name`) or KAP (`name.koin`). */
export type NameSource = 'nickname' | 'kap';

/** A typed name resolved on a network. */
export interface ResolvedName {
  /** The full base58 address the name points to now. */
  address: string;
  /** The name as shown: `@alice` or `alice.koin`. */
  name: string;
  source: NameSource;
  /** The contract that answered. */
  contract: string;
  flags: {
    /** nicknames: the address can never change. */
    permanentAddress: boolean;
    /** nicknames: only governance can change the address (as for @koin). */
    modifiableOnlyByGovernance: boolean;
    /** Whoever holds the name can point it elsewhere (Kondor warns of this): check the address, not only the name. */
    ownerCanChange: boolean;
    /** KAP: when the name expires, epoch milliseconds. */
    expiration?: UintString;
  };
}

/** The names of one address on a network. */
export interface AddressNames {
  address: string;
  /** Its main nickname (`@alice`), only when that nickname points back to this address. */
  nickname?: string;
  /** KAP names it owns (`alice.koin`), at most three. */
  kap: string[];
}

/** An address-book entry: a label for an address on one network. */
export interface Contact {
  id: string;
  label: string;
  address: string;
  networkId: string;
  /** Epoch milliseconds. */
  addedAt: UintString;
}

/** An address this wallet sent to on a network. */
export interface RecentRecipient {
  address: string;
  networkId: string;
  /** Epoch milliseconds of the last transfer to it. */
  lastSentAt: UintString;
  /** The name typed for it the last time, if any. */
  name?: string;
}

/** The address book of one network: contacts, then recent recipients (newest first). */
export interface AddressBookView {
  networkId: string;
  contacts: Contact[];
  recent: RecentRecipient[];
}

// ---- Approvals ------------------------------------------------------------------------------------------------------

/** What a person approves: built in main from the bytes that will be signed, never taken from the requester. */
export interface ApprovalReview {
  /**
   * `send`: signed and sent to the network at once; `sign`: signed and handed back (offline signing, a dApp);
   * `connect`: a dApp asks for accounts and methods (see `connection`; nothing is signed); `message`: a text message
   * signed for a dApp (see `message`). The transaction fields of a `connect` or `message` review are empty.
   */
  kind: 'send' | 'sign' | 'connect' | 'message';
  /** Who asks: `This wallet` for the wallet's own screens, else a dApp's origin. */
  origin: string;
  networkName?: string;
  chainId: string;
  /** The account whose key signs. */
  signer: string;
  /** Other accounts whose keys sign the same transaction under this approval (a payer account of the wallet). */
  coSigners?: string[];
  payer: string;
  payee?: string;
  nonce: UintString;
  /** The most mana the transaction may use (its rc_limit, or the cap rc_limit is sized under after approval). */
  rcLimit: UintString;
  /** Expected cost, when known; an estimate, never the result of a signed dry run. */
  rcEstimate?: UintString;
  operations: DecodedOperation[];
  risks: RiskFlag[];
  /** Kind `connect`: what the dApp asks for, and the accounts the person may grant. */
  connection?: DappConnectionRequest;
  /** Kind `message`: the text to sign, exactly as it will be signed (UTF-8). */
  message?: string;
}

/** A dApp's request for a connection (a grant: which accounts, which methods), as a person reviews it. */
export interface DappConnectionRequest {
  /** The dApp's name and address as the dApp itself declares them: not verified by anyone. */
  name: string;
  url: string;
  description?: string;
  transport: DappTransport;
  /** CAIP-2 chains (`koinos:<first 32 characters of the chain ID>`) and the network each is on this wallet. */
  chains: { chain: string; networkName: string }[];
  /** The methods granted with the connection (reads and signing requests; refused methods are left out). */
  methods: string[];
  /** The accounts proposed: what a dialog approves as it is. */
  accounts: string[];
  /** Every account the person may grant instead (watch-only ones answer signing requests with an error). */
  available: { address: string; name: string; watchOnly: boolean }[];
}

/** What carried a dApp's requests: WalletConnect's relay, or a page the wallet opened in a window of its own (kondor-js). */
export type DappTransport = 'walletconnect' | 'window';

/** A dApp's grant: which accounts and methods an origin may use, and over what. */
export interface DappGrantInfo {
  origin: string;
  name: string;
  url: string;
  transport: DappTransport;
  chains: string[];
  accounts: string[];
  methods: string[];
  /** Epoch milliseconds. */
  grantedAt: UintString;
}

/** Where WalletConnect's relay is, and whether the wallet reaches it. */
export interface WalletConnectStatus {
  relayUrl: string;
  /** True when a project ID is set (it is required by the public relay). */
  hasProjectId: boolean;
  /** `env`: KOINOS_WALLET_WC_RELAY_URL / KOINOS_WALLET_WC_PROJECT_ID override the settings. */
  source: 'settings' | 'env';
  /** `off`: not started (no pairing yet, or no project ID); `connecting`; `connected`; `unreachable` (see problem). */
  state: 'off' | 'connecting' | 'connected' | 'unreachable';
  /** A sentence for the user when the relay cannot be reached or used. */
  problem?: string;
}

export interface DappConnections {
  grants: DappGrantInfo[];
  walletConnect: WalletConnectStatus;
}

export interface WalletConnectSettings {
  /** A ws:// or wss:// URL ('' : the public relay). */
  relayUrl: string;
  /** The WalletConnect Cloud project ID ('' : none). */
  projectId: string;
}

export interface ApprovalRequest {
  id: string;
  /** Epoch milliseconds. */
  createdAt: UintString;
  /** Epoch milliseconds; the request is rejected when it has not been answered by then. */
  expiresAt: UintString;
  review: ApprovalReview;
}

export interface ApprovalState {
  /**
   * How approvals are given: `dialog`, on a surface main draws itself (Electron's native dialog; the window can only
   * reject); `password`, with the wallet password typed into the answer (the browser shell, where main owns no surface).
   */
  mode: 'dialog' | 'password';
  pending: ApprovalRequest[];
}

export interface ApprovalAnswer {
  requestId: string;
  approve: boolean;
  /** The wallet password: needed to approve in `password` mode. */
  password?: string;
  /** Every risk flag's code of the request, repeated: the second confirmation a flagged request needs. */
  acknowledgedRisks?: RiskCode[];
  /** Kind `connect`: the accounts the person grants (of the request's `available`); absent: the proposed ones. */
  accounts?: string[];
}

export interface ReceiptEvent {
  name: string;
  source: string;
  impacted: string[];
  data: unknown;
}

export interface SubmitReceipt {
  transactionId: string;
  rcUsed: UintString;
  rcLimit: UintString;
  reverted: boolean;
  events: ReceiptEvent[];
  /** `false` for a dry run (broadcast false): nothing was changed or sent. */
  broadcast: boolean;
}

export interface TransactionWarning {
  code: 'CHAIN_ID_MISMATCH' | 'NONCE_USED' | 'ID_MISMATCH' | 'MERKLE_MISMATCH' | 'SIGNER_NOT_PAYER' | 'UNSIGNED' | 'UNKNOWN_CONTRACT';
  message: string;
}

export interface InspectedTransaction {
  /** The transaction as URL-safe base64 of its canonical bytes, and as gateway JSON. */
  base64: string;
  json: unknown;
  id?: string;
  chainId: string;
  payer: string;
  /** The account whose nonce it uses, when it names one besides the payer. */
  payee?: string;
  nonce: UintString;
  rcLimit: UintString;
  operations: DecodedOperation[];
  signers: string[];
  /** The payer and payee who signed it already. */
  signaturesPresent: string[];
  /** The payer and payee whose signatures it still needs (a contract payer, such as the free mana sharer, needs none). */
  signaturesNeeded: string[];
  warnings: TransactionWarning[];
  /** What must be looked at twice before signing it (assessRisks), each shown as a warning. */
  risks: RiskFlag[];
}

export type TxStatus = 'pending' | 'included' | 'irreversible' | 'failed' | 'expired';

// ---- Notifications and history export ------------------------------------------------------------------------------

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

export interface HistoryExportQuery {
  accountId: string;
  format: 'csv' | 'json';
  /** Records from this time on (epoch milliseconds, inclusive); absent: from the first. */
  from?: UintString;
  /** Records before this time (epoch milliseconds, exclusive); absent: up to the newest. */
  to?: UintString;
  /** Chosen by the caller; `history:exportProgress` events carry it. */
  exportId: string;
}

export interface HistoryExportFile {
  /** A suggested file name, `koinos-history-ADDRESS-YYYY-MM-DD.csv`. */
  fileName: string;
  /** The file's text: CSV (RFC 4180, CRLF line ends) or JSON. */
  content: string;
  /** How many rows (one per movement or call of a transaction). */
  rows: number;
}

export interface HistoryExportProgress {
  exportId: string;
  /** Account history records read so far. */
  scanned: number;
  /** At most this many records are read in all (the account's history length); the export may stop sooner. */
  total: number;
  done: boolean;
}

// ---- Channels -----------------------------------------------------------------------------------------------------

/** Every channel, named `area:verb`, with the arguments the renderer sends and the value main answers. */
export interface IpcContract {
  'vault:status': { args: []; result: VaultStatus };
  'vault:create': { args: [{ password: string }]; result: VaultStatus };
  'vault:unlock': { args: [{ password: string }]; result: VaultStatus };
  'vault:lock': { args: []; result: VaultStatus };
  'vault:changePassword': { args: [{ oldPassword: string; newPassword: string }]; result: VaultStatus };
  'vault:exportBackup': { args: [{ password: string; backupPassword: string }]; result: EncryptedBackup };
  'vault:importBackup': { args: [{ content: string; backupPassword: string }]; result: AccountInfo[] };

  'settings:get': { args: []; result: Settings };
  'settings:update': { args: [Partial<Settings>]; result: Settings };

  'accounts:list': { args: []; result: AccountInfo[] };
  'accounts:newPhrase': { args: [{ words: 12 | 24 }]; result: NewPhrase };
  'accounts:confirmPhrase': { args: [{ draftId: string; name: string; checks: { position: number; word: string }[] }]; result: AccountInfo };
  'accounts:importPhrase': { args: [{ phrase: string; name: string }]; result: AccountInfo };
  'accounts:importKey': { args: [{ key: string; name: string }]; result: AccountInfo };
  'accounts:addWatch': { args: [{ address: string; name: string }]; result: AccountInfo };
  'accounts:deriveNext': { args: [{ phraseId: string; name: string }]; result: AccountInfo };
  'accounts:rename': { args: [{ id: string; name: string }]; result: AccountInfo };
  'accounts:reorder': { args: [{ ids: string[] }]; result: AccountInfo[] };
  'accounts:remove': { args: [{ id: string; password: string }]; result: AccountInfo[] };
  'accounts:reveal': { args: [{ id: string; password: string }]; result: RevealedSecret };

  'networks:list': { args: []; result: { networks: NetworkInfo[]; selectedId: string } };
  'networks:select': { args: [{ id: string }]; result: NetworkInfo };
  'networks:add': { args: [NetworkInput]; result: NetworkInfo };
  /** Absent fields stay; `restUrl: ''` removes the REST URL; of a built-in network only the API key can change. */
  'networks:update': { args: [{ id: string } & Partial<NetworkInput>]; result: NetworkInfo };
  'networks:remove': { args: [{ id: string }]; result: NetworkInfo[] };
  'networks:head': { args: [{ id?: string }]; result: HeadInfo };

  'devnet:status': { args: []; result: DevnetStatus };
  'devnet:reset': { args: []; result: DevnetStatus };
  'devnet:importAccount': { args: [{ index: number; watchOnly: boolean }]; result: AccountInfo };
  /** Replaces the Local network's chain with a new one shaped like mainnet, harbinger, or the devnet's own (plain). */
  'devnet:setShape': { args: [{ like: LocalShape }]; result: DevnetStatus };

  'tokens:list': { args: [{ networkId?: string }]; result: TokenInfo[] };
  /** What the contract at this address says of itself now, on the selected network; nothing is remembered. */
  'tokens:inspect': { args: [{ contract: string }]; result: TokenInfo };
  'tokens:add': { args: [{ contract: string }]; result: TokenInfo };
  'tokens:remove': { args: [{ contract: string }]; result: TokenInfo[] };

  'dashboard:get': { args: [{ accountId: string }]; result: Dashboard };
  'history:page': { args: [HistoryQuery]; result: HistoryPage };

  /** The most the account can send now (for KOIN, the mana minus the expected cost), and that expected cost. */
  'send:maxAmount': { args: [{ fromAccountId: string; token: string }]; result: MaxAmount };
  'send:prepare': { args: [TransferInput]; result: TransactionReview };
  'send:confirm': { args: [{ reviewId: string }]; result: SubmitReceipt };

  'offline:exportUnsigned': { args: [TransferInput]; result: InspectedTransaction };
  'offline:inspect': { args: [{ input: string }]; result: InspectedTransaction };
  'offline:sign': { args: [{ input: string; accountId: string }]; result: InspectedTransaction };
  'offline:submit': { args: [{ input: string; broadcast: boolean }]; result: SubmitReceipt };

  /** The signing requests waiting for a decision. Showing them is all a window can do in `dialog` mode. */
  'approvals:list': { args: []; result: ApprovalState };
  /** Approves (password mode only, with the password) or rejects (either mode) one pending request. */
  'approvals:answer': { args: [ApprovalAnswer]; result: { requestId: string; approved: boolean } };

  /** The user has read the notice of this network's chain ID change: it is no longer reported with the head. */
  'networks:dismissChainIdChange': { args: [{ id: string }]; result: NetworkInfo };
  'notifications:get': { args: []; result: NotificationSettings };
  'notifications:update': { args: [{ enabled: boolean }]; result: NotificationSettings };
  /** The account's history between two times as a file; progress comes as `history:exportProgress`. */
  'history:export': { args: [HistoryExportQuery]; result: HistoryExportFile };
  /** Only the KOIN balance of each account, in one call: the list of accounts needs no dashboard per account. */
  'accounts:koinBalances': { args: []; result: AccountBalances };
  /** The KCS-5 collections added on a network (default: the selected one). */
  'nfts:collections': { args: [{ networkId?: string }]; result: NftCollectionInfo[] };
  /** What the contract at this address says of itself now, checked against KCS-5; nothing is remembered. */
  'nfts:inspectCollection': { args: [{ contract: string }]; result: NftCollectionInfo };
  'nfts:addCollection': { args: [{ contract: string }]; result: NftCollectionInfo };
  'nfts:removeCollection': { args: [{ contract: string }]; result: NftCollectionInfo[] };
  /** The NFTs the account owns in every added collection of the selected network (`get_tokens_by_owner`). */
  'nfts:owned': { args: [{ accountId: string }]; result: NftOwned };
  /** The image of one NFT listed by `nfts:owned`, fetched by main and checked to be a raster image. */
  'nfts:image': { args: [{ contract: string; tokenId: string }]; result: { dataUrl: string } };
  'nfts:imageSettings': { args: []; result: NftImageSettings };
  'nfts:updateImageSettings': { args: [Partial<NftImageSettings>]; result: NftImageSettings };
  /** Builds the transfer of one NFT and its review; nothing is signed. */
  'nfts:prepareTransfer': { args: [NftTransferInput]; result: TransactionReview };
  /** Asks for the approval of a prepared NFT transfer, then dry-runs, signs, submits and follows it. */
  'nfts:confirmTransfer': { args: [{ reviewId: string }]; result: SubmitReceipt };
  /** The address an `@nickname` or a KAP name (`alice.koin`) points to on the network (default: the selected one). */
  'names:resolve': { args: [{ text: string; networkId?: string }]; result: ResolvedName };
  /** The names of each address on the network (main nickname, KAP names); none where the network has no such contract. */
  'names:reverse': { args: [{ addresses: string[]; networkId?: string }]; result: AddressNames[] };
  /** Contacts and recent recipients of the network (default: the selected one). */
  'contacts:list': { args: [{ networkId?: string }]; result: AddressBookView };
  /** Adds a contact (or relabels the one with this address on this network). */
  'contacts:add': { args: [{ label: string; address: string; networkId?: string }]; result: Contact };
  'contacts:remove': { args: [{ id: string }]; result: Contact[] };
  /** The dApps connected (their grants) and the state of WalletConnect's relay. */
  'dapps:list': { args: []; result: DappConnections };
  /** Pairs with a dApp from a pasted `wc:` URI or a `koinos-wallet://wc?uri=…` link; its proposal then asks for a grant. */
  'dapps:pair': { args: [{ uri: string }]; result: DappConnections };
  /** Revokes an origin's grant and disconnects its sessions. */
  'dapps:revoke': { args: [{ origin: string }]; result: DappConnections };
  'dapps:walletConnectSettings': { args: []; result: WalletConnectSettings };
  'dapps:updateWalletConnectSettings': { args: [Partial<WalletConnectSettings>]; result: WalletConnectSettings };
  /** Opens a kondor-js dApp page (https, or http on this computer) in a wallet-owned window (the desktop app only). */
  'dapps:openPage': { args: [{ url: string }]; result: null };
}

/** Pushes from main to the renderer. */
export interface IpcEvents {
  'head:new': HeadInfo;
  'vault:lockState': VaultStatus;
  'tx:update': { transactionId: string; networkId: string; status: TxStatus; blockHeight?: UintString; message?: string };
  'approvals:changed': ApprovalState;
  /** A notification to show (the page shows it when the presenter is `page`). */
  'notifications:new': WalletNotification;
  /** A notification shown by main was clicked: open its entry. */
  'notifications:open': NotificationTarget;
  'history:exportProgress': HistoryExportProgress;
  /** A grant was given or revoked, a session ended, or the relay's state changed. */
  'dapps:changed': DappConnections;
}

export type IpcChannel = keyof IpcContract;
export type IpcArgs<C extends IpcChannel> = IpcContract[C]['args'];
export type IpcValue<C extends IpcChannel> = IpcContract[C]['result'];
export type IpcEvent = keyof IpcEvents;

/**
 * Every channel, and whether a call on it counts as the user's activity for the idle lock. Reads the screens make by
 * themselves (a refresh on every new head block, a status poll) are `background`: they must not keep an unattended
 * wallet unlocked. A record, so that the compiler fails when a channel is left out.
 */
export const CHANNEL_ACTIVITY: Readonly<Record<IpcChannel, 'user' | 'background'>> = {
  'vault:status': 'background',
  'vault:create': 'user',
  'vault:unlock': 'user',
  'vault:lock': 'user',
  'vault:changePassword': 'user',
  'vault:exportBackup': 'user',
  'vault:importBackup': 'user',
  'settings:get': 'background',
  'settings:update': 'user',
  'accounts:list': 'background',
  'accounts:newPhrase': 'user',
  'accounts:confirmPhrase': 'user',
  'accounts:importPhrase': 'user',
  'accounts:importKey': 'user',
  'accounts:addWatch': 'user',
  'accounts:deriveNext': 'user',
  'accounts:rename': 'user',
  'accounts:reorder': 'user',
  'accounts:remove': 'user',
  'accounts:reveal': 'user',
  'networks:list': 'background',
  'networks:select': 'user',
  'networks:add': 'user',
  'networks:update': 'user',
  'networks:remove': 'user',
  'networks:head': 'background',
  'devnet:status': 'background',
  'devnet:reset': 'user',
  'devnet:importAccount': 'user',
  'devnet:setShape': 'user',
  'tokens:list': 'background',
  'tokens:inspect': 'user',
  'tokens:add': 'user',
  'tokens:remove': 'user',
  'dashboard:get': 'background',
  'history:page': 'background',
  'send:maxAmount': 'user',
  'send:prepare': 'user',
  'send:confirm': 'user',
  'offline:exportUnsigned': 'user',
  'offline:inspect': 'user',
  'offline:sign': 'user',
  'offline:submit': 'user',
  'approvals:list': 'background',
  'approvals:answer': 'user',
  'networks:dismissChainIdChange': 'user',
  'notifications:get': 'background',
  'notifications:update': 'user',
  'history:export': 'user',
  'accounts:koinBalances': 'background',
  'nfts:collections': 'background',
  'nfts:inspectCollection': 'user',
  'nfts:addCollection': 'user',
  'nfts:removeCollection': 'user',
  'nfts:owned': 'background',
  'nfts:image': 'background',
  'nfts:imageSettings': 'background',
  'nfts:updateImageSettings': 'user',
  'nfts:prepareTransfer': 'user',
  'nfts:confirmTransfer': 'user',
  'names:resolve': 'user',
  'names:reverse': 'background',
  'contacts:list': 'background',
  'contacts:add': 'user',
  'contacts:remove': 'user',
  'dapps:list': 'background',
  'dapps:pair': 'user',
  'dapps:revoke': 'user',
  'dapps:walletConnectSettings': 'background',
  'dapps:updateWalletConnectSettings': 'user',
  'dapps:openPage': 'user',
};
// A record rather than an array so that the compiler fails when an event is left out.
const EVENT_SET: Record<IpcEvent, true> = {
  'head:new': true,
  'vault:lockState': true,
  'tx:update': true,
  'approvals:changed': true,
  'notifications:new': true,
  'notifications:open': true,
  'history:exportProgress': true,
  'dapps:changed': true,
};

/** The names of every channel, for the preload's allow-list and main's handler registration. */
export const IPC_CHANNELS = Object.freeze(Object.keys(CHANNEL_ACTIVITY) as IpcChannel[]);
/** The names of every push event. */
export const IPC_EVENTS = Object.freeze(Object.keys(EVENT_SET) as IpcEvent[]);

/**
 * An error as it crosses the boundary: a WalletError's toJSON() (a code from the catalog, a sentence a user can read,
 * the technical cause, hints), revived in the renderer by WalletError.fromJSON.
 */
export type IpcError = WalletErrorJson;

/** Every call answers this envelope; nothing is thrown across the boundary (IPC rejections lose custom fields). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** True when `name` is one of the contract's channels. */
export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && Object.hasOwn(CHANNEL_ACTIVITY, name);
}

/** True when `name` is one of the contract's push events. */
export function isIpcEvent(name: unknown): name is IpcEvent {
  return typeof name === 'string' && Object.hasOwn(EVENT_SET, name);
}

/**
 * What the preload (Electron) and the browser shell's bridge expose as `window.koinos`: one call() restricted to the
 * contract's channels, and on() for its push events, which returns a function that unsubscribes.
 */
export interface KoinosBridge {
  call<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcResult<IpcValue<C>>>;
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
}

// ---- NFTs (KCS-5) ---------------------------------------------------------------------------------------------------

export interface NftCollectionInfo {
  /** Contract address (base58). */
  contract: string;
  name: string;
  symbol: string;
  /** The collection's `uri` (KCS-2: token metadata at `${uri}/${tokenId}`); '' when its metadata is on chain. */
  uri: string;
}

export interface NftImageSettings {
  /** False: no image or metadata is fetched from outside the chain. */
  enabled: boolean;
  /** Where `ipfs://CID/path` is fetched from: `${ipfsGateway}CID/path` (an https:// URL ending in "/"). */
  ipfsGateway: string;
}

export interface NftItem {
  contract: string;
  /** The token id as the chain's HEX JSON has it: "0x" and lowercase hex digits. */
  tokenId: string;
  /** From the token's metadata; absent when it has none or it could not be read (see `problem`). */
  name?: string;
  description?: string;
  /** The token has an image (an http(s) or ipfs address in its metadata) that `nfts:image` may fetch. */
  hasImage: boolean;
  /** Why the metadata could not be read; the NFT is still owned and can be sent. */
  problem?: string;
}

export interface NftOwned {
  networkId: string;
  collections: { collection: NftCollectionInfo; tokens: NftItem[]; problem?: string }[];
  /** Whether images are fetched: `on`; `off-setting` (turned off); `off-local` (the local devnet is offline-only). */
  images: 'on' | 'off-setting' | 'off-local';
}

export interface NftTransferInput {
  fromAccountId: string;
  contract: string;
  tokenId: string;
  to: string;
}
