// The server's (and the pad's own) reasons, beside the fields they are about and read out.
import { config, form, preview, words } from "./context.js";

// Error paths from the engine and the API -> the form's fields.
const FIELD_OF = {
  caller: "caller", trump: "trump", card_points: "count", "card_points.team": "count",
  run_points: "runs", run_counts: "runs", runs: "runs", bella_seat: "bella_seat", misplay: "misplay_by",
  "misplay.called_by": "misplay_by", "misplay.proven": "misplay_by", thrown_in_by: "thrown_in_by",
};

export function fieldOf(path) {
  if (!path) return null;
  const bare = path.replace(/^entry\./, "");
  return FIELD_OF[bare] || FIELD_OF[bare.split(".")[0]] || null;
}

// The engine's refusals speak of seats ("seat 0 must call ..."): say the players' names
// instead, wherever the pad shows one (beside a field, in the preview, in the outbox).
export function named(_path, text) {
  if (text === null || text === undefined) return "";
  return String(text).replace(/\bseat ([0-3])\b/g, (seat, n) => config.seats[n] || seat);
}

// What the scorekeeper is told of a hand refused because another phone entered its number.
export function alreadyEntered(number) {
  return words.alreadyEntered.replaceAll("%(number)s", number);
}

function correctUrl(number) {
  return words.correctUrl.replace(/\/0\/correct\/$/, `/${number}/correct/`);
}

export function correctLink(number) {
  const link = document.createElement("a");
  link.href = correctUrl(number);
  link.textContent = words.correctHand.replace("%(number)s", number);
  return link;
}

// Each field's error slot is read out when it changes, and names the field's controls.
if (form) {
  form.querySelectorAll("[data-error-for]").forEach((slot) => {
    if (!slot.id) slot.id = `error-${slot.dataset.errorFor}`;
    slot.setAttribute("aria-live", "polite");
  });
}

function controlsOf(name) {
  if (name === "runs") return [...form.querySelectorAll("[data-run]")];
  return [...form.querySelectorAll(`[name="${name}"]`)];
}

export function clearErrors() {
  if (!form) return;
  form.querySelectorAll("[data-error-for]").forEach((el) => { el.textContent = ""; });
  form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
  form.querySelectorAll("[aria-invalid]").forEach((control) => {
    control.removeAttribute("aria-invalid");
    const others = (control.getAttribute("aria-describedby") || "").split(/\s+/)
      .filter((id) => id && !form.querySelector(`[data-error-for]#${CSS.escape(id)}`));
    if (others.length) control.setAttribute("aria-describedby", others.join(" "));
    else control.removeAttribute("aria-describedby");
  });
}

// The reasons beside their fields, the fields marked as in error. ``focus``: after a save,
// take the scorekeeper to the first field in error (or to the message, if it names none).
export function showErrors(data, { focus = false } = {}) {
  clearErrors();
  const fields = (data && data.fields) || {};
  let placed = false;
  let first = null;
  for (const [path, reasons] of Object.entries(fields)) {
    const name = fieldOf(path);
    const slot = name && form.querySelector(`[data-error-for="${name}"]`);
    if (slot) {
      slot.textContent = named(path, [].concat(reasons).join(" "));
      const box = slot.closest(".field");
      if (box) box.classList.add("has-error");
      const fold = slot.closest("details");
      if (fold) fold.open = true; // a refusal of the runs, bella or misplay opens its fold
      const controls = controlsOf(name);
      for (const control of controls) {
        control.setAttribute("aria-invalid", "true");
        const ids = (control.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
        if (!ids.includes(slot.id)) control.setAttribute("aria-describedby", [...ids, slot.id].join(" "));
      }
      const control = controls.find((c) => c.checked) || controls[0];
      if (control && (!first || first.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_PRECEDING)) {
        first = control;
      }
      placed = true;
    }
  }
  if (focus) goTo(first);
  return placed;
}

// Scroll to ``control`` (or, with none, to the preview that says what is wrong) and focus it.
export function goTo(control) {
  const target = control || preview;
  if (!control) preview.tabIndex = -1;
  (target.closest(".field") || target).scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}
