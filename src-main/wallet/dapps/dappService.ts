// The transport-neutral core of dApp connections: a request is (origin, chain, method, params) whatever carried it
// (WalletConnect now, a page transport later). Grants per origin (accounts, methods, chains) are asked of a person
// first and kept; signing requests go through the approval queue with the wallet's own reviews; reads answer only
// inside a grant; one signing request per origin at a time; a locked wallet is unlocked first. A transaction is
// approved in two steps: its review (then it is signed and dry-run), and the effects that dry run showed (only then is
// the signature handed back or the transaction sent).
import { BTYPE, bytesToJson, toJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { transactionToJson } from '../../koinos/transaction.ts';
import { TYPES } from '../../koinos/types.ts';
import type { AccountInfo, VaultStatus } from '../vault/types.ts';
import type { ApprovalReview } from '../approvals/types.ts';
import type { KnownAddresses } from '../chain/types.ts';
import type {
  DappConnectionRequest,
  DappConnections,
  DappGrantInfo,
  DappTransport,
  WalletConnectStatus,
} from './types.ts';
import { APPROVAL_TTL_MS, type ApprovalQueue } from '../approvals/approvalQueue.ts';
import { signApproved, type ApprovedSubmitDeps, type ReleaseHold } from '../chain/approvedSubmit.ts';
import type { NetworkService } from '../chain/networks.ts';
import type { PendingTransactions } from '../chain/pendingTransactions.ts';
import type { TokenService } from '../chain/tokens.ts';
import type { TransactionFollower } from '../chain/transactionFollower.ts';
import type { MessageSigner, TransactionSigner } from '../signer.ts';
import { chainOf, networkOfChain, type ChainNetwork } from './chains.ts';
import { answerRead, type ReadMethod } from './dappReads.ts';
import { DAPP_METHODS, isDappMethod } from './dappMethods.ts';
import type { DappStore, StoredGrant } from './dappStore.ts';
import { describeEffects, failedEffects } from './dappEffects.ts';
import { dappDecoder, fillHeader, readDappTransaction, reviewDappTransaction } from './dappTransactions.ts';
import { signableMessage } from './messageCheck.ts';
import { oneLine } from '../oneLine.ts';

/** What the service needs of the vault: accounts, lock state, and the two signers (both behind approvals). */
export interface DappVault extends TransactionSigner, MessageSigner {
  status(): VaultStatus;
  listAccounts(): AccountInfo[];
  onLockChange(listener: (status: VaultStatus) => void): () => void;
  getSettings(): { selectedAccountId?: string };
}

export interface DappServiceOptions {
  vault: DappVault;
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  approvals: ApprovalQueue;
  store: DappStore;
  /** How long a request waits for the wallet to be unlocked (default: as long as an approval waits). */
  unlockWaitMs?: number;
  /** The addresses a transfer's recipient is compared with (absent: none). */
  knownAddresses?: KnownAddresses;
}

/** A dApp's request for a grant, as its transport heard it. */
export interface ConnectionProposal {
  origin: string;
  name: string;
  url: string;
  description?: string;
  transport: DappTransport;
  /** CAIP-2 chains the dApp asks for. */
  chains: string[];
  /** Those of `chains` it cannot do without (WalletConnect's required namespaces): one the wallet is not on refuses. */
  required?: string[];
  /** The methods it asks for. */
  methods: string[];
}

/** One request of a connected dApp. */
export interface DappRequest {
  origin: string;
  /** What carried it: the grant an origin without one is asked for is of this transport. */
  transport: DappTransport;
  /** CAIP-2 chain the request is for. */
  chain: string;
  method: string;
  params: unknown;
}

/** The longest dApp name shown, in characters. */
const MAX_DAPP_NAME = 64;
/**
 * At most this many koinos_waitForTransaction of one origin under way. Each polls the node until the transaction is
 * included or its deadline passes (up to a minute): without a bound, one message of a dApp per wait would make the
 * wallet call the node, on the person's API key, a few times a second each.
 */
const MAX_WAITS_PER_ORIGIN = 8;

/**
 * A dApp's declared name as the wallet shows it: on one line ({@link oneLine}), at most {@link MAX_DAPP_NAME}
 * characters, or the origin when nothing is left. The name is the dApp's own choice and heads the approval dialog: a
 * name with line breaks could write its own lines there ("Verified by Koinos Wallet").
 * @example
 * shownDappName('koinscan.io?\n\nVerified', 'https://x.io'); // 'koinscan.io? Verified'
 */
export function shownDappName(declared: string, origin: string): string {
  return oneLine(declared, MAX_DAPP_NAME) || origin;
}

/** What a request that waited for an unlock fails with when the wallet closes. */
function closedWhileLocked(): WalletError {
  return new WalletError(
    'VAULT_LOCKED',
    'The wallet closed while it was locked. Open and unlock it, then ask again from the dApp.',
  );
}

/**
 * @example
 * const grant = await dapps.connect({ origin, name, url, transport: 'walletconnect', chains, methods });
 * const signature = await dapps.handle({ origin, chain, method: 'koinos_signMessage', params: { address, message } });
 */
export class DappService {
  readonly #o: DappServiceOptions;
  readonly #busy = new Set<string>();
  /** Each koinos_waitForTransaction under way: the way to end it, and whose it is. */
  readonly #waitStops = new Map<AbortController, string>();
  readonly #costs = new Map<string, bigint>();
  readonly #listeners = new Set<() => void>();
  /**
   * The dApp windows whose connection the person refused, by origin, with the page's life it was in: not asked again
   * until that page closes (a page looping on a refused request would put the question before the person without end).
   */
  readonly #refusedPages = new Map<string, number>();
  /** Each origin's page life: how many times a page of it closed. */
  readonly #pageLives = new Map<string, number>();
  /** The requests waiting for the wallet to be unlocked: each one's way to fail, and whose request it is. */
  readonly #unlockWaits = new Map<(error: WalletError) => void, string>();
  #closed = false;

  constructor(options: DappServiceOptions) {
    this.#o = options;
  }

  /**
   * The grants and WalletConnect's `status`, as the dApps screen shows them, with where the store's file is kept when
   * it could not be read whole.
   */
  connections(status: WalletConnectStatus): DappConnections {
    const keptAside = this.#o.store.keptAside;
    return { grants: this.grants(), walletConnect: status, ...(keptAside ? { keptAside } : {}) };
  }

  /** The grants, newest first. */
  grants(): DappGrantInfo[] {
    return this.#o.store
      .grants()
      .sort((a, b) => Number(BigInt(b.grantedAt) - BigInt(a.grantedAt)))
      .map(({ sessions: _sessions, ...info }) => info);
  }

  /** Listens to changes of the grants; returns a function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Asks a person for a grant (which accounts; the methods and chains asked for, the refused ones left out) and keeps
   * it; a grant the origin had is replaced. Networks are resolved first, before anyone is asked: a chain no network of
   * the wallet is on is left out, and none at all, or a required one missing, refuses the proposal. A dApp window whose
   * connection the person refused is refused at once until its page closes.
   * @throws WalletError NOT_FOUND (no network on the chains, or on a required one), VAULT_LOCKED (not unlocked in time), REJECTED,
   *   APPROVAL_EXPIRED, APPROVAL_PENDING.
   */
  async connect(declared: ConnectionProposal, sessions: string[] = []): Promise<StoredGrant> {
    const proposal = { ...declared, name: shownDappName(declared.name, declared.origin) };
    const inWindow = proposal.transport === 'window';
    const life = this.#pageLives.get(proposal.origin) ?? 0;
    if (inWindow && this.#refusedPages.get(proposal.origin) === life) {
      throw new WalletError(
        'REJECTED',
        `You refused to connect ${proposal.origin} in this window. Close the dApp's window and open it again to be asked again.`,
      );
    }
    const chains: { chain: string; networkName: string }[] = [];
    for (const chain of [...new Set(proposal.chains)]) {
      const found = await networkOfChain(this.#o.networks, chain).catch(() => undefined);
      if (found) chains.push({ chain, networkName: found.network.name });
    }
    if (chains.length === 0) {
      throw new WalletError(
        'NOT_FOUND',
        `${proposal.name} asks for ${proposal.chains.join(', ') || 'no Koinos chain'}, and none of this wallet's networks is on ${proposal.chains.length > 1 ? 'any of them' : 'it'} now.`,
      );
    }
    const missing = [...new Set(proposal.required)].filter((chain) => !chains.some((c) => c.chain === chain));
    if (missing.length > 0) {
      throw new WalletError(
        'NOT_FOUND',
        `${proposal.name} requires ${missing.join(', ')}, and no network of this wallet is on ${missing.length > 1 ? 'them' : 'it'} now.`,
      );
    }
    await this.#whenUnlocked(proposal.origin);
    const accounts = this.#o.vault.listAccounts();
    if (accounts.length === 0)
      throw new WalletError(
        'ACCOUNT_NOT_FOUND',
        'This wallet has no account to connect yet. Add one, then connect again.',
      );
    const selected = accounts.find((a) => a.id === this.#o.vault.getSettings().selectedAccountId) ?? accounts[0]!;
    const connection: DappConnectionRequest = {
      name: proposal.name,
      url: proposal.url,
      ...(proposal.description ? { description: proposal.description } : {}),
      transport: proposal.transport,
      chains,
      methods: proposal.methods.filter((m) => isDappMethod(m) && DAPP_METHODS[m] !== 'refused'),
      accounts: [selected.address],
      available: [
        ...new Map(
          accounts.map((a) => [a.address, { address: a.address, name: a.name, watchOnly: a.kind === 'watch' }]),
        ).values(),
      ],
    };
    const review: ApprovalReview = {
      kind: 'connect',
      origin: proposal.origin,
      chainId: '',
      signer: '',
      payer: '',
      nonce: '',
      rcLimit: '0',
      operations: [],
      risks: [],
      connection,
    };
    let granted: string[];
    try {
      granted = await this.#o.approvals.requestConnection(review);
    } catch (error) {
      // Refused with the wallet open and unlocked: the person said no (a lock and the wallet's close refuse with the
      // same code, and are not the person's answer). Kept for the page's life it was asked in: the refusal a page's
      // close settles is that page's, not the next one's.
      const unlocked = this.#o.vault.status().unlocked && !this.#closed;
      if (inWindow && error instanceof WalletError && error.code === 'REJECTED' && unlocked)
        this.#refusedPages.set(proposal.origin, life);
      throw error;
    }
    const grant: StoredGrant = {
      origin: proposal.origin,
      name: proposal.name,
      url: proposal.url,
      transport: proposal.transport,
      chains: chains.map((c) => c.chain),
      accounts: granted,
      methods: connection.methods,
      grantedAt: String(Date.now()),
      sessions,
    };
    await this.#o.store.putGrant(grant);
    this.#changed();
    return grant;
  }

  /** An origin's grant, or undefined when it has none. */
  grant(origin: string): DappGrantInfo | undefined {
    const found = this.#o.store.grant(origin);
    if (!found) return undefined;
    const { sessions: _sessions, ...info } = found;
    return info;
  }

  /** The CAIP-2 chain of the wallet's selected network now (a transport that names no chain asks on it). */
  async selectedChain(): Promise<string> {
    const { node } = await this.#o.networks.node();
    return chainOf(await node.chainId());
  }

  /** Whether one of `chains` is the chain of a network of the wallet that answers now. */
  async anyChainReachable(chains: readonly string[]): Promise<boolean> {
    for (const chain of chains) {
      if (
        await networkOfChain(this.#o.networks, chain).then(
          () => true,
          () => false,
        )
      )
        return true;
    }
    return false;
  }

  /** The names this wallet gives addresses (an account's first name when several entries share an address). */
  accountNames(): Map<string, string> {
    const names = new Map<string, string>();
    for (const account of this.#o.vault.listAccounts())
      if (!names.has(account.address)) names.set(account.address, account.name);
    return names;
  }

  /** Records the transport's sessions of a grant (a WalletConnect session topic). */
  async setSessions(origin: string, sessions: string[]): Promise<void> {
    const grant = this.#o.store.grant(origin);
    if (!grant) return;
    await this.#o.store.putGrant({ ...grant, sessions });
    this.#changed();
  }

  /**
   * Removes an origin's grant; true when it had one. Its requests waiting for a decision or for the unlock are
   * refused: a person who disconnected a dApp (or whose dApp ended its session) signs nothing more for it.
   */
  async revoke(origin: string): Promise<boolean> {
    const had = await this.#o.store.removeGrant(origin);
    this.#refuseWaiting(origin, 'the dApp was disconnected');
    if (had) this.#changed();
    return had;
  }

  /**
   * The person closed the last page of `origin` the wallet opened (a dApp window): what the page asked that still
   * waits, for a decision or for the unlock, is refused. Its answer would reach no page, and an approved transaction
   * would be sent for a page that is gone. A dApp connected over WalletConnect is not that page: its requests stay.
   * A connection the person refused in that page is asked again in the next one.
   */
  pageClosed(origin: string): void {
    if (this.#o.store.grant(origin)?.transport === 'walletconnect') return;
    // Its next page asks anew, even after a refusal.
    this.#pageLives.set(origin, (this.#pageLives.get(origin) ?? 0) + 1);
    this.#refusedPages.delete(origin);
    this.#refuseWaiting(origin, 'the dApp page was closed');
  }

  /**
   * Rejects what `origin` asked that waits for a decision or for the unlock, and ends its waits for transactions: the
   * wallet stops asking the node for them.
   */
  #refuseWaiting(origin: string, reason: string): void {
    this.#o.approvals.rejectOrigin(origin, reason);
    for (const [fail, of] of [...this.#unlockWaits]) {
      if (of === origin)
        fail(new WalletError('REJECTED', `The request was refused: ${reason} while the wallet was locked.`));
    }
    for (const [stop, of] of [...this.#waitStops]) {
      if (of === origin) stop.abort(new WalletError('REJECTED', `The wait for the transaction ended: ${reason}.`));
    }
  }

  /**
   * Answers one request of a granted origin. An origin without a grant is asked for one first (for the chain, the
   * method and the account the request names).
   * @throws WalletError APPROVAL_REQUIRED (a method, account or chain outside the grant), INVALID_ARGUMENT (refused
   *   methods: koinos_signHash, koinos_submitBlock; a message that is no readable text), APPROVAL_PENDING (the origin
   *   has a signing request waiting), TOO_MANY_REQUESTS (the origin waits for as many transactions as it may),
   *   WATCH_ONLY, VAULT_LOCKED, REJECTED, and the node's and reviews' errors.
   */
  async handle(request: DappRequest): Promise<unknown> {
    const { origin, chain, method } = request;
    if (!isDappMethod(method))
      throw new WalletError('INVALID_ARGUMENT', `This wallet does not know the method ${describe(method)}.`);
    if (DAPP_METHODS[method] === 'refused') throw refusedMethod(method);
    const params = (typeof request.params === 'object' && request.params !== null ? request.params : {}) as Record<
      string,
      unknown
    >;
    const address = typeof params['address'] === 'string' ? params['address'] : undefined;
    let grant = this.#o.store.grant(origin);
    if (!grant) {
      grant = await this.connect({
        origin,
        name: origin,
        url: origin,
        transport: request.transport,
        chains: [chain],
        methods: [method],
      });
    }
    assertCovers(grant, chain, method, address);
    // Counted from here, before anything is awaited: waits asked at once are counted in the order they came.
    if (method === 'koinos_waitForTransaction') {
      return this.#waiting(origin, async (signal) =>
        answerRead(await networkOfChain(this.#o.networks, chain), this.#o.pending, method, params, signal),
      );
    }
    const ctx = await networkOfChain(this.#o.networks, chain);
    if (DAPP_METHODS[method] === 'read' && method !== 'koinos_prepareTransaction')
      return answerRead(ctx, this.#o.pending, method as ReadMethod, params);
    if (address === undefined)
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected params.address naming the account, got ${describe(params['address'])}`,
      );
    if (method === 'koinos_prepareTransaction') {
      const { tx } = await fillHeader(ctx, this.#o.pending, address, readDappTransaction(params['transaction']));
      return transactionToJson(tx);
    }
    return this.#exclusive(origin, async () => {
      await this.#whenUnlocked(origin);
      this.#assertCanSign(address);
      if (method === 'koinos_signMessage') return this.#signMessage(ctx, origin, address, params['message']);
      const options = (
        typeof params['options'] === 'object' && params['options'] !== null ? params['options'] : {}
      ) as Record<string, unknown>;
      return this.#signTransaction(
        ctx,
        origin,
        address,
        params['transaction'],
        options['abis'],
        method === 'koinos_signAndSendTransaction',
      );
    });
  }

  async #signMessage(ctx: ChainNetwork, origin: string, address: string, message: unknown): Promise<string> {
    const bytes = signableMessage(message);
    const review: ApprovalReview = {
      kind: 'message',
      origin,
      networkName: ctx.network.name,
      chainId: bytesToJson(ctx.chainId, BTYPE.BASE64),
      signer: address,
      payer: '',
      nonce: '',
      rcLimit: '0',
      operations: [],
      risks: [],
      message: message as string,
    };
    const approval = await this.#o.approvals.requestMessage(review, { signer: address, message: bytes });
    const signature = await this.#o.vault.signMessage(address, bytes, approval);
    // The SDK reads the answer with koilib's utils.decodeBase64: standard, padded base64.
    return Buffer.from(signature).toString('base64');
  }

  async #signTransaction(
    ctx: ChainNetwork,
    origin: string,
    address: string,
    transaction: unknown,
    abis: unknown,
    send: boolean,
  ): Promise<unknown> {
    // KOIN and VHP as the node resolves them now, with the added tokens: a review decodes their amounts.
    const tokens = await this.#o.tokens.list(ctx.network.id);
    const change = await this.#o.networks.observeChainId(ctx.network.id, ctx.chainId);
    const review = await reviewDappTransaction(
      ctx,
      {
        pending: this.#o.pending,
        tokens,
        chainIdChanged: change !== undefined,
        availableMana: async (payer) => {
          const [rc, reserved] = await Promise.all([ctx.node.rc(payer), ctx.node.reservedRc(payer)]);
          const held = reserved ?? this.#o.pending.heldMana(ctx.network.id, bytesToJson(payer, BTYPE.ADDRESS));
          return rc > held ? rc - held : 0n;
        },
        measuredCost: (key) => this.#costs.get(key),
        knownAddresses: (await this.#o.knownAddresses?.(ctx.network.id)) ?? [],
      },
      { origin, signer: address, transaction, abis, send },
    );
    const deps: ApprovedSubmitDeps = {
      networks: this.#o.networks,
      pending: this.#o.pending,
      follower: this.#o.follower,
      signer: this.#o.vault,
      approvals: this.#o.approvals,
    };
    // The second step: what the signed dry run did, confirmed before the signature leaves main; a failure after the
    // first approval is shown too (it can only be closed), and the dApp then gets that error.
    const decoder = dappDecoder(ctx, abis);
    // The grant is read again around the second step: a dApp disconnected (or granted less) while the first step, the
    // dry run or the second step went on gets nothing, and nothing is sent for it.
    const method = send ? 'koinos_signAndSendTransaction' : 'koinos_signTransaction';
    const stillGranted = () => {
      const grant = this.#o.store.grant(origin);
      if (!grant) {
        throw new WalletError(
          'REJECTED',
          `${origin} was disconnected while its request waited. Nothing was handed to it or sent.`,
        );
      }
      assertCovers(grant, ctx.chain, method, address);
    };
    const hold: ReleaseHold = {
      release: async (held) => {
        const effects = await describeEffects(ctx, held, tokens, decoder);
        stillGranted();
        await this.#o.approvals.requestEffects(held.approval, held.signed, effects);
        stillGranted();
      },
      failed: async (approval, error) => {
        await this.#o.approvals
          .requestEffects(approval, review.transaction, failedEffects(error, review.rcCap))
          .catch(() => undefined);
      },
    };
    const { signed, receipt } = await signApproved(deps, review, this.#costs, send, hold);
    const json = transactionToJson(signed);
    return send ? { receipt: toJson(TYPES.transactionReceipt, receipt!), transaction: json } : json;
  }

  /** Watch-only and unknown accounts are told apart before anyone is asked. */
  #assertCanSign(address: string): void {
    addressFromString(address);
    const accounts = this.#o.vault.listAccounts().filter((a) => a.address === address);
    if (accounts.length === 0)
      throw new WalletError('ACCOUNT_NOT_FOUND', `${address} is not an account of this wallet.`);
    if (accounts.every((a) => a.kind === 'watch')) {
      throw new WalletError(
        'WATCH_ONLY',
        `${address} is watch-only in this wallet: it has no key to sign with. Nothing was signed.`,
      );
    }
  }

  /**
   * A wait for a transaction, refused when the origin has MAX_WAITS_PER_ORIGIN under way already (counted as it is
   * called, before its first await). `run` ends early, with the signal's reason, when the origin's page closes, the
   * dApp is disconnected or the wallet closes.
   */
  async #waiting<T>(origin: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const under = [...this.#waitStops.values()].filter((of) => of === origin).length;
    if (under >= MAX_WAITS_PER_ORIGIN) {
      throw new WalletError(
        'TOO_MANY_REQUESTS',
        `${origin} is waiting for ${under} transactions already, the most one dApp may wait for at once. Ask again once one of them is included or its wait ends.`,
      );
    }
    const stop = new AbortController();
    this.#waitStops.set(stop, origin);
    try {
      return await run(stop.signal);
    } finally {
      this.#waitStops.delete(stop);
    }
  }

  /** One signing request per origin: a second one while the first is prepared, approved or sent is refused. */
  async #exclusive<T>(origin: string, run: () => Promise<T>): Promise<T> {
    if (this.#busy.has(origin)) {
      throw new WalletError(
        'APPROVAL_PENDING',
        `Another request from ${origin} is still waiting or running. Finish it first.`,
      );
    }
    this.#busy.add(origin);
    try {
      return await run();
    } finally {
      this.#busy.delete(origin);
    }
  }

  /**
   * The wallet closes: a request waiting for it to be unlocked is refused now, and so is every later one that would
   * wait (the approvals are closed apart, ApprovalQueue.close); the waits for transactions end. A dApp learns it at
   * once instead of waiting for its request to expire, and the wallet's close does not wait for it.
   */
  close(): void {
    this.#closed = true;
    for (const fail of [...this.#unlockWaits.keys()]) fail(closedWhileLocked());
    for (const stop of [...this.#waitStops.keys()])
      stop.abort(new WalletError('REJECTED', 'The wait for the transaction ended: the wallet closed.'));
  }

  /** Resolves once the vault is unlocked (the wallet shows its unlock screen meanwhile), for a request of `origin`. */
  #whenUnlocked(origin: string): Promise<void> {
    if (this.#o.vault.status().unlocked) return Promise.resolve();
    if (this.#closed) return Promise.reject(closedWhileLocked());
    const waitMs = this.#o.unlockWaitMs ?? APPROVAL_TTL_MS;
    return new Promise((resolve, reject) => {
      const finish = (error?: WalletError) => {
        clearTimeout(timer);
        stop();
        this.#unlockWaits.delete(finish);
        if (error) reject(error);
        else resolve();
      };
      const stop = this.#o.vault.onLockChange((status) => {
        if (status.unlocked) finish();
      });
      const timer = setTimeout(
        () => finish(new WalletError('VAULT_LOCKED', 'The wallet is locked. Unlock it, then ask again from the dApp.')),
        waitMs,
      );
      timer.unref?.();
      this.#unlockWaits.set(finish, origin);
    });
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The grant covers the chain, the method and the account (when the request names one). */
function assertCovers(grant: StoredGrant, chain: string, method: string, address: string | undefined): void {
  if (!grant.chains.includes(chain)) throw notGranted(`the chain ${chain}`);
  if (!grant.methods.includes(method)) throw notGranted(`the method ${method}`);
  if (address !== undefined && !grant.accounts.includes(address)) throw notGranted(`the account ${address}`);
}

function notGranted(what: string): WalletError {
  return new WalletError(
    'APPROVAL_REQUIRED',
    `This dApp's connection does not include ${what}. Connect again to grant it.`,
  );
}

function refusedMethod(method: string): WalletError {
  return method === 'koinos_signHash'
    ? new WalletError(
        'INVALID_ARGUMENT',
        "This wallet does not sign bare hashes: a hash can be a transaction's id, and signing it would approve a transaction nobody saw. Ask for signTransaction or signMessage.",
      )
    : new WalletError('INVALID_ARGUMENT', `This wallet does not answer ${method}.`);
}
