// The chain services' vocabulary: networks and heads, tokens, balances and history, transfers and their reviews,
// receipts, names, NFTs, history export. Types only: the IPC contract re-exports them for the renderer, and the wallet's
// modules and the CLI import them from here. Amounts and 64-bit integers are decimal strings (UintString), never numbers.

/** A decimal string of an unsigned integer in base units (KOIN: 1 = 0.00000001 KOIN). */
export type UintString = string;

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

/** Every network, the selected one's id, and the copy of a network settings file the wallet could not read whole. */
export interface NetworkList {
  networks: NetworkInfo[];
  selectedId: string;
  /**
   * Where chain-settings.json (custom networks, tokens, NFT collections) is kept as it was when the wallet could not
   * read all of it: the lists hold what it could read, and a change writes the file anew with that. Absent: read whole.
   */
  settingsKeptAside?: string;
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
  /**
   * Read from a contract the wallet does not list (neither a system token nor one the person added), for its events:
   * its name and symbol are that contract's own claim, which any contract can make ("KOIN"). Shown with its address.
   */
  unlisted?: true;
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
  /** A transfer's memo, on one line (someone else may have written it). */
  memo?: string;
  /** A KCS-5 NFT's token id ("0x" and hex digits); `contract` is then its collection. */
  tokenId?: string;
  /** A grant of every NFT the account holds in the collection `contract` (set_approval_for_all). */
  allNfts?: true;
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
  /** The person's own note on the transaction (historyNotes.ts), when there is one. */
  note?: string;
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
  /** The network the page was read from. */
  networkId: string;
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
  /** Public text the chain keeps with the transfer (KCS-4 `memo`; memo.ts says what it may hold); absent: none. */
  memo?: string;
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
  /** A token or NFT transfer to an address that begins and ends like one the person knows without being one of them. */
  | 'LOOKALIKE_RECIPIENT'
  /** A token allowance (approve) from a signer to an account that does not sign: it may take the tokens later. */
  | 'TOKEN_ALLOWANCE'
  /** An NFT grant (KCS-5 approve, set_approval_for_all) to an account that does not sign: it may take them later. */
  | 'NFT_ALLOWANCE'
  /** A call to a contract that is neither a known token nor a system contract of this network. */
  | 'UNKNOWN_CONTRACT'
  /** The network's chain ID changed since it was last seen (a restart, or another network behind the same URL). */
  | 'CHAIN_ID_CHANGED'
  /** Made for another chain than the one of the network it is reviewed on, and for none this wallet has seen. */
  | 'OTHER_CHAIN';

/** An address the person knows, and how a review names it: "your account Main", "your contact Dana". */
export interface KnownAddress {
  address: string;
  label: string;
}

/**
 * The addresses a review compares a recipient with on a network (on every network when `networkId` is absent, as for a
 * transaction made for a chain none of the wallet's networks was seen with): the wallet's accounts, contacts and the
 * recipients it sent to.
 */
export type KnownAddresses = (networkId?: string) => Promise<KnownAddress[]>;

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

// ---- Names -------------------------------------------------------------------------------------------------------

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

// ---- Receipts, inspected transactions, their status ----------------------------------------------------------------

export interface ReceiptEvent {
  name: string;
  source: string;
  impacted: string[];
  data: unknown;
  /** What an NFT collection's event did, in words (KCS-5's transfers, mints, burns and grants). */
  summary?: string;
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
  code:
    | 'CHAIN_ID_MISMATCH'
    | 'NONCE_USED'
    | 'ID_MISMATCH'
    | 'MERKLE_MISMATCH'
    | 'SIGNER_NOT_PAYER'
    | 'UNSIGNED'
    | 'UNKNOWN_CONTRACT';
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

/** A followed transaction's new status (the `tx:update` push). */
export interface TxUpdate {
  transactionId: string;
  networkId: string;
  status: TxStatus;
  blockHeight?: UintString;
  message?: string;
  /**
   * The mana the chain charged a transaction it included but reverted (status failed, with the block's height), in
   * base units: the chain applied nothing else of it.
   */
  rcUsed?: UintString;
}

// ---- History export ------------------------------------------------------------------------------------------------

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

/**
 * What an account let others do with its assets, as the chain says now: a token allowance (KCS-4 `approve`: the spender
 * may take up to `amount` without another signature) or a grant of every NFT of a collection to an operator (KCS-5
 * `set_approval_for_all`).
 */
export type Allowance =
  | {
      kind: 'token';
      contract: string;
      symbol: string;
      decimals: number;
      spender: string;
      /** Base units, decimal. */
      amount: string;
      /** The amount is the largest a token holds (2^64 - 1): no limit in practice. */
      unlimited: boolean;
    }
  | { kind: 'nft-operator'; contract: string; name: string; symbol: string; spender: string }
  /** One NFT the account owns approved to another (KCS-5 `approve`): it may transfer that NFT. */
  | { kind: 'nft-token'; contract: string; name: string; symbol: string; tokenId: string; spender: string };

export interface AllowanceList {
  networkId: string;
  networkName: string;
  owner: string;
  allowances: Allowance[];
  /** The contracts read: the account's tokens (KOIN, VHP, the tokens added) and the NFT collections added. */
  read: number;
  /** Contracts whose allowances could not be read, with the node's reason: the list may miss theirs. */
  unread: { contract: string; symbol: string; reason: string }[];
  /**
   * A contract that listed more than the wallet reads (100 allowances or operators, or NFTs of the account): the list
   * shows what the first 100 give.
   */
  cut: string[];
}

export interface RevokeInput {
  accountId: string;
  /** Taken back together, in one transaction (at most 20). */
  items: {
    kind: Allowance['kind'];
    contract: string;
    /** The spender or operator whose allowance is taken back. */
    spender: string;
    /** The NFT ("0x" and hex digits) of an `nft-token` allowance. */
    tokenId?: string;
  }[];
}
