// What every part of the score-pad shares: the page's elements and words, the game's config,
// the outbox, and the pad's state. The parts tell each other what happened through ``pad``'s
// events, so that each module imports only those below it (the static pipeline names every
// module by its content, which a module that imports its importer would make impossible).
import { Outbox } from "../outbox.js";
import { buildEntry } from "./entry.js";

export const config = JSON.parse(document.getElementById("pad-config").textContent);
export const form = document.getElementById("hand-form");
export const preview = document.getElementById("preview");
export const outboxBox = document.getElementById("outbox");
export const outboxTitle = document.getElementById("outbox-title");
export const outboxList = document.getElementById("outbox-list");
export const conflictNote = document.getElementById("pad-conflict");
export const words = { ...config.words, ...(document.getElementById("pad-words") || {}).dataset };
// What a hand's line in the outbox names (entry.js ``describe``).
export const names = {
  hand: words.hand, passed: words.passed, seats: config.seats, teams: config.teams,
};
export const outbox = new Outbox(`game-${config.game}`);

// Events: "discard" and "edit" (detail: an outbox entry) ask for a refused hand to be taken
// out or put back in the form; "moved-on": another phone's hand moved the game on.
export const pad = new EventTarget();

// ``queue``: the hands on this phone not yet stored, as last drawn. ``editing``: the refused
// hand put back in the form ({key, number, conflict}), which keeps its place in the queue and
// its number until saved again or discarded (``conflict``: refused because another phone
// entered that number, which is almost always the same hand entered twice: it is never
// renumbered). ``formNumber``: the number of the hand being typed, fixed once typing starts, so
// that a hand entered meanwhile from another phone does not silently move it on.
// ``previewTimer``/``previewSeq``: the preview waiting to run, and the latest one asked for.
export const state = {
  queue: [],
  editing: null,
  formNumber: null,
  previewTimer: null,
  previewSeq: 0,
};

// A field of the form, as the server would read it.
export function value(name) {
  const checked = form.querySelector(`[name="${name}"]:checked`);
  if (checked) return checked.value;
  const input = form.querySelector(`[name="${name}"]:not([type=radio])`);
  return input ? input.value : "";
}

// The form's hand, as the entry the API takes.
export function formEntry() {
  const runs = [...form.querySelectorAll("[data-run]")].map((input) => (
    { seat: input.dataset.seat, kind: input.dataset.run, value: input.value }
  ));
  const proven = form.querySelector('[name="misplay_proven"]');
  return buildEntry(value, { runs, proven: !!(proven && proven.checked) });
}
