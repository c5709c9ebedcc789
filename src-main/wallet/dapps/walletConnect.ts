// WalletConnect v2, wallet side, in main: a thin adapter between @walletconnect/sign-client and DappService. A session
// proposal becomes a grant request, a session request becomes a DappService request of the session's origin, and a
// session ended on either side ends the grant. Its state (pairings, sessions, keys) is kept in the data folder, so
// sessions survive a restart. The relay and project ID are settings; the environment overrides them.
import { connect } from 'node:net';
import { join } from 'node:path';
import { SignClient } from '@walletconnect/sign-client';
import { WalletError, describe, causeText, hintedText } from '../../koinos/errors.ts';
import { zero } from '../vault/vaultCrypto.ts';
import type { WalletConnectSettings, WalletConnectStatus } from './types.ts';
import { isKoinosChain } from './chains.ts';
import { isDappMethod } from './dappMethods.ts';
import type { DappService } from './dappService.ts';
import type { DappStore, StoredGrant } from './dappStore.ts';
import { walletConnectLink } from './deepLink.ts';
import { FileKeyValueStorage } from './walletConnectStorage.ts';

/** WalletConnect's public relay (core 2.25's default). */
const PUBLIC_RELAY_URL = 'wss://relay.walletconnect.org';
const WALLETCONNECT_FILE = 'walletconnect.json';
/** How long the relay may take to accept the wallet or a pairing. */
const CONNECT_TIMEOUT_MS = 15_000;
/** How long close() lets the requests being answered finish. */
const CLOSE_GRACE_MS = 2_000;
/** How many answered requests the bridge remembers, across its clients (see WalletConnectBridge.#keepAnsweredOut). */
const ANSWERED_KEPT = 1_000;

/** WalletConnect's error codes the dApp's client knows (walletconnect-utils `SDK_ERRORS`). */
const WC_ERRORS = {
  USER_REJECTED: 5000,
  UNSUPPORTED_CHAINS: 5100,
  UNSUPPORTED_METHODS: 5101,
  UNSUPPORTED_EVENTS: 5102,
  UNSUPPORTED_NAMESPACE_KEY: 5104,
  UNAUTHORIZED_METHOD: 3001,
  USER_DISCONNECTED: 6000,
  SERVER_ERROR: -32000,
} as const;

type Client = Awaited<ReturnType<typeof SignClient.init>>;

interface Namespace {
  chains?: string[];
  methods?: string[];
  events?: string[];
}

interface ProposalEvent {
  id: number;
  params: {
    requiredNamespaces?: Record<string, Namespace>;
    optionalNamespaces?: Record<string, Namespace>;
    proposer: { metadata: { name: string; description?: string; url: string } };
    /** The pairing the proposal came over (a dApp may propose again over a pairing it has). */
    pairingTopic?: string;
  };
}

interface RequestEvent {
  id: number;
  topic: string;
  params: { chainId: string; request: { method: string; params: unknown } };
}

export interface WalletConnectOptions {
  dataDir: string;
  service: DappService;
  store: DappStore;
  /** KOINOS_WALLET_WC_RELAY_URL and KOINOS_WALLET_WC_PROJECT_ID override the settings (default: process.env). */
  env?: Record<string, string | undefined>;
  log: (line: string) => void;
  /** The relay's state or the sessions changed (the `dapps:changed` push). */
  onChange: () => void;
  /**
   * The key the client's file at `path` is sealed with (walletConnectStorage.ts storageKey), asked for as it starts.
   * @throws WalletError VAULT_LOCKED where it is sealed under the password: the client starts at the next unlock.
   */
  storageKey: (path: string) => Promise<Uint8Array>;
}

/** The chains a proposal's required namespaces name (`koinos:<id>` keys, or their `chains`). */
function requiredChains(required: Record<string, Namespace>): string[] {
  return Object.entries(required).flatMap(([key, ns]) => (isKoinosChain(key) ? [key] : (ns.chains ?? [])));
}

/**
 * Why the session the wallet approves cannot hold what a proposal requires, with WalletConnect's code for it: a
 * namespace other than koinos, a chain that is no Koinos chain, a method the wallet does not know, or an event (the
 * wallet emits none). Undefined when it can; whether the wallet is on the required chains is known once asked.
 */
