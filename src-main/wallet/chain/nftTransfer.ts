// Sending one NFT: prepare checks the recipient and that the account owns the token, fetches chain ID, nonce and mana
// as token transfers do (transferPlan.ts), and returns a review of exactly what will be signed (the call decoded with the
// collection's own ABI when it publishes one, else with the KCS-5 standard's; full addresses; risk flags); the review
// and its confirmation go through reviewBook.ts and approvedSubmit.ts, the one path to a signature that token transfers
// take too. Nothing is signed before the approval.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { contractAbiOf, type ContractAbi } from '../../koinos/contractAbi.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { DecodedOperation, NftCollectionInfo, SubmitReceipt, TransactionReview } from './types.ts';
import { KCS5_ABI } from './kcs5.ts';
import type { KoinosNode } from './koinosNode.ts';
import { readCollectionInfo, readKcs5, tokenIdOf, type NftService } from './nfts.ts';
import { ReviewBook } from './reviewBook.ts';
import { reviewOwnCall, type OwnCallDeps } from './ownCallReview.ts';
import { checkRecipient, refuseContractRecipient } from './transferPlan.ts';

/** An NFT transfer as the service takes it: the account by its address (the shells map account ids to addresses). */
export interface NftTransferRequest {
  /** Absent: the selected network. */
  networkId?: string;
  from: string;
  to: string;
  contract: string;
  /** "0x" and hex digits. */
  tokenId: string;
}

export interface NftTransferOptions extends OwnCallDeps {
  nfts: NftService;
}

/** What to do after approval when mana is short, or when the chain would revert the transfer. */
const HINTS = {
  mana: 'wait for mana to regenerate.',
  revert: 'Check that the account still owns this NFT, and the recipient.',
};

/** The collection's own ABI from the node's contract_meta_store, when it publishes one that parses; else undefined. */
async function ownAbi(node: KoinosNode, contract: string): Promise<ContractAbi | undefined> {
  try {
    const { meta } = await node.rpc.callMessage('contract_meta_store.get_contract_meta', {
      contract_id: addressFromString(contract),
    });
    return meta?.abi ? contractAbiOf(contract, meta.abi) : undefined;
  } catch {
    return undefined; // a node without the meta store, or an ABI that does not parse: the standard decodes the call
  }
}

/**
 * @example
 * const review = await nftTransfers.prepare({ from, to, contract: '1Nft...', tokenId: '0x01' });
 * const receipt = await nftTransfers.confirm(review.reviewId);
 */
export class NftTransferService {
  private readonly deps: NftTransferOptions;
  private readonly reviews: ReviewBook;

  constructor(options: NftTransferOptions) {
    this.deps = options;
    this.reviews = new ReviewBook(options, 'NFT transfer');
  }

  /**
   * Checks the transfer (recipient; the token's owner is `from`), fetches chain ID, nonce and mana, and returns the
   * review: the mana cap (all the available mana) and an estimate from the last NFT transfer measured in this
   * collection (or a reserve). Nothing is signed and nothing is sent to the node.
   * @throws WalletError INVALID_ADDRESS, INVALID_ARGUMENT (token id), NOT_FOUND (no such token, or no contract),
   *   UNKNOWN_COLLECTION, INSUFFICIENT_BALANCE (another account owns it), NOT_ENOUGH_MANA, node errors.
   */
  async prepare(request: NftTransferRequest): Promise<TransactionReview> {
    const fromBytes = addressFromString(request.from);
    const from = bytesToJson(fromBytes, BTYPE.ADDRESS);
    const { to } = checkRecipient(from, request.to);
    const { id: tokenId } = tokenIdOf(request.tokenId);
    const { network, node } = await this.deps.networks.node(request.networkId);
    const contractBytes = addressFromString(request.contract);
    const contract = bytesToJson(contractBytes, BTYPE.ADDRESS);
    const added = await this.deps.nfts.list(network.id);
    const collection: NftCollectionInfo =
      added.find((c) => c.contract === contract) ?? (await readCollectionInfo(node, contractBytes));
    refuseContractRecipient(to, [collection, ...added]);

    const owner = (await readKcs5(node, contractBytes, 'owner_of', { token_id: tokenId }))['value'];
    if (typeof owner !== 'string' || owner === '') {
      throw new WalletError(
        'NOT_FOUND',
        `${collection.symbol} has no token ${tokenId} (${contract} names no owner for it). Check the token, or list the account's NFTs again.`,
      );
    }
    if (owner !== from) {
      throw new WalletError(
        'INSUFFICIENT_BALANCE',
        `${from} does not own ${collection.symbol} ${tokenId}: ${owner} does. List the account's NFTs again.`,
      );
    }

    const transfer = KCS5_ABI.method('transfer');
    return reviewOwnCall(this.deps, this.reviews, {
      network,
      node,
      from,
      fromBytes,
      operations: [
        {
          call_contract: {
            contract_id: contractBytes,
            entry_point: transfer.entryPoint,
            args: KCS5_ABI.encodeArguments(transfer, { from, to, token_id: tokenId }),
          },
        },
      ],
      decode: async (transaction) => [await this.decode(node, collection, transaction)],
      costKey: `${network.id} ${contract}`,
      purpose: 'send this NFT',
      listed: added.map((c) => c.contract),
      contractsWithAbi: [contract],
      hints: HINTS,
    });
  }

  /**
   * The transfer call as the review shows it: decoded from the very bytes that will be signed, with the collection's
   * own ABI when its `transfer` has the standard's entry point, else with KCS-5's; the sentence names the collection,
   * the token and both addresses in full.
   */
  private async decode(
    node: KoinosNode,
    collection: NftCollectionInfo,
    transaction: Transaction,
  ): Promise<DecodedOperation> {
    const call = transaction.operations[0]!.call_contract!;
    const own = await ownAbi(node, collection.contract);
    const ownMethod = own?.methodByEntryPoint(call.entry_point);
    let args: Record<string, unknown> | undefined;
    let source = "the collection's ABI";
    if (own && ownMethod) {
      try {
        args = own.decodeArguments(ownMethod, call.args);
      } catch {
        args = undefined;
      }
    }
    if (!args) {
      args = KCS5_ABI.decodeArguments(KCS5_ABI.method('transfer'), call.args);
      source = 'the KCS-5 standard';
    }
    const text = (key: string) => (typeof args[key] === 'string' ? args[key] : '(none)');
    return {
      contract: collection.contract,
      entryPoint: ownMethod?.name ?? 'transfer',
      args,
      summary: `Transfer NFT ${text('token_id')} of ${collection.name} (${collection.symbol}, ${collection.contract}) from ${text('from')} to ${text('to')}, decoded with ${source}`,
    };
  }

  /**
   * Puts the reviewed NFT transfer before the approval queue and, once a person approved it, sizes rc_limit with a
   * dry run, signs, submits and follows it (approvedSubmit.ts).
   * @throws WalletError NOT_FOUND (unknown or expired review), REJECTED, APPROVAL_EXPIRED, CHAIN_ID_MISMATCH,
   *   INVALID_NONCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, node errors.
   */
  confirm(reviewId: string): Promise<SubmitReceipt> {
    return this.reviews.confirm(reviewId);
  }
}
