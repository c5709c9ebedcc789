// The descriptor the codec loads is generated from proto/: it must be what `npm run proto` writes today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error proto/compile.mjs is a plain ES module script without type declarations
import { compile, compileMessages } from '../../proto/compile.mjs';

describe('npm run proto', () => {
  it('has been run since the last change to proto/', () => {
    const committed = readFileSync(new URL('../../src-main/koinos/generated/descriptor.ts', import.meta.url), 'utf8');
    expect(
      (compile as () => string)() === committed,
      'src-main/koinos/generated/descriptor.ts is stale: run npm run proto',
    ).toBe(true);
  });

  it('has written the message types of proto/ since the last change to it', () => {
    const committed = readFileSync(new URL('../../src-main/koinos/generated/messages.ts', import.meta.url), 'utf8');
    expect(
      (compileMessages as () => string)() === committed,
      'src-main/koinos/generated/messages.ts is stale: run npm run proto',
    ).toBe(true);
  });

  it('types each field as the codec decodes it', () => {
    const text = (compileMessages as () => string)();
    expect(text).toContain(
      'export interface ProtocolTransactionHeader {\n  chain_id: Uint8Array;\n  rc_limit: bigint;',
    );
    expect(text).toContain("  'koinos.protocol.transaction': ProtocolTransaction;");
    expect(text).toContain(
      "  'chain.get_account_rc': { request: 'koinos.rpc.chain.get_account_rc_request'; response: 'koinos.rpc.chain.get_account_rc_response' };",
    );
  });

  it('keeps the btype option of every bytes field that has one', () => {
    const text = (compile as () => string)();
    expect(text).toContain('"(koinos.btype)": "ADDRESS"');
    expect(text).not.toContain('"(btype)"');
  });
});