export function unmetRequirements(required: Record<string, Namespace>): { code: number; message: string } | undefined {
  const keys = Object.keys(required).filter((key) => key !== 'koinos' && !key.startsWith('koinos:'));
  if (keys.length > 0)
    return {
      code: WC_ERRORS.UNSUPPORTED_NAMESPACE_KEY,
      message: `This wallet answers only the "koinos" namespace; the dApp requires ${keys.join(', ')}.`,
    };
  const chains = requiredChains(required).filter((chain) => !isKoinosChain(chain));
  if (chains.length > 0)
    return { code: WC_ERRORS.UNSUPPORTED_CHAINS, message: `The dApp requires ${chains.join(', ')}: no Koinos chain.` };
  const methods = Object.values(required).flatMap((ns) => (ns.methods ?? []).filter((m) => !isDappMethod(m)));
  if (methods.length > 0)
    return {
      code: WC_ERRORS.UNSUPPORTED_METHODS,
      message: `The dApp requires ${methods.join(', ')}, which this wallet does not answer.`,
    };
  const events = Object.values(required).flatMap((ns) => ns.events ?? []);
  if (events.length > 0)
    return {
      code: WC_ERRORS.UNSUPPORTED_EVENTS,
      message: `The dApp requires the events ${events.join(', ')}, which this wallet does not send.`,
    };
  return undefined;
}

/**
 * The `wc:` URI of a pasted URI or a `koinos-wallet://wc?uri=…` link.
 * @throws WalletError INVALID_ARGUMENT when it is neither, or not a version 2 pairing URI with a symmetric key.
 * @example
 * pairingUri('koinos-wallet://wc?uri=wc%3Aabc%402%3F…'); // 'wc:abc@2?…'
 */
export function pairingUri(text: string): string {
  let uri = text.trim();
  if (/^koinos-wallet:/i.test(uri)) {
    const linked = walletConnectLink(uri)?.searchParams.get('uri');
    if (!linked)
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a "koinos-wallet://wc?uri=…" link carrying a WalletConnect URI, got ${describe(uri)}`,
      );
    uri = linked.trim();
  }
  // What sign-client's parseUri needs, field by field, so that a URI it would refuse is refused here as a wrong URI and
  // not heard as a relay that cannot be reached.
  const parts = /^wc:([0-9a-f]{64})@2\?(\S+)$/.exec(uri);
  const query = parts ? new URLSearchParams(parts[2]) : undefined;
  if (!query || !/^[0-9a-f]{64}$/.test(query.get('symKey') ?? '') || !query.get('relay-protocol')) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a WalletConnect v2 URI ("wc:<topic>@2?relay-protocol=…&symKey=…"), got ${describe(uri)}`,
      { metaMessages: ["Copy the URI again from the dApp's WalletConnect window."] },
    );
  }
  return uri;
}

/** The origin a dApp declares (its metadata URL); a missing or odd one is named by what it is. */
export function declaredOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== 'null') return parsed.origin;
  } catch {
    // below
  }
  throw new WalletError('INVALID_ARGUMENT', `expected the dApp to declare its address as a URL, got ${describe(url)}`);
}

/** A WalletError as the dApp's client receives it: WalletConnect's code for it and the sentence for its user. */
export function toWalletConnectError(error: unknown): { code: number; message: string; data?: string } {
  if (!(error instanceof WalletError))
    return { code: WC_ERRORS.SERVER_ERROR, message: 'The wallet could not answer this request.' };
  // JSON-RPC's reserved codes (-32700 to -32600, "Invalid params") reach the dApp with their standard text instead of
  // the wallet's sentence, so refusals of the arguments use the server-error code and name the wallet's code in data.
  const code =
    error.code === 'REJECTED' || error.code === 'APPROVAL_EXPIRED'
      ? WC_ERRORS.USER_REJECTED
      : error.code === 'APPROVAL_REQUIRED'
        ? WC_ERRORS.UNAUTHORIZED_METHOD
        : WC_ERRORS.SERVER_ERROR;
  return { code, message: error.shortMessage, data: error.code };
}

/**
 * @example
 * const wc = new WalletConnectBridge({ dataDir, service, store, log, onChange });
 * await wc.resume();                  // sessions of the last run, when there are any
 * await wc.pair('wc:…@2?…');         // the proposal then asks for a grant
 */
