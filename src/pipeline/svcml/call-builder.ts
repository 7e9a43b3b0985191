// The call builder of the svcml detector (svcml-and-prompts.md §1.5, §2.5): typed parameter values in, call events
// out. It owns what an invoke has collected (members, repeats, the pending member), when a call is announced (its
// first non-empty value), when an argument is final enough to emit (sealed), and whether an invoke ends as a call
// (rejected bodies, the all-empty filter). Where values are in the text is the detector's business.
import { coerceArgs, type SchemaLookup } from "./coerce";
import { jsonOf } from "./json-text";
import { isEmptyValue } from "./typing";
import type { TurnEvent } from "../types";

type CallEvent = Extract<TurnEvent, { type: "call_start" | "call_args" | "call_end" }>;

export interface Member {
  name: string;
  /** The value; a repeated parameter's values make an array (§1.5), started on the second one. */
  value: unknown;
  repeated: unknown[] | null;
  /** Read as its source text (§1.11, a string parameter): never joined with a repeat, never re-typed. */
  sourceText: boolean;
}

export interface Invoke {
  name: string;
  bare: boolean;
  members: Member[];
  /** Member names, once there are too many to search the members list (hashing a name costs more). */
  usedNames: Set<string> | null;
  /** The last closed parameter, pending until sealed (§2.5). */
  pendingIndex: number;
  emittedMembers: number;
  nonBlank: boolean;
  jsonBody: boolean;
  bodyStarted: boolean;
  announced: boolean;
  index: number;
  id: string;
  rejected: boolean;
}

export function newInvoke(name: string, bare: boolean): Invoke {
  return {
    name,
    bare,
    members: [],
    usedNames: null,
    pendingIndex: -1,
    emittedMembers: 0,
    nonBlank: false,
    jsonBody: false,
    bodyStarted: false,
    announced: false,
    index: -1,
    id: "",
    rejected: !name,
  };
}

/** Whether the invoke has a member of this name: a list search for the usual few, a set past that. */
function hasMember(inv: Invoke, name: string): boolean {
  const members = inv.members;
  if (inv.usedNames) return inv.usedNames.has(name);
  if (members.length < 16) {
    for (let k = 0; k < members.length; k++) if (members[k]!.name === name) return true;
    return false;
  }
  inv.usedNames = new Set(members.map((m) => m.name));
  return inv.usedNames.has(name);
}

const memberValue = (m: Member): unknown => m.repeated ?? m.value;

export class CallBuilder {
  private callIndex = 0;

  constructor(
    private readonly o: {
      /** The declared tools, for string coercion (§1.11). */
      tools: SchemaLookup | undefined;
      newId: () => string;
      emit: (ev: CallEvent) => void;
      /** A call was announced (the detector then keeps its block's text no longer). */
      onAnnounce: () => void;
    },
  ) {}

  /**
   * A parameter's typed value: a consecutive repeat extends the pending member into an array, a later repeat is
   * ignored (§1.5); the first non-empty value of a named, non-bare invoke announces the call (§2.5).
   */
  addValue(inv: Invoke, name: string, value: unknown, mayAnnounce: boolean): void {
    const pending = inv.pendingIndex >= 0 ? inv.members[inv.pendingIndex] : undefined;
    if (pending && pending.name === name && !pending.sourceText) {
      if (pending.repeated) pending.repeated.push(value);
      else pending.repeated = [pending.value, value];
    } else if (hasMember(inv, name)) return;
    else {
      inv.members.push({ name, value, repeated: null, sourceText: false });
      inv.usedNames?.add(name);
      inv.pendingIndex = inv.members.length - 1;
    }
    if (!inv.announced && !inv.bare && inv.name && mayAnnounce && !isEmptyValue(value)) this.announce(inv);
  }

  /**
   * A string parameter's source text (§1.11): the first occurrence of a name wins, a repeat is ignored; it cannot
   * grow, so it is sealed at once.
   */
  addSourceText(inv: Invoke, name: string, value: string | null, mayAnnounce: boolean): void {
    if (hasMember(inv, name)) return;
    this.pushSealed(inv, name, value);
    if (!inv.announced && !inv.bare && inv.name && mayAnnounce && !isEmptyValue(value)) this.announce(inv);
    this.seal(inv);
  }

  /** Whether a parameter of this name would start a new member (not a repeat), for streaming it (§2.5 S). */
  isNewMember(inv: Invoke, name: string): boolean {
    return !hasMember(inv, name);
  }

