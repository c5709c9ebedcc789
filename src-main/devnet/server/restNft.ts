// The /v1/nft/{contract}/… routes of koinos-rest (app/v1/nft/**/route.ts) for KCS-5 collections: reads answered as
// koilib reads them, and the transaction-preparing routes that answer the operation a client signs. As koinos-rest,
// they call the collection through the standard KCS-5 ABI (contracts/abi/kcs5.abi), not the collection's own.
import type { JsonObject, JsonValue } from '../../koinos/codec.ts';
import { describe } from '../../koinos/errors.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import { KCS5_ABI } from '../contracts/abi/systemAbis.ts';
import { standardContract, type StandardDeps } from './restStandard.ts';
import { requireParameters, type TokenRouteDeps } from './restTokens.ts';
import type { Route } from './restContracts.ts';

/** The NFT routes over `deps`. */
export function nftRoutes(deps: TokenRouteDeps & StandardDeps): { routes: Route[] } {
  const { resolveAddress, badRequest } = deps;
  const kcs5 = standardContract(KCS5_ABI, deps);
  const collection = (p: Record<string, string>) => resolveAddress(p.contract!, 'contract_id');

  /** A token id as KCS-5 writes it: "0x" and hex (koilib reads the HEX btype from such text). */
  function tokenId(text: string): string {
    if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(text))
      throw badRequest(`invalid token_id: expected "0x" followed by hex, got ${describe(text)}`);
    return text;
  }

  /** `limit` (required), `start` (default "0x00", as koinos-rest) and `descending` of the listing routes. */
  function page(query: URLSearchParams): { start: string; limit: number } {
    requireParameters(query, badRequest, 'limit');
    const limit = query.get('limit')!;
    if (!/^\d{1,9}$/.test(limit)) throw badRequest(`invalid limit: expected a whole number, got ${describe(limit)}`);
    return { start: query.get('start') || '0x00', limit: Number(limit) };
  }

  const memo = (query: URLSearchParams): JsonObject => (query.get('memo') !== null ? { memo: query.get('memo')! } : {});

  function parseBody(body: string, what: string): unknown {
    if (jsonDepth(body) > MAX_JSON_DEPTH)
      throw badRequest(
        `invalid request body: expected ${what} as JSON nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`,
      );
    try {
      return JSON.parse(body);
    } catch {
      throw badRequest(`invalid request body: expected ${what} as JSON`);
    }
  }

  /** A read answered as koinos-rest does: the result, or `fallback` when the collection answered none. */
  const read = (
    pattern: string[],
    name: string,
    fallback: JsonValue,
    args: (p: Record<string, string>, q: URLSearchParams) => Promise<JsonObject> | JsonObject = () => ({}),
  ): Route => ({
    method: 'GET',
    pattern: ['nft', ':contract', ...pattern],
    run: async (p, query) => {
      const id = await collection(p);
      return (await kcs5.read(id, name, await args(p, query))) ?? fallback;
    },
  });

  const routes: Route[] = [
    read(['name'], 'name', {}),
    read(['symbol'], 'symbol', {}),
    read(['uri'], 'uri', {}),
    read(['owner'], 'owner', {}),
    read(['total_supply'], 'total_supply', { value: '0' }),
    read(['royalties'], 'royalties', { value: [] }),
    read(['balance', ':account'], 'balance_of', { value: '0' }, async (p) => ({
      owner: await resolveAddress(p.account!, 'account'),
    })),
    read(['approved_for_all', ':owner', ':operator'], 'is_approved_for_all', { value: false }, async (p) => ({
      owner: await resolveAddress(p.owner!, 'account'),
      operator: await resolveAddress(p.operator!, 'account'),
    })),
    read(['tokens'], 'get_tokens', { values: [] }, (_p, query) => ({
      ...page(query),
      descending: query.get('descending') ? query.get('descending') !== 'false' : false,
    })),
    read(['owner', ':account'], 'get_tokens_by_owner', { values: [] }, async (p, query) => ({
      owner: await resolveAddress(p.account!, 'account'),
      ...page(query),
      descending: query.get('descending') ? query.get('descending') !== 'false' : false,
    })),
    read([':token', 'owner'], 'owner_of', {}, (p) => ({ token_id: tokenId(p.token!) })),
    {
      method: 'GET',
      pattern: ['nft', ':contract', 'info'],
      run: async (p) => {
        const id = await collection(p);
        // get_info is optional in KCS-5: without it, the one-value reads (koinos-rest's fallback).
        const info = await kcs5.read(id, 'get_info').catch(() => undefined);
        if (info) return info;
        const name = await kcs5.read(id, 'name');
        const symbol = await kcs5.read(id, 'symbol');
        const supply = await kcs5.read(id, 'total_supply');
        const uri = await kcs5.read(id, 'uri');
        if (!name || !symbol || !supply) throw badRequest(`collection ${id} answered no name, symbol or total_supply`);
        return {
          name: name.value!,
          symbol: symbol.value!,
          total_supply: supply.value!,
          ...(uri && { uri: uri.value! }),
        };
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'metadata'],
      run: async (p) => {
        const id = await collection(p);
        const result = await kcs5.read(id, 'metadata_of', { token_id: tokenId(p.token!) });
        const text = result?.value;
        if (typeof text !== 'string' || text === '') return {};
        // The collection's own text: nested deep enough, it would overflow the stack when the answer is written (a 500).
        if (jsonDepth(text) > MAX_JSON_DEPTH)
          throw badRequest(`the metadata of token ${p.token} nests deeper than ${MAX_JSON_DEPTH} levels`);
        try {
          return JSON.parse(text) as JsonValue;
        } catch {
          throw badRequest(`the metadata of token ${p.token} is not JSON`);
        }
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'uri'],
      // koinos-rest JSON-parses token_uri's value, which KCS-5 defines as a URI, so it fails for every real answer;
      // the devnet answers the result itself ({value: uri}), or {} when the collection answered none.
      run: async (p) => (await kcs5.read(await collection(p), 'token_uri', { token_id: tokenId(p.token!) })) ?? {},
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'approved'],
      run: async (p, query) => {
        const id = await collection(p);
        page(query); // koinos-rest requires a limit, which get_approved does not take
        const result = await kcs5.read(id, 'get_approved', { token_id: tokenId(p.token!) });
        return { value: result?.value ? [result.value] : [] };
      },
    },
    // Transaction-preparing routes: koilib encodeOperation of the KCS-5 method.
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'mint'],
      run: async (p, query) => {
        const id = await collection(p);
        requireParameters(query, badRequest, 'to');
        const to = await resolveAddress(query.get('to')!, 'account');
        return kcs5.operation(id, 'mint', { to, token_id: tokenId(p.token!), ...memo(query) });
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'burn'],
      run: async (p, query) =>
        kcs5.operation(await collection(p), 'burn', { token_id: tokenId(p.token!), ...memo(query) }),
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'transfer'],
      // koinos-rest reads `from` with owner() (the collection's owner) and passes `to` unresolved, so its call fails;
      // KCS-5 wants the token's owner: owner_of.
      run: async (p, query) => {
        const id = await collection(p);
        requireParameters(query, badRequest, 'to');
        const to = await resolveAddress(query.get('to')!, 'account');
        const token_id = tokenId(p.token!);
        const owner = await kcs5.read(id, 'owner_of', { token_id });
        return kcs5.operation(id, 'transfer', {
          ...(owner?.value && { from: owner.value }),
          to,
          token_id,
          ...memo(query),
        });
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', ':token', 'approve'],
      run: async (p, query) => {
        const id = await collection(p);
        requireParameters(query, badRequest, 'operator');
        const operator = await resolveAddress(query.get('operator')!, 'account');
        const token_id = tokenId(p.token!);
        const owner = await kcs5.read(id, 'owner_of', { token_id });
        // KCS-5 names the flag `approve`; koinos-rest passes `approved`, which koilib drops. The devnet encodes it.
        const approved = query.get('approved');
        return kcs5.operation(id, 'approve', {
          ...(owner?.value && { owner: owner.value }),
          operator,
          token_id,
          ...memo(query),
          ...(approved && { approve: approved === 'true' }),
        });
      },
    },
    {
      method: 'POST',
      pattern: ['nft', ':contract', ':token', 'set_metadata'],
      run: async (p, _q, body) => {
        const id = await collection(p);
        // Re-serialized without whitespace, as koinos-rest stores it.
        const metadata = JSON.stringify(parseBody(body, 'the metadata'));
        return kcs5.operation(id, 'set_metadata', { token_id: tokenId(p.token!), metadata });
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', 'approve_for_all'],
      run: async (p, query) => {
        const id = await collection(p);
        requireParameters(query, badRequest, 'owner', 'operator');
        const owner = await resolveAddress(query.get('owner')!, 'account');
        const operator = await resolveAddress(query.get('operator')!, 'account');
        return kcs5.operation(id, 'set_approval_for_all', {
          owner,
          operator,
          approved: query.get('approved') === 'true',
          ...memo(query),
        });
      },
    },
    {
      method: 'GET',
      pattern: ['nft', ':contract', 'transfer'],
      run: async (p, query) => {
        const id = await collection(p);
        requireParameters(query, badRequest, 'to');
        return kcs5.operation(id, 'transfer_ownership', { to: await resolveAddress(query.get('to')!, 'account') });
      },
    },
    {
      method: 'POST',
      pattern: ['nft', ':contract', 'set_royalties'],
      run: async (p, _q, body) => {
        const id = await collection(p);
        const args = parseBody(body, 'the royalties');
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          throw badRequest(`invalid request body: expected the royalties as a JSON object, got ${describe(args)}`);
        return kcs5.operation(id, 'set_royalties', args as JsonObject);
      },
    },
  ];
  return { routes };
}
