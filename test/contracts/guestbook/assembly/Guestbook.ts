// The guestbook test contract's methods, written with @koinos/sdk-as: its own objects (System.getObject/putObject),
// events with impacted accounts, System.require reversions, authority checks and KOIN moved through the SDK's Token.
import { Protobuf, System, Token, authority, chain } from "@koinos/sdk-as";
import { guestbook } from "./proto/guestbook";

const COUNTER_SPACE: u32 = 0;
const ENTRIES_SPACE: u32 = 1;
const MAX_MESSAGE_LENGTH: i32 = 140;

/** An entry's number as its key: 8 bytes big-endian, so that get_next_object walks entries in order. */
function numberKey(number: u64): Uint8Array {
  const key = new Uint8Array(8);
  for (let i = 0; i < 8; i++) key[i] = u8((number >> (u64(56 - 8 * i))) & 0xff);
  return key;
}

export class Guestbook {
  contractId: Uint8Array = System.getContractId();
  counterSpace: chain.object_space = new chain.object_space(false, this.contractId, COUNTER_SPACE);
  entriesSpace: chain.object_space = new chain.object_space(false, this.contractId, ENTRIES_SPACE);

  sign(args: guestbook.sign_arguments): guestbook.sign_result {
    const signer = args.signer;
    const message = args.message;
    System.require(signer != null && signer.length > 0, "expected a signer, found none");
    System.require(
      message != null && message.length > 0 && message.length <= MAX_MESSAGE_LENGTH,
      "expected a message of 1 to 140 characters, found " + (message == null ? "0" : message.length.toString())
    );
    System.requireAuthority(authority.authorization_type.contract_call, signer!);

    const number = this.count().value + 1;
    System.putObject(this.entriesSpace, numberKey(number), new guestbook.entry(signer, message), guestbook.entry.encode);
    System.putObject(this.counterSpace, "", new guestbook.counter(number), guestbook.counter.encode);

    const event = new guestbook.signed_event(number, signer, message);
    System.event("guestbook.signed", Protobuf.encode(event, guestbook.signed_event.encode), [signer!]);
    System.log("entry " + number.toString() + " signed");
    return new guestbook.sign_result(number);
  }

  get_entry(args: guestbook.get_entry_arguments): guestbook.entry {
    const found = System.getObject<Uint8Array, guestbook.entry>(this.entriesSpace, numberKey(args.number), guestbook.entry.decode);
    System.require(found != null, "expected an entry numbered " + args.number.toString() + ", found none");
    return found!;
  }

  count(): guestbook.count_result {
    const counter = System.getObject<string, guestbook.counter>(this.counterSpace, "", guestbook.counter.decode);
    return new guestbook.count_result(counter == null ? 0 : counter.value);
  }

  tip(args: guestbook.tip_arguments): guestbook.tip_result {
    const token = new Token(args.token!);
    System.require(args.value > 0, "expected a tip above 0, found 0");
    // KOIN lets a contract move an account's tokens within the allowance the account gave it. A refusal by a failure
    // (such as a balance too low) comes back as false; a reversion would have ended this call already.
    System.require(
      token.transfer(args.from!, this.contractId, args.value),
      "the token refused to move a tip of " + args.value.toString() + " to the guestbook"
    );
    const event = new guestbook.tipped_event(args.token, args.from, args.value);
    System.event("guestbook.tipped", Protobuf.encode(event, guestbook.tipped_event.encode), [args.from!]);
    return new guestbook.tip_result();
  }

  payout(args: guestbook.payout_arguments): guestbook.payout_result {
    System.requireAuthority(authority.authorization_type.contract_call, this.contractId);
    const token = new Token(args.token!);
    System.require(token.transfer(this.contractId, args.to!, args.value), "the token refused the payout of " + args.value.toString());
    return new guestbook.payout_result();
  }
}