  /**
   * Starts streaming a string parameter's value (§2.5 condition S): announces the call if needed, emits every
   * member before it and the member's head `"name":"`. The caller guarantees the value is not blank.
   */
  startStream(inv: Invoke, name: string): void {
    if (!inv.announced) this.announce(inv);
    // Every member before this one goes out first (all sealed: this parameter's opening tag sealed the last).
    inv.pendingIndex = inv.members.length - 1;
    this.seal(inv);
    const first = inv.emittedMembers === 0;
    this.pushSealed(inv, name, "");
    inv.emittedMembers = inv.members.length;
    inv.pendingIndex = -1;
    this.o.emit({ type: "call_args", index: inv.index, fragment: `${first ? "{" : ","}${jsonOf(name)}:"` });
  }

  /** A piece of a streamed value: its JSON string escaping, without quotes, so the pieces join into one string. */
  streamPiece(inv: Invoke, piece: string): void {
    if (piece) this.o.emit({ type: "call_args", index: inv.index, fragment: jsonOf(piece).slice(1, -1) });
  }

  /** The streamed member's whole value is known: what was not streamed yet, then the closing quote. */
  endStream(inv: Invoke, value: string, streamedChars: number): void {
    inv.members[inv.members.length - 1]!.value = value;
    this.o.emit({ type: "call_args", index: inv.index, fragment: `${jsonOf(value.slice(streamedChars)).slice(1, -1)}"` });
  }

  private pushSealed(inv: Invoke, name: string, value: string | null): void {
    inv.members.push({ name, value, repeated: null, sourceText: true });
    inv.usedNames?.add(name);
    inv.pendingIndex = inv.members.length - 1;
  }

  /** Seals the pending member unless the next parameter repeats its name (then it may still grow). */
  sealIfOther(inv: Invoke, nextName: string): void {
    if (inv.pendingIndex >= 0 && inv.members[inv.pendingIndex]!.name !== nextName) this.seal(inv);
  }

  /** Emits the pending member once it cannot grow any more (§2.5). */
  seal(inv: Invoke): void {
    if (inv.pendingIndex < 0) return;
    if (inv.announced) {
      while (inv.emittedMembers <= inv.pendingIndex) {
        const m = inv.members[inv.emittedMembers]!;
        this.o.emit({ type: "call_args", index: inv.index, fragment: this.memberJson(inv, m, inv.emittedMembers === 0) });
        inv.emittedMembers++;
      }
    }
    inv.pendingIndex = -1;
  }

  /** Whether an ended invoke is a call: not rejected (§1.5 body forms), not all-empty, named. */
  keeps(inv: Invoke): boolean {
    const rejected = inv.rejected || (!inv.jsonBody && inv.members.length === 0 && inv.nonBlank);
    // An announced call had a non-empty value: only unannounced ones need the all-empty check (§1.5).
    const allEmpty = !inv.announced && inv.members.length > 0 && inv.members.every((m) => isEmptyValue(memberValue(m)));
    return !rejected && !allEmpty && inv.name !== "";
  }

  /** A kept invoke ended: the rest of an announced call, or the whole call at once. */
  finishKept(inv: Invoke): void {
    if (!inv.announced) {
      this.emitWhole(inv);
      return;
    }
    inv.pendingIndex = inv.members.length - 1;
    this.seal(inv);
    this.finishAnnounced(inv);
  }

  /** A call announced only at its end: start, its whole arguments JSON in one fragment, end (§2.5). */
  emitWhole(inv: Invoke): void {
    this.announce(inv);
    const json = inv.members.length === 0 ? "{}" : inv.members.map((m, k) => this.memberJson(inv, m, k === 0)).join("") + "}";
    this.o.emit({ type: "call_args", index: inv.index, fragment: json });
    this.o.emit({ type: "call_end", index: inv.index });
  }

  finishAnnounced(inv: Invoke): void {
    this.o.emit({ type: "call_args", index: inv.index, fragment: inv.emittedMembers === 0 ? "{}" : "}" });
    this.o.emit({ type: "call_end", index: inv.index });
  }

  private announce(inv: Invoke): void {
    inv.announced = true;
    inv.index = this.callIndex++;
    inv.id = this.o.newId();
    this.o.onAnnounce();
    this.o.emit({ type: "call_start", index: inv.index, id: inv.id, name: inv.name });
  }

  private memberJson(inv: Invoke, m: Member, first: boolean): string {
    const coerced = coerceArgs(this.o.tools, inv.name, m.name, memberValue(m));
    return `${first ? "{" : ","}${jsonOf(m.name)}:${jsonOf(coerced)}`;
  }
}
