// One frozen empty array for every holder whose list is empty for most of its life (issue 35: an open stream keeps
// each of its parts' lists, and an empty array is still an object and its storage; a silent stream's are empty).
// A holder starts with it and makes a real array when it first adds something; adding to it throws, so a holder
// that forgot to replace it fails at once instead of sharing its items with every other holder.
const EMPTY: readonly never[] = Object.freeze([]);

/** The shared empty list, typed as the holder's own. */
export function none<T>(): T[] {
  return EMPTY as unknown as T[];
}

/** `item` added to `list`, a new array when `list` is the shared empty one: `this.items = pushed(this.items, x)`. */
export function pushed<T>(list: T[], item: T): T[] {
  if ((list as readonly unknown[]) === EMPTY) return [item];
  list.push(item);
  return list;
}