export class WalletConnectBridge {
  readonly #o: WalletConnectOptions;
  #client: Client | undefined;
  #storage: FileKeyValueStorage | undefined;
  #starting: Promise<Client> | undefined;
  /** What the client's events started and has not finished: close() lets it finish first. */
  readonly #handling = new Set<Promise<void>>();
  /** The pairings with a proposal waiting for the person's decision. */
  readonly #proposing = new Set<string>();
  /** The requests the wallet answered (see #keepAnsweredOut), the latest ANSWERED_KEPT of them. */
  readonly #answered = new Set<number>();
  #state: WalletConnectStatus['state'] = 'off';
  #problem: string | undefined;
  /** Where walletconnect.json was kept as it was, when it could not be read (for the rest of the run). */
  #keptAside: string | undefined;

  constructor(options: WalletConnectOptions) {
    this.#o = options;
  }

  /** The relay and project ID in use: the environment's when set, else the settings'. */
  settingsInUse(): WalletConnectSettings & { source: 'settings' | 'env' } {
    const env = this.#o.env ?? process.env;
    const saved = this.#o.store.walletConnect();
    const relayUrl = env['KOINOS_WALLET_WC_RELAY_URL'] || saved.relayUrl || PUBLIC_RELAY_URL;
    const projectId = env['KOINOS_WALLET_WC_PROJECT_ID'] || saved.projectId;
    const source = env['KOINOS_WALLET_WC_RELAY_URL'] || env['KOINOS_WALLET_WC_PROJECT_ID'] ? 'env' : 'settings';
    return { relayUrl, projectId, source };
  }

  /** The settings as saved (the Settings screen's form); the environment may override them (see status). */
  savedSettings(): WalletConnectSettings {
    return this.#o.store.walletConnect();
  }

