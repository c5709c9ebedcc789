// The `koinos` CAIP-2 namespace (ChainAgnostic namespaces koinos/caip2.md): a chain is named by the first 32 characters
// of its base64url chain ID, an account by `koinos:<reference>:<address>`; and which of the wallet's networks a dApp's
// chain is, asked of the networks themselves (their chain IDs now), never assumed from a name.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, causeText, describe } from '../../koinos/errors.ts';
import type { NetworkInfo } from '../chain/types.ts';
import type { KoinosNode } from '../chain/koinosNode.ts';
import type { NetworkService } from '../chain/networks.ts';

/** The namespace of Koinos chains. */
const KOINOS_NAMESPACE = 'koinos';
/** Mainnet's chain reference. */
const MAINNET_CHAIN = 'koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e';
/** Harbinger's references: the one of the CAIP document and SDK ≤ 0.0.x, and the relaunched testnet's (SDK 0.1.4). */
const HARBINGER_CHAINS: readonly string[] = [
  'koinos:EiAAKqFi-puoXnuJTdn7qBGGJa8yd-dc',
  'koinos:EiBncD4pKRIQWco_WRqo5Q-xnXR7JuO3',
];

const CHAIN = /^koinos:[A-Za-z0-9_-]{32}$/;

/**
 * The public network a chain ID is known to be, by its CAIP-2 reference, or undefined (a devnet, a custom chain): for
 * a review made with no node to ask, as on an offline machine.
 * @example
 * knownChainName(mainnetChainId); // 'Koinos Mainnet'
 */
export function knownChainName(chainId: Uint8Array): string | undefined {
  const chain = chainOf(chainId);
  if (chain === MAINNET_CHAIN) return 'Koinos Mainnet';
  return HARBINGER_CHAINS.includes(chain) ? 'Harbinger testnet' : undefined;
}

/**
 * The CAIP-2 chain of a chain ID: `koinos:` and the first 32 characters of its base64url text.
 * @example
 * chainOf(chainId); // 'koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e' on mainnet
 */
export function chainOf(chainId: Uint8Array): string {
  return `${KOINOS_NAMESPACE}:${bytesToJson(chainId, BTYPE.BASE64).slice(0, 32)}`;
}

/** True when `text` is a Koinos CAIP-2 chain. */
export function isKoinosChain(text: unknown): text is string {
  return typeof text === 'string' && CHAIN.test(text);
}

/** A network of the wallet that is the chain, and its node. */
export interface ChainNetwork {
  chain: string;
  network: NetworkInfo;
  node: KoinosNode;
  chainId: Uint8Array;
}

/**
 * The wallet's network whose chain ID the chain names: each network is asked for its chain ID now (a testnet restart
 * changes it). Mainnet networks are asked only for mainnet's chain, whose ID never changes: a dApp on a local or test
 * chain does not make the wallet call the public mainnet nodes. The networks that do not answer are skipped, and named
 * when no other network is on the chain.
 * @throws WalletError NOT_FOUND when no network of the wallet is on that chain; NODE_UNREACHABLE when none that answered
 *   is, and some did not answer (one of them may be it).
 */
export async function networkOfChain(networks: NetworkService, chain: string): Promise<ChainNetwork> {
  if (!isKoinosChain(chain))
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a Koinos chain such as "${MAINNET_CHAIN}", got ${describe(chain)}`,
    );
  const { networks: all } = await networks.list();
  const candidates = chain === MAINNET_CHAIN ? all : all.filter((n) => n.kind !== 'mainnet');
  // The likely network first: fewer nodes asked.
  const likely = (n: NetworkInfo) =>
    chain === MAINNET_CHAIN
      ? n.kind === 'mainnet'
      : HARBINGER_CHAINS.includes(chain)
        ? n.kind === 'testnet'
        : n.kind === 'local';
  const silent: { network: NetworkInfo; error: unknown }[] = [];
  for (const network of [...candidates.filter(likely), ...candidates.filter((n) => !likely(n))]) {
    try {
      const { node } = await networks.node(network.id);
      const chainId = await node.chainId();
      if (chainOf(chainId) === chain) return { chain, network, node, chainId };
    } catch (error) {
      silent.push({ network, error });
    }
  }
  if (silent.length > 0) {
    throw new WalletError(
      'NODE_UNREACHABLE',
      `No network of this wallet that answered is on chain ${chain}, and ${silent.map((s) => s.network.name).join(', ')} did not answer. Check ${silent.length === 1 ? 'that network' : 'those networks'}, then try again.`,
      { details: silent.map((s) => `${s.network.name}: ${causeText(s.error)}`).join('; ') },
    );
  }
  throw new WalletError(
    'NOT_FOUND',
    `None of this wallet's networks is on chain ${chain} now. Add or start that network, then connect again.`,
  );
}
