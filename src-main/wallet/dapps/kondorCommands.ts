// The commands kondor-js 1.2 posts on a page (`{id, command, args, to}`, answered `{id, result}` or `{id, error}`), and
// what the wallet does with each. Pure: the page-side bridge (in a preload or a test page) and main both read it.
/** What the wallet does with a kondor command: the accounts of the grant, a signing request, a read, or a refusal. */
export const KONDOR_COMMANDS = {
  getAccounts: 'accounts',
  'signer:signTransaction': 'sign',
  'signer:sendTransaction': 'sign',
  'signer:signMessage': 'sign',
  // kondor-js still sends it; Kondor itself stopped answering it (a hash can be a transaction's id).
  'signer:signHash': 'refused',
  'provider:call': 'read',
  'provider:getNonce': 'read',
  'provider:getNextNonce': 'read',
  'provider:getAccountRc': 'read',
  'provider:getTransactionsById': 'read',
  'provider:getBlocksById': 'read',
  'provider:getHeadInfo': 'read',
  'provider:getChainId': 'read',
  'provider:getBlocks': 'read',
  'provider:getBlock': 'read',
  'provider:wait': 'read',
  'provider:sendTransaction': 'read',
  'provider:readContract': 'read',
  'provider:getForkHeads': 'read',
  'provider:getResourceLimits': 'read',
  'provider:submitBlock': 'refused',
  'provider:invokeSystemCall': 'refused',
} as const satisfies Record<string, 'accounts' | 'sign' | 'read' | 'refused'>;

export type KondorCommand = keyof typeof KONDOR_COMMANDS;

/** True when `name` is a command kondor-js sends (answered or refused). */
export function isKondorCommand(name: unknown): name is KondorCommand {
  return typeof name === 'string' && Object.hasOwn(KONDOR_COMMANDS, name);
}

/** The longest request a page may post, as JSON text: a transaction with its ABIs fits many times over. */
export const MAX_KONDOR_REQUEST_CHARS = 512 * 1024;

/** What a transport answers the page: kondor-js rejects with `error` (a sentence) or resolves with `result`. */
export type KondorAnswer = { result: unknown } | { error: string };

/** The one IPC channel a dApp window's preload invokes: `{ command, args }`, answered with a KondorAnswer. */
export const KONDOR_IPC_CHANNEL = 'dapp:kondor';