  status(): WalletConnectStatus {
    const { relayUrl, projectId, source } = this.settingsInUse();
    return {
      relayUrl,
      hasProjectId: projectId !== '',
      source,
      state: this.#state,
      ...(this.#problem ? { problem: this.#problem } : {}),
      ...(this.#keptAside ? { keptAside: this.#keptAside } : {}),
    };
  }

  /** Saves the settings; a running client is stopped, and started again with them when sessions need it. */
  async updateSettings(patch: Partial<WalletConnectSettings>): Promise<WalletConnectSettings> {
    await this.#o.store.updateWalletConnect(patch);
    await this.close();
    this.#state = 'off';
    this.#problem = undefined;
    this.#o.onChange();
    void this.resume();
    return this.#o.store.walletConnect();
  }

  /** Starts the client when a grant came over WalletConnect (its sessions are restored); a failure is shown in status. */
  async resume(): Promise<void> {
    if (!this.#o.store.grants().some((g) => g.transport === 'walletconnect')) return;
    try {
      await this.#start();
    } catch (error) {
      // Without a keychain the file's key is sealed under the password: the client starts at the unlock (walletApp.ts).
      if (!(error instanceof WalletError && error.code === 'VAULT_LOCKED'))
        this.#o.log(`[walletconnect] ${causeText(error)}`);
    }
  }

  /**
   * Pairs with a dApp from a `wc:` URI or a `koinos-wallet://wc?uri=` link; its session proposal follows over the relay
   * and asks for a grant.
   * @throws WalletError INVALID_ARGUMENT (not a pairing URI), RELAY_UNREACHABLE (no relay, no project ID, or a pairing
   *   the relay did not confirm in time).
   */
  async pair(text: string): Promise<void> {
    const uri = pairingUri(text);
    const client = await this.#start();
    await withTimeout(client.pair({ uri }), CONNECT_TIMEOUT_MS, () =>
      this.#unreachable('the pairing was not confirmed'),
    ).catch((error: unknown) => {
      if (error instanceof WalletError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      if (/expired/i.test(why))
        throw new WalletError('INVALID_ARGUMENT', 'This WalletConnect URI has expired. Ask the dApp for a new one.', {
          details: why,
        });
      if (/pairing already exists/i.test(why))
        throw new WalletError(
          'INVALID_ARGUMENT',
          'This WalletConnect URI was used already. Ask the dApp for a new one.',
          { details: why },
        );
      throw this.#unreachable(why);
    });
  }

  /** Ends an origin's WalletConnect sessions (the dApp is told) and its grant. */
  async disconnect(origin: string): Promise<void> {
    const grant = this.#o.store.grant(origin);
    if (grant && this.#client) {
      // The recorded topics, and a session approved a moment ago whose topic is not recorded yet.
      const client = this.#client;
      const topics = new Set([
        ...grant.sessions,
        ...client.session
          .getAll()
          .filter((s) => originOrNothing(s.peer.metadata.url) === origin)
          .map((s) => s.topic),
      ]);
      for (const topic of topics) {
        await this.#client
          .disconnect({
            topic,
            reason: { code: WC_ERRORS.USER_DISCONNECTED, message: 'The wallet ended the connection.' },
          })
          .catch(() => undefined);
      }
    }
    await this.#o.service.revoke(origin);
  }

  /** Closes the relay connection and writes the client's state. Safe to call twice. */
  async close(): Promise<void> {
    const client = this.#client ?? (await this.#starting?.catch(() => undefined));
    this.#client = undefined;
    this.#starting = undefined;
    if (client) {
      client.removeAllListeners('session_proposal');
      client.removeAllListeners('session_request');
      client.removeAllListeners('session_delete');
      client.removeAllListeners('session_expire');
      // A request still open answers its dApp before the relay connection goes: the wallet rejects its approvals
      // before it closes. One that waits for something else (an unlock, a settings change) is not waited for long.
      await withTimeout(Promise.all(this.#handling), CLOSE_GRACE_MS, () => new Error('still handling')).catch(
        () => undefined,
      );
      await client.core.relayer.transportClose().catch(() => undefined);
      client.core.heartbeat.stop();
    }
    // A client started again reads the file afresh.
    const storage = this.#storage;
    this.#storage = undefined;
    await storage?.close();
  }

  #start(): Promise<Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#starting ??= this.#init().catch((error: unknown) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  async #init(): Promise<Client> {
    const { relayUrl, projectId } = this.settingsInUse();
    if (projectId === '') {
      throw this.#unreachable(
        'no project ID is set',
        'Set a WalletConnect project ID in Settings (from cloud.reown.com), or a private relay.',
      );
    }
    const storage = (this.#storage ??= await this.#openStorage());
    // Several clients run in one process (a wallet reopened, the tests' dApp): a core shared through globalThis would
    // route one client's messages to another's listeners.
    process.env['DISABLE_GLOBAL_CORE'] = 'true';
    this.#state = 'connecting';
    this.#o.onChange();
    // The client would retry a refused port until the timeout; a relay nothing can reach is said at once.
    const unreachable = await whyUnreachable(relayUrl);
    if (unreachable !== undefined) throw this.#unreachable(unreachable);
    const init = SignClient.init({
      projectId,
      relayUrl,
      storage,
      telemetryEnabled: false,
      logger: 'silent',
      // Requests reach the wallet as they come: a read need not wait behind a signature waiting for a person, and
      // DappService keeps one signing request per origin itself.
      signConfig: { disableRequestQueue: true },
      metadata: {
        name: 'Koinos Desktop Wallet',
        description: 'Koinos Desktop Wallet',
        url: 'https://koinos.io',
        icons: [],
      },
    });
    const client = await withTimeout(init, CONNECT_TIMEOUT_MS, () => {
      void init.then(
        (late) => late.core.relayer.transportClose().catch(() => undefined),
        () => undefined,
      );
      return this.#unreachable(`${relayUrl} did not answer`);
    }).catch((error: unknown) => {
      throw error instanceof WalletError
        ? error
        : this.#unreachable(error instanceof Error ? error.message : String(error));
    });
    if (relayUrl !== PUBLIC_RELAY_URL) {
      // A private relay keeps everything on it: no attestation is fetched from WalletConnect's verify server.
      (client.core.verify as unknown as { resolve: () => Promise<undefined> }).resolve = async () => undefined;
    }
    this.#keepAnsweredOut(client);
    client.on('session_proposal', (event) => this.#handle(this.#onProposal(client, event as unknown as ProposalEvent)));
    client.on('session_request', (event) => {
      if (!this.#answeredBefore(client, event.id))
        this.#handle(this.#onRequest(client, event as unknown as RequestEvent));
    });
    client.on('session_delete', ({ topic }) => this.#handle(this.#onSessionEnded(topic)));
    client.on('session_expire', ({ topic }) => this.#handle(this.#onSessionEnded(topic)));
    client.core.relayer.on('relayer_connect', () => this.#setState('connected'));
    client.core.relayer.on('relayer_disconnect', () => this.#setState('connecting'));
    this.#client = client;
    // The relayer opens its socket once there is a topic to listen to (a pairing, a restored session).
    this.#setState(client.core.relayer.connected ? 'connected' : 'off');
    await this.#reconcile(client);
    return client;
  }

  /**
   * The client's file, read with its key; a file kept aside is said on the dApps screen, and so is why it could not be
   * opened (a keychain that does not hand the key over, a file that cannot be read or written), but for a locked
   * wallet without a keychain: the unlock starts the client.
   */
  async #openStorage(): Promise<FileKeyValueStorage> {
    const path = join(this.#o.dataDir, WALLETCONNECT_FILE);
    try {
      const key = await this.#o.storageKey(path);
      const storage = await FileKeyValueStorage.open(path, key).catch((error: unknown) => {
        zero(key);
        throw error;
      });
      if (storage.keptAside) {
        this.#keptAside = storage.keptAside;
        this.#o.log(
          `[walletconnect] ${path} could not be read; kept as ${storage.keptAside}, starting without sessions`,
        );
        this.#o.onChange();
      }
      return storage;
    } catch (error) {
      if (!(error instanceof WalletError && error.code === 'VAULT_LOCKED')) {
        const why = error instanceof WalletError ? hintedText(error) : causeText(error);
        this.#problem = `The WalletConnect sessions were not opened: ${why}${/[.!?]$/.test(why) ? '' : '.'}`;
        this.#o.onChange();
      }
      throw error;
    }
  }

  /** Sessions without a grant are ended; grants keep only the sessions the client still has. */
  async #reconcile(client: Client): Promise<void> {
    const alive = new Set(client.session.getAll().map((s) => s.topic));
    const granted = new Set<string>();
    for (const grant of this.#o.store.grants().filter((g) => g.transport === 'walletconnect')) {
      const sessions = grant.sessions.filter((t) => alive.has(t));
      sessions.forEach((t) => granted.add(t));
      if (sessions.length === 0) await this.#o.service.revoke(grant.origin);
      else if (sessions.length !== grant.sessions.length) await this.#o.service.setSessions(grant.origin, sessions);
    }
    for (const topic of alive) {
      if (!granted.has(topic))
        await client
          .disconnect({
            topic,
            reason: { code: WC_ERRORS.USER_DISCONNECTED, message: 'The wallet has no grant for this session.' },
          })
          .catch(() => undefined);
    }
  }

  async #onProposal(client: Client, event: ProposalEvent): Promise<void> {
    const { requiredNamespaces = {}, optionalNamespaces = {} } = event.params;
    const chains = new Set<string>();
    const methods = new Set<string>();
    for (const [key, ns] of [...Object.entries(requiredNamespaces), ...Object.entries(optionalNamespaces)]) {
      if (key !== 'koinos' && !key.startsWith('koinos:')) continue;
      for (const chain of isKoinosChain(key) ? [key] : (ns.chains ?? [])) if (isKoinosChain(chain)) chains.add(chain);
      for (const method of ns.methods ?? []) methods.add(method);
    }
    const reject = (code: number, message: string) =>
      client.reject({ id: event.id, reason: { code, message } }).catch(() => undefined);
    if (chains.size === 0)
      return void (await reject(
        WC_ERRORS.UNSUPPORTED_CHAINS,
        'This wallet answers only Koinos chains (the "koinos" namespace).',
      ));
    // What a proposal requires must all be in the session, or sign-client refuses the approval after the person was
    // asked (and the dApp hears a rejection): what the wallet cannot give is refused first, with the code that says so.
    const unmet = unmetRequirements(requiredNamespaces);
    if (unmet) return void (await reject(unmet.code, unmet.message));
    // A dApp declares its address anew with each proposal: over one pairing (one URI the person pasted), a second
    // proposal under another address would be a second connection request waiting beside the first, and any number
    // of them could be stacked before the person. One waits at a time; the others are refused at once. (The client
    // always names the pairing; proposals that did not would share one turn.)
    const pairing = event.params.pairingTopic ?? '';
    if (this.#proposing.has(pairing))
      return void (await reject(
        WC_ERRORS.USER_REJECTED,
        'Another connection request of this dApp is waiting for a decision. Answer it first.',
      ));
    this.#proposing.add(pairing);
    try {
      await this.#propose(client, event, chains, methods, reject);
    } finally {
      this.#proposing.delete(pairing);
    }
  }

  /** A proposal's grant asked for and, once given, its session approved (#onProposal checked what it requires). */
  async #propose(
    client: Client,
    event: ProposalEvent,
    chains: ReadonlySet<string>,
    methods: ReadonlySet<string>,
    reject: (code: number, message: string) => Promise<unknown>,
  ): Promise<void> {
    const { requiredNamespaces = {}, proposer } = event.params;
    let origin: string;
    try {
      origin = declaredOrigin(proposer.metadata.url);
    } catch (error) {
      return void (await reject(WC_ERRORS.USER_REJECTED, (error as WalletError).shortMessage));
    }
    const previous = this.#o.store.grant(origin)?.sessions ?? [];
    let granted = false;
    try {
      const grant = await this.#o.service.connect(
        {
          origin,
          name: proposer.metadata.name || origin,
          url: proposer.metadata.url,
          description: proposer.metadata.description,
          transport: 'walletconnect',
          chains: [...chains],
          required: requiredChains(requiredNamespaces),
          methods: [...methods],
        },
        previous,
      );
      granted = true;
      // The session names every known method it asked for, refused ones too, so that they reach the wallet and are
      // refused with a reason; the grant (what the wallet answers) holds only the others.
      const sessionMethods = [...methods].filter(isDappMethod);
      const session = await client.approve({
        id: event.id,
        namespaces: {
          koinos: {
            chains: grant.chains,
            methods: sessionMethods,
            events: [],
            accounts: grant.chains.flatMap((c) => grant.accounts.map((a) => `${c}:${a}`)),
          },
        },
      });
      await this.#o.service.setSessions(origin, [...previous, session.topic]);
      await session.acknowledged().catch(() => undefined);
    } catch (error) {
      this.#o.log(`[walletconnect] proposal of ${origin} not approved: ${causeText(error)}`);
      // A grant made for a session that did not come about is not kept (nor listed) without one.
      if (granted && previous.length === 0) await this.#o.service.revoke(origin).catch(() => undefined);
      await reject(
        error instanceof WalletError && error.code === 'NOT_FOUND'
          ? WC_ERRORS.UNSUPPORTED_CHAINS
          : WC_ERRORS.USER_REJECTED,
        error instanceof WalletError ? error.shortMessage : 'The connection was not approved.',
      );
    }
  }

  async #onRequest(client: Client, event: RequestEvent): Promise<void> {
    const grant = this.#grantOf(client, event.topic);
    let response:
      | { id: number; jsonrpc: '2.0'; result: unknown }
      | { id: number; jsonrpc: '2.0'; error: { code: number; message: string; data?: string } };
    if (!grant) {
      response = {
        id: event.id,
        jsonrpc: '2.0',
        error: {
          code: WC_ERRORS.UNAUTHORIZED_METHOD,
          message: 'This session has no grant in the wallet any more. Connect again.',
        },
      };
    } else {
      try {
        const result = await this.#o.service.handle({
          origin: grant.origin,
          transport: 'walletconnect',
          chain: event.params.chainId,
          method: event.params.request.method,
          params: event.params.request.params,
        });
        response = { id: event.id, jsonrpc: '2.0', result: result ?? null };
      } catch (error) {
        if (!(error instanceof WalletError))
          this.#o.log(`[walletconnect] ${event.params.request.method} of ${grant.origin} failed: ${String(error)}`);
        response = { id: event.id, jsonrpc: '2.0', error: toWalletConnectError(error) };
      }
    }
    // Answered from here on, before the answer goes: see #keepAnsweredOut.
    this.#answered.add(event.id);
    if (this.#answered.size > ANSWERED_KEPT) this.#answered.delete(this.#answered.values().next().value!);
    await client
      .respond({ topic: event.topic, response })
      .catch((error: unknown) => this.#o.log(`[walletconnect] answer not sent: ${String(error)}`));
  }

  /**
   * Keeps `client` from recording a request the wallet answered as pending again. One second after it starts, the
   * client takes in again every message it has not acknowledged yet (sign-client 2.25's processPendingMessageEvents),
   * the request it is taking in at that moment too: when the wallet had answered that one first (a refusal answers at
   * once), the second pass recorded it as pending after the answer had deleted it. Its `session_request` event is not
   * emitted twice, so nothing answered it again, and the client's file kept it: the next start emitted it as a request
   * no dApp waited for.
   */
  #keepAnsweredOut(client: Client): void {
    const pending = client.pendingRequest;
    const record = pending.set.bind(pending);
    pending.set = async (id, request) => {
      if (!this.#answeredBefore(client, id)) await record(id, request);
    };
  }

  /**
   * True when the wallet answered request `id` already, in this run or an earlier one. WalletConnect delivers a message
   * at least once, and with its request queue off the client leaves telling them apart to the wallet: the client notes
   * a message as taken in only after the wallet has the request, in a write of its own, so a wallet that ended before
   * that write (killed; or closed, as one clean run saw before FileKeyValueStorage.close() waited for it) takes the
   * request in again at its next start. The answer is in the client's history by then (it is recorded once sent, and
   * kept for 30 days): such a request is neither recorded as pending nor shown to the person again.
   */
  #answeredBefore(client: Client, id: number): boolean {
    return this.#answered.has(id) || client.core.history.records.get(id)?.response !== undefined;
  }

  /**
   * The grant a session's requests use. A dApp may ask as soon as the session settles, before approve() returned here
   * and the topic was recorded: then the session's declared origin names it (every session came from a proposal the
   * person approved for that origin, and sessions without a grant are ended at start).
   */
  #grantOf(client: Client, topic: string): StoredGrant | undefined {
    const recorded = this.#o.store.grants().find((g) => g.sessions.includes(topic));
    if (recorded) return recorded;
    try {
      return this.#o.store.grant(declaredOrigin(client.session.get(topic).peer.metadata.url));
    } catch {
      return undefined;
    }
  }

  /** Keeps `job` (an event's handling) until it ends; a failure is logged, never left unhandled. */
  #handle(job: Promise<void>): void {
    const tracked = job
      .catch((error: unknown) => this.#o.log(`[walletconnect] event not handled: ${causeText(error)}`))
      .finally(() => this.#handling.delete(tracked));
    this.#handling.add(tracked);
  }

  /** The dApp (or the relay's expiry) ended a session: the grant goes with its last session. */
  async #onSessionEnded(topic: string): Promise<void> {
    const grant = this.#o.store.grants().find((g) => g.sessions.includes(topic));
    if (!grant) return;
    const rest = grant.sessions.filter((t) => t !== topic);
    if (rest.length === 0) await this.#o.service.revoke(grant.origin);
    else await this.#o.service.setSessions(grant.origin, rest);
  }

  #setState(state: WalletConnectStatus['state']): void {
    if (this.#state === state && this.#problem === undefined) return;
    this.#state = state;
    this.#problem = undefined;
    this.#o.onChange();
  }

  #unreachable(why: string, hint?: string): WalletError {
    const { relayUrl } = this.settingsInUse();
    this.#state = 'unreachable';
    this.#problem =
      hint ??
      `No WalletConnect relay is reachable at ${relayUrl}: ${why}. Check the network connection, or the relay address in Settings.`;
    this.#o.onChange();
    return new WalletError('RELAY_UNREACHABLE', this.#problem, { details: why });
  }
}

function originOrNothing(url: string): string | undefined {
  try {
    return declaredOrigin(url);
  } catch {
    return undefined;
  }
}

/** Connection errors that say at once that nothing listens at the relay's address, as the reason to show. */
const REFUSALS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name does not resolve',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
};

/**
 * Opens and closes a TCP connection to the relay's host and port: the reason when it is refused (or the name does not
 * resolve, or it does not answer within CONNECT_TIMEOUT_MS), undefined when it connects or the URL is not a ws(s) URL.
 */
function whyUnreachable(relayUrl: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(relayUrl);
  } catch {
    return Promise.resolve(undefined);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return Promise.resolve(undefined);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (url.protocol === 'wss:' ? 443 : 80) : Number(url.port);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(`${relayUrl} did not answer`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(REFUSALS[error.code ?? ''] ?? undefined));
  });
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
