// Main's side of kondor-js pages (the 'window' transport): a command from a page's top frame, with the origin the shell
// read from that frame (never from the page's message), becomes a DappService request. getAccounts answers the grant's
// accounts; signing commands go through the grant and the approval queue; provider reads answer only a granted origin.
import { WalletError, describe } from '../../koinos/errors.ts';
import type { DappGrantInfo } from './types.ts';
import type { DappMethod } from './dappMethods.ts';
import type { DappService } from './dappService.ts';
import { KONDOR_COMMANDS, isKondorCommand, type KondorAnswer, type KondorCommand } from './kondorCommands.ts';

/** A command as the shell hands it on: the origin is the sending frame's, read by the shell. */
export interface KondorRequest {
  origin: string;
  command: unknown;
  args: unknown;
}

type Args = Record<string, unknown>;
type Mapped = { method: DappMethod; params: Args };

const address = (args: Args, name: string): unknown => args[name];

/** Each answered command as a koinos_* request (the WalletConnect methods, which DappService answers). */
const TO_METHOD: Record<Exclude<KondorCommand, 'getAccounts'>, ((args: Args) => Mapped) | null> = {
  'signer:signTransaction': (a) => ({
    method: 'koinos_signTransaction',
    params: { address: address(a, 'signerAddress'), transaction: a['transaction'], options: { abis: a['abis'] } },
  }),
  'signer:sendTransaction': (a) => {
    const opts = isArgs(a['optsSend']) ? a['optsSend'] : {};
    if (opts['broadcast'] === false)
      throw new WalletError(
        'INVALID_ARGUMENT',
        'This wallet sends what it signs for sendTransaction. To sign without sending, ask for signTransaction.',
      );
    return {
      method: 'koinos_signAndSendTransaction',
      params: { address: address(a, 'signerAddress'), transaction: a['transaction'], options: { abis: opts['abis'] } },
    };
  },
  'signer:signMessage': (a) => ({
    method: 'koinos_signMessage',
    params: { address: address(a, 'signerAddress'), message: a['message'] },
  }),
  'signer:signHash': null,
  'provider:call': (a) => ({ method: 'koinos_JsonRpcCall', params: { method: a['method'], params: a['params'] } }),
  'provider:getNonce': (a) => ({ method: 'koinos_getNonce', params: { address: a['account'] } }),
  'provider:getNextNonce': (a) => ({ method: 'koinos_getNextNonce', params: { address: a['account'] } }),
  'provider:getAccountRc': (a) => ({ method: 'koinos_getAccountRc', params: { address: a['account'] } }),
  'provider:getTransactionsById': (a) => ({
    method: 'koinos_getTransactionsById',
    params: { transactionIds: a['transactionIds'] },
  }),
  'provider:getBlocksById': (a) => ({ method: 'koinos_getBlocksById', params: { blockIds: a['blockIds'] } }),
  'provider:getHeadInfo': () => ({ method: 'koinos_getHeadInfo', params: {} }),
  'provider:getChainId': () => ({ method: 'koinos_getChainId', params: {} }),
  'provider:getBlocks': (a) => ({
    method: 'koinos_getBlocks',
    params: { height: a['height'], numBlocks: a['numBlocks'], idRef: a['idRef'] },
  }),
  'provider:getBlock': (a) => ({ method: 'koinos_getBlock', params: { height: a['height'] } }),
  'provider:wait': (a) => ({
    method: 'koinos_waitForTransaction',
    params: { transactionId: a['txId'], timeout: a['timeout'] },
  }),
  'provider:sendTransaction': (a) => ({
    method: 'koinos_sendTransaction',
    params: { transaction: a['transaction'], broadcast: a['broadcast'] },
  }),
  'provider:readContract': (a) => ({ method: 'koinos_readContract', params: { operation: a['operation'] } }),
  'provider:getForkHeads': () => ({
    method: 'koinos_JsonRpcCall',
    params: { method: 'chain.get_fork_heads', params: {} },
  }),
  'provider:getResourceLimits': () => ({
    method: 'koinos_JsonRpcCall',
    params: { method: 'chain.get_resource_limits', params: {} },
  }),
  'provider:submitBlock': null,
  'provider:invokeSystemCall': null,
};

