// The host's object store (vm/objectStore.ts) over a state layer of the devnet: object spaces mapped to the layer's
// state keys, neighbours in state_db order for get_next_object / get_prev_object.
import { toBase58 } from '../../koinos/bytes.ts';
import type { ObjectSpace } from '../../koinos/types.ts';
import { neighbour, objectSpace, parseStateKey, stateKey, type Space, type StateView } from './state.ts';
import type { ObjectStore, StoredObject } from '../vm/objectStore.ts';

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
 * The host's object store over a state layer. Neighbours come from the layers' ordered key indexes (state.ts
 * `neighbour`): keys compare as their serialized database_key, which is what the layers' state keys are.
 */
export function viewObjectStore(view: StateView): ObjectStore {
  const near = (space: ObjectSpace, key: Uint8Array, direction: 'next' | 'prev'): StoredObject | undefined => {
    const s = spaceOf(space);
    const found = neighbour(view, stateKey(s, key), s.prefix, direction);
    return found && { key: parseStateKey(found[0]).key, value: found[1] };
  };
  return {
    get: (space, key) => view.get(spaceOf(space), key),
    put: (space, key, value) => view.put(spaceOf(space), key, value),
    remove: (space, key) => view.remove(spaceOf(space), key),
    next: (space, key) => near(space, key, 'next'),
    prev: (space, key) => near(space, key, 'prev'),
  };
}
