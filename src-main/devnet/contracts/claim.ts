// The claim contract as a built-in system contract (koinos-contracts-as contracts/claim/assembly/Claim.ts): mainnet's
// KOIN claims of the Ethereum snapshot. A devnet has no snapshot, so its claim set is empty: get_info answers zeros,
// check_claim an unclaimed zero, and claim refuses every address as the contract refuses one it does not hold.
import { encode } from '../../koinos/codec.ts';
import { reversion } from '../state/chainError.ts';
import { COMPUTE } from '../state/resources.ts';
import { decodeArguments, useCompute, type CallContext, type Contract } from './context.ts';
import { methodOf, systemAbi, systemMethod, type SystemMethod } from './systemAbi.ts';

const PKG = 'koinos.contracts.claim';

/** Claim.ts's entry points (sha256 of each name, as its ABI numbers them). */
const CLAIM_METHODS = {
  claim: systemMethod(PKG, 'claim', false, 'Claims KOIN from the snapshot'),
  get_info: systemMethod(PKG, 'get_info', true, 'Gets information on KOIN claims'),
  check_claim: systemMethod(PKG, 'check_claim', true, 'Checks the status of a KOIN claim'),
} as const satisfies Record<string, SystemMethod>;

/** The claim contract at one address. */
export class ClaimContract implements Contract {
  constructor(readonly address: Uint8Array) {}

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    const method = methodOf(CLAIM_METHODS, entryPoint, ctx.readOnly, 'claim');
    decodeArguments(method.argument, args);
    // Each entry point starts with a read of the claim's state (Claim.ts getObject): there is none to find.
    useCompute(ctx, COMPUTE.get_object);
    switch (method.name) {
      case 'get_info':
        // The genesis info object of an empty snapshot: every count zero.
        return encode(method.result, {
          value: { total_eth_accounts: 0, eth_accounts_claimed: 0, total_koin: 0n, koin_claimed: 0n },
        });
      case 'check_claim':
        return encode(method.result, { value: { token_amount: 0n, claimed: false } });
      case 'claim':
        throw reversion('no KOIN claim with that address exists');
    }
    throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the claim contract`);
  }
}

let abiText: string | undefined;

/** The claim contract's ABI as JSON text (what the contract meta store answers). */
export function claimAbi(): string {
  abiText ??= systemAbi(Object.values(CLAIM_METHODS), [PKG]);
  return abiText;
}
