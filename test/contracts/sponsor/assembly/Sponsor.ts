// The sponsor test contract's methods, written with @koinos/sdk-as: as a payer it approves the application of any
// transaction whose rc_limit is at most MAX_SPONSORED_RC, and nothing else (no calls, no uploads in its name).
import { System, authority } from "@koinos/sdk-as";
import { sponsor } from "./proto/sponsor";

/** The largest rc_limit the sponsor pays for: 1 KOIN's worth of mana. */
export const MAX_SPONSORED_RC: u64 = 100_000_000;

export class Sponsor {
  authorize(args: authority.authorize_arguments): authority.authorize_result {
    if (args.type != authority.authorization_type.transaction_application) return new authority.authorize_result(false);
    const header = System.getTransaction().header;
    return new authority.authorize_result(header != null && header!.rc_limit <= MAX_SPONSORED_RC);
  }

  get_limit(): sponsor.get_limit_result {
    return new sponsor.get_limit_result(MAX_SPONSORED_RC);
  }
}
