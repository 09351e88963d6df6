// The live sheet: the game as the server has it, fetched again when it may have changed (a hand
// sent from here or another phone, a correction, a dispute's verdict).
import { config, form, pad, state } from "./context.js";
import { renderOutbox } from "./queue.js";

let refreshing = false;

export async function refreshLive(force = false) {
  if (refreshing) return;
  refreshing = true;
  try {
    const live = document.getElementById("live");
    const version = force ? "" : live.dataset.version;
    const warned = live.dataset.warned || "0";
    const response = await fetch(`${config.urls.sheet}?version=${version}&warned=${warned}`, {
      credentials: "same-origin",
    });
    if (response.status === 200) {
      const html = await response.text();
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const fresh = holder.querySelector("#live");
      if (fresh) {
        live.replaceWith(fresh);
        // the sheet, below the form, is redrawn with the score
        const sheet = holder.querySelector("#live-sheet");
        const shown = document.getElementById("live-sheet");
        if (sheet && shown) shown.replaceWith(sheet);
        const before = config.nextNumber;
        config.nextNumber = Number(fresh.dataset.next);
        if (config.nextNumber !== before && form && !state.editing && state.formNumber !== null) {
          // another phone's hand: a preview shown or on its way may be of another hand than
          // the form's now; the form's hand is judged again as the game now stands
          pad.dispatchEvent(new Event("moved-on"));
        }
        const undo = document.getElementById("undo-link");
        if (undo) undo.hidden = fresh.dataset.status !== "in_progress" || config.nextNumber <= 1;
        if (fresh.dataset.status !== "in_progress" && form) window.location.reload();
      }
    }
  } catch {
    // no signal: the sheet stays as it is
  } finally {
    refreshing = false;
    await renderOutbox();
  }
}
