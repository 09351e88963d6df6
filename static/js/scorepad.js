// The score-pad: taps become a hand entry, the server previews it (the engine's outcome and
// the new score), and saving puts it in the outbox, which sends it to the API with its
// Idempotency-Key now or when the signal returns. This script knows no rules of the game:
// every number it shows comes from the server, but for what a hand typed with no signal needs
// at once: the dealers ahead (from the page's config) and the count's plain arithmetic.
// Its parts (pad/): context (what they share), entry (the form's hand as the API's entry),
// errors, queue (the hands on this phone), sheet (the live sheet), preview, refused.
import { edited } from "./forms.js";
import {
  config, conflictNote, form, formEntry, names, outbox, preview, state, value, words,
} from "./pad/context.js";
import { countProblem, describe } from "./pad/entry.js";
import { alreadyEntered, clearErrors, showErrors } from "./pad/errors.js";
import { cancelPreview, schedulePreview } from "./pad/preview.js";
import { handNumber, nextFreshNumber, renderOutbox, showNumber } from "./pad/queue.js";
import { formValues, takeBack } from "./pad/refused.js";
import { refreshLive } from "./pad/sheet.js";

// The form is changed. A refused hand put back keeps its number, even one another phone has
// entered (never renumbered: it is discarded, or that hand corrected).
function formChanged() {
  if (state.editing) {
    // nothing to do: its number is its own
  } else if (!edited(form)) {
    state.formNumber = null;
  } else if (state.formNumber === null) {
    state.formNumber = nextFreshNumber();
  }
  showNumber();
}

outbox.addEventListener("change", renderOutbox);
outbox.addEventListener("sent", () => refreshLive(true));
outbox.addEventListener("refused", async (event) => {
  const { entry } = event.detail;
  await renderOutbox();
  const last = state.queue.at(-1);
  if (form && entry.form && !state.editing && last && last.key === entry.key && !edited(form)) {
    // the hand just saved, with nothing typed since: it goes back to be put right
    await takeBack(entry);
    return;
  }
  // otherwise its reason is shown beside it in the outbox, where it can be put back or discarded
  refreshLive(true);
});

// ------------------------------------------------------------------ entering a hand
if (form) {
  form.addEventListener("change", (event) => {
    if (event.target.name === "caller" && event.target.value !== "void") {
      // the count usually written is the calling team's: preselect it
      const team = Number(event.target.value) % 2 === 0 ? "team_a" : "team_b";
      const radio = form.querySelector(`[name="count_team"][value="${team}"]`);
      if (radio && !form.dataset.teamTouched) radio.checked = true;
    }
    if (event.target.name === "count_team") form.dataset.teamTouched = "1";
    formChanged();
    schedulePreview();
  });
  // a twenty or a fifty shown by a player is a tap: one more each time, back to none after the
  // most a player can show (the box beside it says how many)
  form.addEventListener("click", (event) => {
    const bump = event.target.closest("[data-bump]");
    if (!bump) return;
    const box = form.elements[bump.dataset.bump];
    box.value = String((Number(box.value || 0) + 1) % (Number(box.max) + 1));
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
  form.addEventListener("input", () => {
    formChanged();
    schedulePreview();
  });
  form.addEventListener("reset", () => {
    // a refused hand in the form goes back to waiting in the outbox, beside its reason
    state.editing = null;
    state.formNumber = null;
    cancelPreview();
    setTimeout(() => {
      clearErrors();
      preview.hidden = true;
      delete form.dataset.teamTouched;
      // ready for the next hand: the runs, bella, misplay and throw-in fold away again
      for (const fold of form.querySelectorAll("details")) fold.open = false;
      renderOutbox();
    }, 0);
  });
  let saving = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving) return; // a second tap while the first is being saved is the same hand
    if (value("caller") === "") {
      const required = form.querySelector('[data-error-for="caller"]').dataset.required || "?";
      showErrors({ fields: { caller: [required] } }, { focus: true });
      return;
    }
    const problem = countProblem(value, words);
    if (problem) {
      showErrors({ fields: { card_points: [problem] } }, { focus: true });
      preview.hidden = false;
      preview.className = "preview error";
      preview.textContent = problem;
      return;
    }
    saving = true;
    const button = event.submitter || form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    try {
      const entry = formEntry();
      await renderOutbox();
      const number = handNumber();
      const { editing } = state;
      if (editing && editing.conflict && number < config.nextNumber && conflictNote) {
        // saved again, it would be refused again: it is discarded, or that hand corrected
        clearErrors();
        preview.hidden = false;
        preview.className = "preview error";
        preview.dataset.outcome = "";
        preview.textContent = alreadyEntered(number);
        conflictNote.tabIndex = -1;
        conflictNote.scrollIntoView({ block: "center" });
        conflictNote.focus({ preventScroll: true });
        return;
      }
      const typed = {
        body: { entry_kind: "summary", number, ...entry },
        label: describe(entry, number, names),
        form: formValues(),
      };
      const refused = editing && state.queue.find((other) => other.key === editing.key);
      // a refused hand put right takes its place again, first in line; a new one goes last
      if (refused) await outbox.replace(refused, typed);
      else await outbox.add({ url: config.urls.hands, ...typed });
      form.reset();
      preview.hidden = true;
      await outbox.flush();
    } finally {
      saving = false;
      if (button) button.disabled = false;
    }
  });
}

outbox.keepSending();
window.addEventListener("online", () => refreshLive(true));
// Back (or forward) to a page the browser kept: what it shows may be old, look again now.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) refreshLive(true).then(() => outbox.flush());
});
renderOutbox().then(() => outbox.flush());
// Other score-pads, corrections and dispute verdicts: look for a new version now and then.
setInterval(() => {
  if (!navigator.onLine) return;
  const live = document.getElementById("live");
  const waiting = live && live.dataset.pendingDisputes === "1";
  if (waiting || !document.hidden) refreshLive();
}, 4000);
