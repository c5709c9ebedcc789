// KOIN and VHP answer contract_meta_store with the ABI files of koinos-contracts-as byte for byte (kept in
// src-main/devnet/contracts/abi with their source), and clients decode KOIN blocks and events through that ABI: koilib's
// Contract with the fetched ABI, and the devnet's own REST (as koinos-rest does on mainnet).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider } from 'koilib';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { KCS5_ABI, KOIN_ABI, VHP_ABI } from '../../src-main/devnet/contracts/abi/systemAbis.ts';
import { rest, rpc, transferJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const ABI_DIR = join(import.meta.dirname, '../../src-main/devnet/contracts/abi');
const file = (name: string) => readFileSync(join(ABI_DIR, name), 'utf8');

let devnet: Devnet;
let blockId: string;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 2, initialBalance: 1000n * KOIN, log: () => {} });
  await rpc(devnet.url, 'chain.submit_transaction', {
    transaction: transferJson(devnet, 0, 1, 5n * KOIN, 1n),
    broadcast: true,
  });
  ({ block_id: blockId } = await rpc(devnet.url, 'devnet.produce_block', {}));
});

afterAll(async () => {
  await devnet?.stop();
});

describe('the system contracts’ ABIs', () => {
  it('bundles the .abi files unchanged (systemAbis.ts is generated from them)', () => {
    expect(KOIN_ABI).toBe(file('koin.abi'));
    expect(VHP_ABI).toBe(file('vhp.abi'));
    expect(KCS5_ABI).toBe(file('kcs5.abi'));
  });

  it('answers contract_meta_store for KOIN and VHP with koin.abi and vhp.abi, byte for byte', async () => {
    const koin = await rpc(devnet.url, 'contract_meta_store.get_contract_meta', { contract_id: devnet.koinAddress });
    expect(koin).toEqual({ meta: { abi: file('koin.abi') } });
    const vhpAddress = (await rest(devnet.url, '/v1/contract/vhp')).body.contract_id;
    const vhp = await rpc(devnet.url, 'contract_meta_store.get_contract_meta', { contract_id: vhpAddress });
    expect(vhp).toEqual({ meta: { abi: file('vhp.abi') } });
    // The upstream form: KCS-4 type names and `types` as a base64 FileDescriptorSet, no koilib_types.
    const parsed = JSON.parse(koin.meta.abi);
    expect(parsed.methods.transfer.argument).toBe('koinos.standards.kcs4.transfer_arguments');
    expect(typeof parsed.types).toBe('string');
    expect(parsed.koilib_types).toBeUndefined();
  });

  it('lets koilib decode a block’s KOIN transfer and its event with the fetched ABI', async () => {
    const provider = new Provider([`${devnet.url}/jsonrpc`]);
    const koin = new Contract({ id: devnet.koinAddress, provider });
    await koin.fetchAbi();
    const [item] = await provider
      .getBlocks(1, 5, blockId)
      .then((blocks) => blocks.filter((b) => b.block_id === blockId));
    const op = item!.block.transactions![0]!.operations![0]!;
    const decoded = await koin.decodeOperation(op);
    expect(decoded).toEqual({
      name: 'transfer',
      args: { from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: (5n * KOIN).toString() },
    });
    const event = item!.receipt.transaction_receipts![0]!.events![0]!;
    expect(event.name).toBe('token.transfer_event');
    expect(await koin.decodeEvent(event)).toMatchObject({
      args: { from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: (5n * KOIN).toString() },
    });
  });

  it('decodes the block’s operations and events in REST as koinos-rest does with that ABI (/v1/block)', async () => {
    const { status, body } = await rest(devnet.url, `/v1/block/${blockId}`);
    expect(status).toBe(200);
    const args = { from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: (5n * KOIN).toString() };
    expect(body.block.transactions[0].operations[0]).toEqual({
      call_contract: { contract_id: devnet.koinAddress, entry_point: 'transfer', args },
    });
    expect(body.receipt.transaction_receipts[0].events[0]).toMatchObject({ name: 'token.transfer_event', data: args });
  });
});
