// Refused hands: put back in the form to be put right, or taken out of the outbox.
import { config, form, names, outbox, pad, preview, state } from "./context.js";
import { describe } from "./entry.js";
import { goTo, named, showErrors } from "./errors.js";
import { cancelPreview } from "./preview.js";
import { handNumber, renderOutbox } from "./queue.js";
import { refreshLive } from "./sheet.js";

// The form as typed, kept with a hand in the outbox so a refused hand can be put back.
export function formValues() {
  return [...form.elements]
    .filter((field) => field.name && field.name !== "csrfmiddlewaretoken")
    .filter((field) => !["radio", "checkbox"].includes(field.type) || field.checked)
    .map((field) => [field.name, field.value]);
}

function restore(values) {
  for (const field of form.elements) {
    if (!field.name || field.name === "csrfmiddlewaretoken") continue;
    const given = values.filter(([name]) => name === field.name).map(([, text]) => text);
    if (field.type === "radio" || field.type === "checkbox") field.checked = given.includes(field.value);
    else if (field.tagName === "SELECT") field.value = given[0] ?? field.querySelector("option[selected]")?.value ?? "";
    else field.value = given[0] ?? field.defaultValue;
  }
  form.dataset.teamTouched = "1"; // the team whose count was typed is the one kept
  // a fold (runs and bella, misplay and throw-in) opens where the hand says something
  for (const fold of form.querySelectorAll("details")) {
    fold.open = [...fold.querySelectorAll("input, select")].some((field) => (
      field.type === "checkbox" ? field.checked : !["", "0"].includes(field.value)));
  }
}

// Out of the outbox (discarded). The hands queued behind it were never sent (the outbox stops
// at a refused one): each moves up a number, unless another phone has entered the number it
// had, and the queue goes on.
export async function takeOut(entry) {
  await refreshLive(true);
  const taken = entry.body && entry.body.number < config.nextNumber;
  const behind = (await outbox.pending()).filter((other) => other.created > entry.created);
  const inForm = state.editing && state.editing.key === entry.key;
  await outbox.remove(entry.key);
  if (!taken) {
    for (const other of behind) {
      if (other.body && typeof other.body.number === "number") {
        other.body.number -= 1;
        other.label = describe(other.body, other.body.number, names);
        await outbox.update(other);
      }
    }
    if (state.formNumber !== null) state.formNumber -= 1;
  }
  if (inForm) {
    state.editing = null;
    form.reset();
  }
  await renderOutbox();
  await outbox.flush();
}

// Back into the form, as typed, with the server's reasons beside the fields. It keeps its
// place in the queue: nothing behind it is sent until it is saved again or discarded.
export async function takeBack(entry, { focus = true } = {}) {
  if (!form || !entry.form) return;
  cancelPreview(); // a preview of what was in the form before is no longer this form's
  restore(entry.form);
  const number = entry.body && typeof entry.body.number === "number" ? entry.body.number : handNumber();
  state.editing = { key: entry.key, number, conflict: !!(entry.fields && entry.fields.number) };
  state.formNumber = null;
  await renderOutbox();
  showErrors({ fields: entry.fields }, { focus: false });
  preview.hidden = false;
  preview.className = "preview error";
  preview.dataset.outcome = "";
  preview.textContent = named(null, entry.error);
  if (focus) {
    const first = form.querySelector("[aria-invalid=true]:checked") || form.querySelector("[aria-invalid=true]");
    goTo(first);
  }
}

pad.addEventListener("discard", (event) => takeOut(event.detail));
pad.addEventListener("edit", (event) => takeBack(event.detail));
