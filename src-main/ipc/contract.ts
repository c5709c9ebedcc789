// The one IPC contract between the renderer and main: channel names, their arguments and results, push events,
// and the envelope every call answers with. Types only plus runtime lists, so the renderer and preload may import it.
// Every value is JSON-safe: amounts and 64-bit integers are decimal strings (base units), never numbers.
// Results and events never carry a private key, phrase, password or API key; the one exception is
// `accounts:reveal`, which answers only after the password was given again, and the phrase of `accounts:newPhrase`,
// which the user must see once to write it down. The types of those values are the wallet's own (its modules and the
// CLI import them from the wallet, never from here); the contract names them, and re-exports them for the renderer.

import type { WalletErrorJson } from '../koinos/errors.ts';
import type { AddressBookView, Contact } from '../wallet/addressBookTypes.ts';
import type { ApprovalAnswer, ApprovalState } from '../wallet/approvals/types.ts';
import type {
  AccountBalances,
  AddressNames,
  AllowanceList,
  Dashboard,
  DevnetStatus,
  HeadInfo,
  HistoryExportFile,
  HistoryExportProgress,
  HistoryExportQuery,
  HistoryPage,
  HistoryQuery,
  InspectedTransaction,
  LocalShape,
  MaxAmount,
  NetworkInfo,
  NetworkInput,
  NetworkList,
  NftCollectionInfo,
  NftImageSettings,
  NftOwned,
  NftTransferInput,
  ResolvedName,
  RevokeInput,
  SubmitReceipt,
  TokenInfo,
  TransactionReview,
  TransferInput,
  TransferPayer,
  TxUpdate,
} from '../wallet/chain/types.ts';
import type { DappConnections, WalletConnectSettings } from '../wallet/dapps/types.ts';
import type { NotificationSettings, NotificationTarget, WalletNotification } from '../wallet/notifications/types.ts';
import type {
  AccountDiscovery,
  AccountInfo,
  BackupImportResult,
  EncryptedBackup,
  NewPhrase,
  RevealedSecret,
  Settings,
  VaultStatus,
} from '../wallet/vault/types.ts';

// The renderer imports the wallet's types from here (its one door into src-main besides src-main/koinos).
export type * from '../wallet/addressBookTypes.ts';
export type * from '../wallet/approvals/types.ts';
export type * from '../wallet/chain/types.ts';
export type * from '../wallet/dapps/types.ts';
export type * from '../wallet/notifications/types.ts';
export type * from '../wallet/vault/types.ts';

// ---- Channels -----------------------------------------------------------------------------------------------------

/** Every channel, named `area:verb`, with the arguments the renderer sends and the value main answers. */
export interface IpcContract {
  'vault:status': { args: []; result: VaultStatus };
  'vault:create': { args: [{ password: string }]; result: VaultStatus };
  'vault:unlock': { args: [{ password: string }]; result: VaultStatus };
  'vault:lock': { args: []; result: VaultStatus };
  'vault:changePassword': { args: [{ oldPassword: string; newPassword: string }]; result: VaultStatus };
  'vault:exportBackup': { args: [{ password: string; backupPassword: string }]; result: EncryptedBackup };
  /** The wallet's accounts after the import, and what it did (added, already there, upgraded, contacts, warnings). */
  'vault:importBackup': { args: [{ content: string; backupPassword: string }]; result: BackupImportResult };

  'settings:get': { args: []; result: Settings };
  'settings:update': { args: [Partial<Settings>]; result: Settings };

  'accounts:list': { args: []; result: AccountInfo[] };
  'accounts:newPhrase': { args: [{ words: 12 | 24 }]; result: NewPhrase };
  'accounts:confirmPhrase': {
    args: [{ draftId: string; name: string; checks: { position: number; word: string }[] }];
    result: AccountInfo;
  };
  'accounts:importPhrase': { args: [{ phrase: string; name: string }]; result: AccountInfo };
  'accounts:importKey': { args: [{ key: string; name: string }]; result: AccountInfo };
  'accounts:addWatch': { args: [{ address: string; name: string }]; result: AccountInfo };
  'accounts:deriveNext': { args: [{ phraseId: string; name: string }]; result: AccountInfo };
  /**
   * The phrase's next accounts that were used on `networkId` (the selected network when absent), added
   * (accountDiscovery.ts).
   */
  'accounts:discover': { args: [{ phraseId: string; networkId?: string }]; result: AccountDiscovery };
  'accounts:rename': { args: [{ id: string; name: string }]; result: AccountInfo };
  'accounts:reorder': { args: [{ ids: string[] }]; result: AccountInfo[] };
  'accounts:remove': { args: [{ id: string; password: string }]; result: AccountInfo[] };
  'accounts:reveal': { args: [{ id: string; password: string }]; result: RevealedSecret };

  'networks:list': { args: []; result: NetworkList };
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
  /** The person's note on a transaction of a network of the wallet ('' removes it); answers the note as kept. */
  'history:setNote': { args: [{ networkId: string; transactionId: string; note: string }]; result: { note: string } };

  /** The most the account can send now (for KOIN, the mana minus the expected cost), and that expected cost. */
  'send:maxAmount': { args: [{ fromAccountId: string; token: string; payer?: TransferPayer }]; result: MaxAmount };
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
  /** The token allowances and NFT operators the account gave on the selected network, read from the chain now. */
  'allowances:list': { args: [{ accountId: string }]; result: AllowanceList };
  /** The review of taking one back (an approve of 0, a set_approval_for_all of false); nothing is signed. */
  'allowances:prepareRevoke': { args: [RevokeInput]; result: TransactionReview };
  /** Sends the reviewed change once a person approved it in main's dialog. */
  'allowances:confirmRevoke': { args: [{ reviewId: string }]; result: SubmitReceipt };
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
  'tx:update': TxUpdate;
  'approvals:changed': ApprovalState;
  /** A notification to show (the page shows it when the presenter is `page`). */
  'notifications:new': WalletNotification;
  /** A notification shown by main was clicked: open its entry. */
  'notifications:open': NotificationTarget;
  'history:exportProgress': HistoryExportProgress;
  /** A grant was given or revoked, a session ended, or the relay's state changed. */
  'dapps:changed': DappConnections;
  /** A network was added, changed or removed, or another was selected (in any window): the list as networks:list. */
  'networks:changed': IpcContract['networks:list']['result'];
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
  'accounts:discover': 'user',
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
  'history:setNote': 'user',
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
  'allowances:list': 'background',
  'allowances:prepareRevoke': 'user',
  'allowances:confirmRevoke': 'user',
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
  'networks:changed': true,
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
