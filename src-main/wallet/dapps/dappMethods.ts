// The koinos_* methods a dApp sends (the dApp SDK @armana/walletconnect-koinos-sdk-js and the wallets that answer it),
// and what the wallet does with each: asks a person (`sign`), answers within a grant (`read`), or refuses (`refused`).
/** What the wallet does with a method. A record over every method, so that a new one must be placed. */
export const DAPP_METHODS = {
  koinos_signTransaction: 'sign',
  koinos_signAndSendTransaction: 'sign',
  koinos_signMessage: 'sign',
  koinos_prepareTransaction: 'read',
  koinos_waitForTransaction: 'read',
  koinos_sendTransaction: 'read',
  koinos_readContract: 'read',
  koinos_JsonRpcCall: 'read',
  koinos_getNonce: 'read',
  koinos_getNextNonce: 'read',
  koinos_getAccountRc: 'read',
  koinos_getTransactionsById: 'read',
  koinos_getBlocksById: 'read',
  koinos_getHeadInfo: 'read',
  koinos_getChainId: 'read',
  koinos_getBlocks: 'read',
  koinos_getBlock: 'read',
  // A hash could be a transaction's id: signing it signs the transaction unseen. A block is the producers' business.
  koinos_signHash: 'refused',
  koinos_submitBlock: 'refused',
} as const satisfies Record<string, 'sign' | 'read' | 'refused'>;

export type DappMethod = keyof typeof DAPP_METHODS;

/** True when `name` is a method the wallet knows (answered or refused). */
export function isDappMethod(name: unknown): name is DappMethod {
  return typeof name === 'string' && Object.hasOwn(DAPP_METHODS, name);
}
