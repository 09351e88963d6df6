// The hands on this phone not yet stored: the outbox's list (and the sheet's pending rows),
// and which hand the form is, with its dealer.
import {
  config, conflictNote, form, outbox, outboxBox, outboxList, outboxTitle, pad, state, words,
} from "./context.js";
import { dealerSeat, freshNumber } from "./entry.js";
import { alreadyEntered, correctLink, named } from "./errors.js";

function ask(what, entry) {
  pad.dispatchEvent(new CustomEvent(what, { detail: entry }));
}

// A refused entry whose number another phone has entered (and that is still so).
function numberTaken(entry) {
  const number = entry && entry.body && entry.body.number;
  return !!(entry && entry.fields && entry.fields.number) && typeof number === "number"
    && number < config.nextNumber;
}

export function nextFreshNumber() {
  return freshNumber(state.queue, config.nextNumber);
}

export function handNumber() {
  if (state.editing) return state.editing.number;
  return state.formNumber ?? nextFreshNumber();
}

export function dealerOf(number) {
  const seat = dealerSeat(config.dealers, number);
  return seat === undefined ? "" : config.seats[seat];
}

// The hands on this phone to be sent before the one in the form.
export function handsAhead() {
  const { editing, queue } = state;
  const mine = editing && queue.find((other) => other.key === editing.key);
  return mine ? queue.filter((other) => other.created < mine.created) : queue;
}

export async function renderOutbox() {
  const entries = await outbox.pending();
  state.queue = entries;
  if (state.editing && !entries.some((entry) => entry.key === state.editing.key)) state.editing = null;
  const { editing } = state;
  const pendingRows = document.getElementById("pending-rows");
  if (pendingRows) pendingRows.innerHTML = "";
  outboxList.innerHTML = "";
  outboxBox.hidden = entries.length === 0;
  outboxTitle.textContent = words.waiting.replace("%(count)s", entries.length);
  for (const entry of entries) {
    const inForm = editing && editing.key === entry.key;
    const item = document.createElement("li");
    item.dataset.key = entry.key;
    item.textContent = `${entry.label} — `;
    if (inForm) {
      item.append(words.inForm);
    } else if (entry.error) {
      // the reason stays beside the refused hand until it is put right or discarded
      item.className = "refused";
      const reason = document.createElement("span");
      reason.className = "field-error";
      if (numberTaken(entry)) {
        reason.textContent = `${words.refused}: ${alreadyEntered(entry.body.number)} `;
        reason.append(correctLink(entry.body.number));
      } else {
        reason.textContent = `${words.refused}: ${named(null, entry.error)}`;
      }
      item.append(reason);
    } else {
      item.append(words.notSent);
    }
    if (entry.error) {
      const actions = document.createElement("span");
      actions.className = "outbox-actions";
      if (entry.form && form && !inForm) {
        const edit = document.createElement("button");
        edit.type = "button";
        edit.textContent = words.edit;
        edit.addEventListener("click", () => ask("edit", entry));
        actions.append(edit);
      }
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "danger";
      discard.textContent = words.discard;
      discard.addEventListener("click", () => ask("discard", entry));
      actions.append(discard);
      item.append(" ", actions);
    }
    outboxList.append(item);
    if (pendingRows) {
      const row = document.createElement("tr");
      row.className = "pending";
      const cell = document.createElement("td");
      cell.colSpan = 5;
      cell.textContent = `${entry.label} — ${entry.error ? words.refused : words.notSent}`;
      row.append(cell);
      pendingRows.append(row);
    }
  }
  showNumber();
}

// The title, the dealer line (the server's, until hands typed here move it on) and what the
// scorekeeper must know when another phone has entered the hand being typed.
export function showNumber() {
  if (!form) return;
  const { editing } = state;
  const number = handNumber();
  const title = document.getElementById("hand-title");
  if (title) title.textContent = `${words.hand} ${number}`;
  const line = document.getElementById("next-deal");
  let own = line && line.querySelector(".pad-deal");
  const dealer = dealerOf(number);
  if (line && dealer && (own || number !== config.nextNumber)) {
    if (!own) {
      // the server's "Hand N: <strong>dealer</strong> deals." gives way to this hand's
      const named = line.querySelector("strong");
      if (!named || named.parentNode !== line || named.previousElementSibling) return;
      while (line.firstChild !== named) line.firstChild.remove();
      if (named.nextSibling && named.nextSibling.nodeType === Node.TEXT_NODE) named.nextSibling.remove();
      own = document.createElement("span");
      own.className = "pad-deal";
      named.replaceWith(own, " ");
    }
    const [before, after] = words.deals.replace("%(number)s", number).split("%(dealer)s");
    const strong = document.createElement("strong");
    strong.textContent = dealer;
    own.replaceChildren(before, strong, after || "");
  }
  if (conflictNote) {
    if (editing && editing.conflict && number < config.nextNumber) {
      // the same hand entered twice, almost always: it keeps its number, to be discarded here
      // or hand N corrected
      if (conflictNote.dataset.shown !== `${editing.key}:${number}`) {
        conflictNote.dataset.shown = `${editing.key}:${number}`;
        const discard = document.createElement("button");
        discard.type = "button";
        discard.className = "danger";
        discard.id = "discard-conflict";
        discard.textContent = words.discardThis;
        discard.addEventListener("click", () => {
          const mine = state.editing && state.queue.find((other) => other.key === state.editing.key);
          if (mine) ask("discard", mine);
        });
        const actions = document.createElement("span");
        actions.className = "outbox-actions";
        const link = correctLink(number);
        link.className = "button secondary";
        actions.append(discard, link);
        conflictNote.replaceChildren(`${alreadyEntered(number)} `, actions);
      }
      conflictNote.hidden = false;
    } else {
      let note = "";
      if ((editing || state.formNumber !== null) && number < config.nextNumber) {
        note = words.numberTaken.replace("%(number)s", number);
      }
      delete conflictNote.dataset.shown;
      conflictNote.textContent = note;
      conflictNote.hidden = !note;
    }
  }
}
