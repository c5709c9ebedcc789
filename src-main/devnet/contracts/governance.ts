// The governance contract as a built-in system contract (koinos-contracts-as contracts/governance): the reads clients
// make answer a chain with no proposals. Submitting one is refused: governance on the real chain is block producers
// voting over weeks of blocks (pre_block_callback), which a single-producer devnet has no use for.
import { encode } from '../../koinos/codec.ts';
import { reversion } from '../state/chainError.ts';
import { COMPUTE } from '../state/resources.ts';
import { decodeArguments, useCompute, type CallContext, type Contract } from './context.ts';
import { methodOf, systemAbi, systemMethod, type SystemMethod } from './systemAbi.ts';

const PKG = 'koinos.contracts.governance';

/** Governance.ts's entry points that clients call (sha256 of each name, as its ABI numbers them). */
const GOVERNANCE_METHODS = {
  submit_proposal: systemMethod(PKG, 'submit_proposal', false, 'Submits a proposal'),
  get_proposal_by_id: systemMethod(PKG, 'get_proposal_by_id', true, 'Retrieves a proposal by ID'),
  get_proposals_by_status: systemMethod(PKG, 'get_proposals_by_status', true, 'Retrieves proposals by status'),
  get_proposals: systemMethod(PKG, 'get_proposals', true, 'Retrieves proposals'),
} as const satisfies Record<string, SystemMethod>;

/** The governance contract at one address. */
export class GovernanceContract implements Contract {
  constructor(readonly address: Uint8Array) {}

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    // Also pre_block_callback, which only the chain calls (the devnet never does): no proposal ever needs a vote.
    const method = methodOf(GOVERNANCE_METHODS, entryPoint, ctx.readOnly, 'governance');
    decodeArguments(method.argument, args);
    switch (method.name) {
      case 'get_proposal_by_id':
        // Governance.ts answers an unset value for an id it does not hold.
        useCompute(ctx, COMPUTE.get_object);
        return encode(method.result, {});
      case 'get_proposals':
      case 'get_proposals_by_status':
        useCompute(ctx, COMPUTE.get_next_object);
        return encode(method.result, { value: [] });
      case 'submit_proposal':
        throw reversion(
          'submit_proposal is not supported on the devnet: it has no governance vote (block producers vote on mainnet)',
        );
    }
    throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the governance contract`);
  }
}

let abiText: string | undefined;

/** The governance contract's ABI as JSON text (what the contract meta store answers). */
export function governanceAbi(): string {
  const events = Object.fromEntries(
    ['proposal_status_event', 'proposal_vote_event'].map((e) => [`${PKG}.${e}`, `${PKG}.${e}`]),
  );
  abiText ??= systemAbi(Object.values(GOVERNANCE_METHODS), [PKG, 'koinos.protocol'], events);
  return abiText;
}
