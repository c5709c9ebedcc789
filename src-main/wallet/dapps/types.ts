// The dApp connections' vocabulary: a connection request, a grant, WalletConnect's state and settings. Types only: the
// IPC contract re-exports them for the renderer.
import type { UintString } from '../chain/types.ts';

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
  /**
   * Where walletconnect.json is kept as it was when the wallet could not read it (damaged, or sealed with a key this
   * wallet does not hold): the client started without its sessions. Absent: read whole.
   */
  keptAside?: string;
}

export interface DappConnections {
  grants: DappGrantInfo[];
  walletConnect: WalletConnectStatus;
  /**
   * Where dapps.json is kept as it was when the wallet could not read all of it: the grants and settings shown are what
   * it could read, and a change writes the file anew with them. Absent: read whole.
   */
  keptAside?: string;
}

export interface WalletConnectSettings {
  /** A ws:// or wss:// URL ('' : the public relay). */
  relayUrl: string;
  /** The WalletConnect Cloud project ID ('' : none). */
  projectId: string;
}
