// The host's object store (vm/objectStore.ts) over a state layer of the devnet: object spaces mapped to the layer's
// state keys, neighbours in state_db order for get_next_object / get_prev_object.
import { toBase58 } from '../koinos/bytes.ts';
import type { ObjectSpace } from '../koinos/types.ts';
import { objectSpace, parseStateKey, stateKey, type Space, type StateView } from './state.ts';
import type { ObjectStore, StoredObject } from './vm/objectStore.ts';

const spaces = new Map<string, Space>();

function spaceOf(space: ObjectSpace): Space {
  const id = `${space.system ? 1 : 0}:${space.id}:${toBase58(space.zone)}`;
  let found = spaces.get(id);
  if (!found) {
    found = objectSpace(space.zone, space.id, space.system);
    if (spaces.size > 10_000) spaces.clear();
    spaces.set(id, found);
  }
  return found;
}

/**
 * The host's object store over a state layer. Neighbours are found by scanning the space (the devnet's state is
 * small); keys compare as their serialized database_key, which is what the layer's state keys are.
 */
export function viewObjectStore(view: StateView): ObjectStore {
  const neighbour = (space: ObjectSpace, key: Uint8Array, direction: 'next' | 'prev'): StoredObject | undefined => {
    const s = spaceOf(space);
    const from = stateKey(s, key);
    const found = new Map<string, Uint8Array | null>();
    view.scan(s.prefix, found);
    let best: string | undefined;
    for (const [k, value] of found) {
      if (value === null) continue;
      if (direction === 'next' ? k > from && (best === undefined || k < best) : k < from && (best === undefined || k > best)) best = k;
    }
    if (best === undefined) return undefined;
    return { key: parseStateKey(best).key, value: found.get(best)! };
  };
  return {
    get: (space, key) => view.get(spaceOf(space), key),
    put: (space, key, value) => view.put(spaceOf(space), key, value),
    remove: (space, key) => view.remove(spaceOf(space), key),
    next: (space, key) => neighbour(space, key, 'next'),
    prev: (space, key) => neighbour(space, key, 'prev'),
  };
}
