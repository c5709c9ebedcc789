// Decoding operations and events with each contract's ABI from contract_meta_store (the devnet's REST answers, the
// CLI's receipts), as koinos-rest does (utils/events.ts decodeEvents, utils/operations.ts decodeOperations). KOIN and
// VHP keep the protocol library's own decoders (koin.ts): the same JSON, without reading their ABI every time.
import { BTYPE, bytesToJson, toJson, type JsonObject, type MessageInput } from './codec.ts';
import { contractAbiOf, type ContractAbi } from './contractAbi.ts';
import { decodeEventJson, decodeOperationJson } from './koin.ts';
import type { EventData, Operation } from './types.ts';

/** The default of a bytes field. */
const NO_BYTES = new Uint8Array(0);

/** Decodes operations and events; one per request (it remembers the ABIs it read). */
export interface ContractDecoder {
  /** The contract's parsed ABI; undefined when it has none or it does not parse. */
  abiOf(contractId: string): Promise<ContractAbi | undefined>;
  /** An event as JSON (a field left out is its default), its data decoded with its contract's ABI where it has one. */
  event(event: MessageInput<EventData>): Promise<JsonObject>;
  /** An operation as JSON (a field left out is its default), a call's arguments decoded with the contract's ABI. */
  operation(op: MessageInput<Operation>): Promise<JsonObject>;
}

/** What the decoder needs: the ABI text of a contract, and which contracts are the system tokens. */
export interface DecoderDeps {
  abiText(contractId: string): Promise<string | undefined>;
  isSystemToken(contractId: Uint8Array): boolean;
}

/**
 * koinos-rest utils/events.ts: event names of tokens that do not follow the standard are patched before decoding
 * (`koinos.contracts.token.transfer_event` → `token.transfer_event`, `….token.mint` → `token.mint_event`).
 */
function patchedName(name: string): string {
  for (const kind of ['burn', 'mint', 'transfer'])
    if (name.endsWith(`token.${kind}_event`)) return `token.${kind}_event`;
  if (name.endsWith('token.approve')) return 'token.approve_event';
  for (const kind of ['burn', 'mint', 'transfer']) if (name.endsWith(`token.${kind}`)) return `token.${kind}_event`;
  return name;
}

/** A decoder for one request. */
export function contractDecoder(deps: DecoderDeps): ContractDecoder {
  const abis = new Map<string, Promise<ContractAbi | undefined>>();

  const abiOf = (contractId: string): Promise<ContractAbi | undefined> => {
    let found = abis.get(contractId);
    if (!found) {
      found = deps.abiText(contractId).then((text) => {
        if (text === undefined) return undefined;
        try {
          return contractAbiOf(contractId, text);
        } catch {
          return undefined; // an ABI that does not parse decodes nothing, as koinos-rest ignores decoding errors
        }
      });
      abis.set(contractId, found);
    }
    return found;
  };

  return {
    abiOf,
    async event(event) {
      const source = event.source ?? NO_BYTES;
      if (source.length > 0 && !deps.isSystemToken(source)) {
        const abi = await abiOf(bytesToJson(source, BTYPE.CONTRACT_ID));
        const name = patchedName(event.name ?? '');
        const data = abi?.decodeEvent(name, event.data ?? NO_BYTES);
        if (data) return { ...toJson('koinos.protocol.event_data', { ...event, name }), data };
      }
      return decodeEventJson(event);
    },
    async operation(op) {
      const call = op.call_contract;
      if (call && !deps.isSystemToken(call.contract_id ?? NO_BYTES)) {
        const contractId = bytesToJson(call.contract_id ?? NO_BYTES, BTYPE.CONTRACT_ID);
        const abi = await abiOf(contractId);
        const method = abi?.methodByEntryPoint(call.entry_point ?? 0);
        if (abi && method) {
          try {
            return {
              call_contract: {
                contract_id: contractId,
                entry_point: method.name,
                args: abi.decodeArguments(method, call.args ?? NO_BYTES),
              },
            };
          } catch {
            // arguments that do not decode stay encoded, as the REST service does
          }
        }
      }
      return decodeOperationJson(op, deps.isSystemToken);
    },
  };
}
