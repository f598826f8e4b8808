import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent, type RefObject } from "react";

/**
 * A long form's draft kept on the member's device (localStorage), per member and event: saved as
 * they type, restored when the page opens again, cleared once the form is sent. Nothing leaves
 * the device. Without JavaScript, or with storage refused (a private window's quota, a policy),
 * the form works as before and the page does not claim a draft is kept.
 */

type Draft = { savedAt: number; values: Record<string, string> };

const PREFIX = "hopewell:draft";
const NO_EVENT = "none";

const keyFor = (form: string, memberId: string, eventId: string) =>
  `${PREFIX}:${form}:${memberId}:${eventId || NO_EVENT}`;

function storage(): Storage | null {
  try {
    const store = window.localStorage;
    const probe = `${PREFIX}:probe`;
    store.setItem(probe, "1");
    store.removeItem(probe);
    return store;
  } catch {
    return null;
  }
}

function read(store: Storage, key: string): Draft | null {
  try {
    const draft = JSON.parse(store.getItem(key) ?? "null") as Draft | null;
    return draft && typeof draft.savedAt === "number" && typeof draft.values === "object" ? draft : null;
  } catch {
    return null;
  }
}

function write(store: Storage, key: string, draft: Draft) {
  try {
    store.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full: the form goes on without a draft.
  }
}

const noSubscription = () => () => {};
/** Whether storage works here, found once per page load. */
let allowed: boolean | undefined;
const storageAllowed = () => (allowed ??= storage() !== null);

/** The member's newest draft of this form among the events the form offers. */
function newestDraft(store: Storage, form: string, memberId: string, eventIds: readonly string[]) {
  let newest: { eventId: string; draft: Draft } | null = null;
  for (const eventId of eventIds) {
    const draft = read(store, keyFor(form, memberId, eventId));
    if (draft && (!newest || draft.savedAt > newest.draft.savedAt)) newest = { eventId, draft };
  }
  return newest;
}

/** Forgets a form's draft for an event (after it was sent). */
export function clearDraft(form: string, memberId: string, eventId: string) {
  storage()?.removeItem(keyFor(form, memberId, eventId));
}

/**
 * Forgets every draft on this device, whoever's (at sign-out, before the response's
 * Clear-Site-Data, which some browsers ignore): a shared device keeps no half-written letter.
 */
export async function forgetAllDrafts(): Promise<void> {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) if (key.startsWith(`${PREFIX}:`)) store.removeItem(key);
}

export type EventDraft = {
  /** True once the page knows a draft can be kept here (in the browser, with storage allowed). */
  kept: boolean;
  /** When the draft now in the form was saved, if one was restored. */
  restoredAt: number | null;
  /** For the form's onChange: saves what is typed, or moves to another event's draft. */
  onChange: (event: FormEvent<HTMLFormElement>) => void;
  /** Forgets the draft of the chosen event and empties what was restored. */
  discard: () => void;
};

/**
 * Keeps the draft of `form` (its `fields`; the event is the `eventId` select). On opening, the
 * chosen event's draft is restored, or with no event chosen the newest draft of the events
 * offered, unless something is typed already. Choosing another event brings its draft if it has
 * one (what was typed stays saved under the event it was for); otherwise the text goes with the
 * event chosen. A draft with nothing written in `writing` is forgotten.
 */
export function useEventDraft({
  formRef,
  form,
  memberId,
  eventIds,
  fields,
  writing,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  form: string;
  memberId: string;
  eventIds: readonly string[];
  fields: readonly string[];
  /** The fields whose text makes a draft worth keeping (the answers, not a name filled in for the member). */
  writing: readonly string[];
}): EventDraft {
  const kept = useSyncExternalStore(noSubscription, storageAllowed, () => false);
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  const eventRef = useRef("");

  const elements = () => {
    const element = formRef.current;
    if (!element) return null;
    const named = (name: string) =>
      element.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
    return { event: named("eventId"), field: named };
  };
  const valuesNow = () => {
    const found = elements();
    return Object.fromEntries(fields.map((name) => [name, found?.field(name)?.value ?? ""]));
  };
  const isEmpty = (values: Record<string, string>) => writing.every((name) => !values[name]?.trim());
  const fill = (values: Record<string, string>) => {
    const found = elements();
    for (const name of fields) {
      const element = found?.field(name);
      if (element && typeof values[name] === "string") element.value = values[name];
    }
  };

  useEffect(() => {
    const store = storage();
    const found = elements();
    if (!store || !found?.event) return;
    let eventId = found.event.value;
    // What the member typed before the page's script ran is never overwritten.
    if (isEmpty(valuesNow())) {
      const chosen = eventId
        ? { eventId, draft: read(store, keyFor(form, memberId, eventId)) }
        : (newestDraft(store, form, memberId, eventIds) ?? { eventId, draft: read(store, keyFor(form, memberId, "")) });
      if (chosen.draft) {
        eventId = chosen.eventId;
        found.event.value = eventId;
        fill(chosen.draft.values);
        // The draft is read from the device's storage, which only now is within reach.
        // eslint-disable-next-line react-hooks/set-state-in-effect
        setRestoredAt(chosen.draft.savedAt);
      }
    }
    eventRef.current = eventId;
    // Once, on opening: later changes are the member's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function save(eventId: string, values: Record<string, string>) {
    const store = storage();
    if (!store) return;
    const key = keyFor(form, memberId, eventId);
    if (isEmpty(values)) store.removeItem(key);
    else write(store, key, { savedAt: Date.now(), values });
  }

  return {
    kept,
    restoredAt,
    onChange(event) {
      const store = kept ? storage() : null;
      const target = event.target as unknown as { name?: string; value?: string };
      if (!store) return;
      if (target.name === "eventId") {
        const next = target.value ?? "";
        const previous = eventRef.current;
        eventRef.current = next;
        const waiting = read(store, keyFor(form, memberId, next));
        if (waiting) {
          fill(waiting.values);
          setRestoredAt(waiting.savedAt);
          return;
        }
        // The text on screen was written for the event now chosen.
        store.removeItem(keyFor(form, memberId, previous));
        save(next, valuesNow());
        return;
      }
      if (target.name && fields.includes(target.name)) save(eventRef.current, valuesNow());
    },
    discard() {
      storage()?.removeItem(keyFor(form, memberId, eventRef.current));
      const found = elements();
      for (const name of writing) {
        const element = found?.field(name);
        if (element) element.value = "";
      }
      setRestoredAt(null);
    },
  };
}