/** The methods a kondor page's grant holds: every one its commands map to (kondor-js asks for no subset). */
const KONDOR_GRANT_METHODS: readonly DappMethod[] = [
  'koinos_signTransaction',
  'koinos_signAndSendTransaction',
  'koinos_signMessage',
  'koinos_JsonRpcCall',
  'koinos_getNonce',
  'koinos_getNextNonce',
  'koinos_getAccountRc',
  'koinos_getTransactionsById',
  'koinos_getBlocksById',
  'koinos_getHeadInfo',
  'koinos_getChainId',
  'koinos_getBlocks',
  'koinos_getBlock',
  'koinos_waitForTransaction',
  'koinos_sendTransaction',
  'koinos_readContract',
];

/**
 * Answers one kondor command of `origin`; never throws: a refusal or failure is kondor-js's `{ error }` sentence.
 * @example
 * const answer = await answerKondor(wallet.dapps, { origin: frame.origin, command: 'getAccounts', args: {} });
 * // { result: [{ name: 'Dev 0', address: '1…', signers: [] }] }
 */
export async function answerKondor(
  dapps: DappService,
  request: KondorRequest,
  log: (line: string) => void = () => {},
): Promise<KondorAnswer> {
  try {
    return { result: await run(dapps, request) };
  } catch (error) {
    if (error instanceof WalletError) return { error: error.shortMessage };
    log(`[dapps] ${describe(request.command)} of ${request.origin} failed: ${String(error)}`);
    return { error: 'The wallet could not answer this request.' };
  }
}

async function run(dapps: DappService, { origin, command, args }: KondorRequest): Promise<unknown> {
  if (!isOrigin(origin))
    throw new WalletError('INVALID_ARGUMENT', `expected the page's origin (http or https), got ${describe(origin)}`);
  if (!isKondorCommand(command))
    throw new WalletError('INVALID_ARGUMENT', `This wallet does not know the command ${describe(command)}.`);
  const a = isArgs(args) ? args : {};
  const kind = KONDOR_COMMANDS[command];
  if (command === 'getAccounts') {
    const grant = await grantOf(dapps, origin);
    const names = dapps.accountNames();
    return grant.accounts.map((address) => ({ name: names.get(address) ?? address, address, signers: [] }));
  }
  const map = TO_METHOD[command];
  if (kind === 'refused' || map === null) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      command === 'signer:signHash'
        ? "This wallet does not sign bare hashes: a hash can be a transaction's id. Ask for signTransaction or signMessage."
        : `This wallet does not answer ${command}.`,
    );
  }
  // Reads use the person's grant, never ask for one: a page cannot reach the wallet's nodes before it was connected.
  const existing = dapps.grant(origin);
  if (kind === 'read' && !existing)
    throw new WalletError(
      'APPROVAL_REQUIRED',
      'This page is not connected to the wallet. Connect it first (getAccounts).',
    );
  const grant = existing ?? (await grantOf(dapps, origin));
  const { method, params } = map(a);
  const answer = await dapps.handle({ origin, transport: 'window', chain: grant.chains[0]!, method, params });
  // kondor-js decodes the signature as base64url; DappService answers standard base64 (the WalletConnect SDK's).
  return method === 'koinos_signMessage' ? base64ToBase64url(answer as string) : answer;
}

/**
 * The origin's grant; one without asks a person for one (every method kondor can send, on the selected network). So
 * does a grant on a chain no network of the wallet that answers is on (a testnet restart, a devnet reset): else the
 * page could never reach the wallet again, each request answering that its chain is gone. The new grant is asked for
 * the selected network's chain, as a page without one is.
 */
async function grantOf(dapps: DappService, origin: string): Promise<DappGrantInfo> {
  const existing = dapps.grant(origin);
  const selected = await dapps.selectedChain().catch(() => undefined);
  if (existing && (selected === undefined || existing.chains.includes(selected))) return existing;
  if (existing && (await dapps.anyChainReachable(existing.chains))) return existing;
  const chain = selected ?? (await dapps.selectedChain());
  return dapps.connect({
    origin,
    name: origin,
    url: origin,
    transport: 'window',
    chains: [chain],
    methods: [...KONDOR_GRANT_METHODS],
  });
}

function isArgs(v: unknown): v is Args {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === v;
  } catch {
    return false;
  }
}

function base64ToBase64url(text: string): string {
  return text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
