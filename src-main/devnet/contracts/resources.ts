// The resources contract as a built-in system contract (koinos-contracts-cpp contracts/resources/resources.cpp): it
// answers the resource limits and prices the devnet meters with (../resources.ts RESOURCE_LIMITS), and the market and
// parameter figures a fresh mainnet starts with. The devnet's prices are fixed, so there is no market to move or set.
import { encode } from '../../koinos/codec.ts';
import { ERROR_CODE, reversion } from '../state/chainError.ts';
import { COMPUTE, RESOURCE_LIMITS } from '../state/resources.ts';
import { decodeArguments, check, useCompute, type CallContext, type Contract } from './context.ts';
import { MANA_REGEN_TIME_MS } from './koin.ts';
import { methodOf, systemAbi, systemMethod, type SystemMethod } from './systemAbi.ts';

const PKG = 'koinos.contracts.resources';

/**
 * resources.cpp's entry points. get_resource_parameters and set_resource_parameters are not sha256 of their names
 * (the contract's own enum and its ABI say 0xf53b5216 and 0xa08e6b90).
 */
const RESOURCES_METHODS = {
  get_resource_limits: systemMethod('koinos.chain', 'get_resource_limits', true, 'Gets the resource limits'),
  consume_block_resources: systemMethod('koinos.chain', 'consume_block_resources', false, 'Consumes block resources'),
  get_resource_markets: systemMethod(PKG, 'get_resource_markets', true, 'Gets the resource markets'),
  set_resource_markets_parameters: systemMethod(
    PKG,
    'set_resource_markets_parameters',
    false,
    'Sets the resource markets parameters',
  ),
  get_resource_parameters: {
    ...systemMethod(PKG, 'get_resource_parameters', true, 'Gets the resource parameters'),
    entryPoint: 0xf53b5216,
  },
  set_resource_parameters: {
    ...systemMethod(PKG, 'set_resource_parameters', false, 'Sets the resource parameters'),
    entryPoint: 0xa08e6b90,
  },
} as const satisfies Record<string, SystemMethod>;

/**
 * resources.cpp's defaults, with the devnet's mana regeneration: the parameters a chain starts with. The block
 * interval is the chain's target, not the devnet's `--block-time`.
 */
const RESOURCE_PARAMETERS = {
  block_interval_ms: 3_000n,
  rc_regen_ms: MANA_REGEN_TIME_MS,
  decay_constant: 18_446_596_084_619_782_819n, // 2^(-1/blocks per month) × 2^64
  one_minus_decay_constant: 147_989_089_768_795n,
  print_rate_premium: 1_688n,
  print_rate_precision: 1_000n,
} as const;

/** resources.cpp's per-block budgets (what a market prints towards); the limits are the devnet's own. */
const BLOCK_BUDGET = { disk_storage: 39_600n, network_bandwidth: 262_144n, compute_bandwidth: 57_500_000n } as const;

/**
 * The markets as resources.cpp initialize_markets starts them: supply = (budget × premium / precision) × 2^64 /
 * (1 − decay), block_budget as upstream, block_limit the devnet's RESOURCE_LIMITS (mainnet's own limits).
 */
function resourceMarkets(): Record<
  keyof typeof BLOCK_BUDGET,
  { resource_supply: bigint; block_budget: bigint; block_limit: bigint }
> {
  const p = RESOURCE_PARAMETERS;
  const market = (budget: bigint, limit: bigint) => ({
    resource_supply: (((budget * p.print_rate_premium) / p.print_rate_precision) << 64n) / p.one_minus_decay_constant,
    block_budget: budget,
    block_limit: limit,
  });
  return {
    disk_storage: market(BLOCK_BUDGET.disk_storage, RESOURCE_LIMITS.disk_storage_limit),
    network_bandwidth: market(BLOCK_BUDGET.network_bandwidth, RESOURCE_LIMITS.network_bandwidth_limit),
    compute_bandwidth: market(BLOCK_BUDGET.compute_bandwidth, RESOURCE_LIMITS.compute_bandwidth_limit),
  };
}

/** The resources contract at one address. */
export class ResourcesContract implements Contract {
  constructor(readonly address: Uint8Array) {}

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    // resources.cpp's main returns 1 for an unknown entry point: a reversion.
    const method = methodOf(RESOURCES_METHODS, entryPoint, ctx.readOnly, 'resources');
    decodeArguments(method.argument, args);
    switch (method.name) {
      case 'get_resource_limits':
        useCompute(ctx, COMPUTE.get_object);
        return encode(method.result, { value: RESOURCE_LIMITS });
      case 'get_resource_markets':
        useCompute(ctx, COMPUTE.get_object);
        return encode(method.result, { value: resourceMarkets() });
      case 'get_resource_parameters':
        useCompute(ctx, COMPUTE.get_object);
        return encode(method.result, { value: RESOURCE_PARAMETERS });
      case 'consume_block_resources':
        // Only the chain calls it, in kernel mode, and the devnet's chain meters blocks itself (../resources.ts).
        ctx.logs?.push('The system call consume_block_resources must be called from kernel context');
        return encode(method.result, { value: false });
      case 'set_resource_markets_parameters':
      case 'set_resource_parameters': {
        const what = method.name === 'set_resource_parameters' ? 'resource parameters' : 'market parameters';
        useCompute(ctx, COMPUTE.check_system_authority);
        check(
          ctx.authorize(ctx.genesisAddress),
          `can only set ${what} with system authority`,
          ERROR_CODE.authorization_failure,
        );
        throw reversion(
          `the devnet's resource prices are fixed (RESOURCE_LIMITS); ${method.name} is not supported on the devnet`,
        );
      }
    }
    throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the resources contract`);
  }
}

let abiText: string | undefined;

/** The resources contract's ABI as JSON text (what the contract meta store answers). */
export function resourcesAbi(): string {
  abiText ??= systemAbi(Object.values(RESOURCES_METHODS), [
    PKG,
    'koinos.chain.get_resource_limits_arguments',
    'koinos.chain.get_resource_limits_result',
    'koinos.chain.resource_limit_data',
    'koinos.chain.consume_block_resources_arguments',
    'koinos.chain.consume_block_resources_result',
  ]);
  return abiText;
}
