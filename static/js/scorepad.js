// The score-pad: taps become a hand entry, the server previews it (the engine's outcome and
// the new score), and saving puts it in the outbox, which sends it to the API with its
// Idempotency-Key now or when the signal returns. This script knows no rules of the game:
// every number it shows comes from the server.
import { edited } from "./forms.js";
import { Outbox, csrfToken } from "./outbox.js";

const config = JSON.parse(document.getElementById("pad-config").textContent);
const form = document.getElementById("hand-form");
const preview = document.getElementById("preview");
const outboxBox = document.getElementById("outbox");
const outboxTitle = document.getElementById("outbox-title");
const outboxList = document.getElementById("outbox-list");
const outbox = new Outbox(`game-${config.game}`);
const words = config.words;

// Error paths from the engine and the API -> the form's fields.
const FIELD_OF = {
  caller: "caller", trump: "trump", card_points: "count", "card_points.team": "count",
  run_points: "runs", runs: "runs", bella_seat: "bella_seat", misplay: "misplay_by",
  "misplay.called_by": "misplay_by", "misplay.proven": "misplay_by", thrown_in_by: "thrown_in_by",
};

function fieldOf(path) {
  if (!path) return null;
  const bare = path.replace(/^entry\./, "");
  return FIELD_OF[bare] || FIELD_OF[bare.split(".")[0]] || null;
}

function value(name) {
  const checked = form.querySelector(`[name="${name}"]:checked`);
  if (checked) return checked.value;
  const input = form.querySelector(`[name="${name}"]:not([type=radio])`);
  return input ? input.value : "";
}

function seatOrNull(text) {
  return text === "" || text === null || text === undefined ? null : Number(text);
}

// The same entry the server-side form builds (scoring/forms.py HandForm.to_entry).
function buildEntry() {
  const callerText = value("caller");
  const caller = callerText === "void" || callerText === "" ? null : Number(callerText);
  let trump = value("trump") || null;
  if (trump === "none") trump = null;
  const misplayBy = seatOrNull(value("misplay_by"));
  const entry = { caller, trump: caller === null ? null : trump };
  const count = value("count");
  if (caller !== null && misplayBy === null && count !== "") {
    entry.card_points = { team: value("count_team") || "team_a", points: Number(count) };
  } else {
    entry.card_points = null;
  }
  const runs = [0, 0];
  form.querySelectorAll("[data-run]").forEach((input) => {
    const n = Number(input.value || 0);
    const points = input.dataset.run === "fifty" ? 50 : 20;
    runs[Number(input.dataset.seat) % 2] += n * points;
  });
  entry.run_points = runs[0] || runs[1] ? runs : null;
  entry.bella_seat = seatOrNull(value("bella_seat"));
  const proven = form.querySelector('[name="misplay_proven"]');
  entry.misplay = misplayBy === null ? null : { called_by: misplayBy, proven: !!(proven && proven.checked) };
  entry.thrown_in_by = seatOrNull(value("thrown_in_by"));
  return entry;
}

function describe(entry, number) {
  const parts = [`${words.hand} ${number}:`];
  if (entry.caller === null) parts.push("—");
  else parts.push(config.seats[entry.caller] + (entry.trump ? ` ${{ C: "♣", D: "♦", H: "♥", S: "♠" }[entry.trump]}` : ""));
  if (entry.card_points) {
    const team = entry.card_points.team === "team_b" ? config.teams[1] : config.teams[0];
    parts.push(`${entry.card_points.points} (${team})`);
  }
  return parts.join(" ");
}

function clearErrors() {
  form.querySelectorAll("[data-error-for]").forEach((el) => { el.textContent = ""; });
  form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
}

function showErrors(data) {
  clearErrors();
  const fields = (data && data.fields) || {};
  let placed = false;
  for (const [path, reasons] of Object.entries(fields)) {
    const name = fieldOf(path);
    const slot = name && form.querySelector(`[data-error-for="${name}"]`);
    if (slot) {
      slot.textContent = [].concat(reasons).join(" ");
      const box = slot.closest(".field");
      if (box) box.classList.add("has-error");
      placed = true;
    }
  }
  return placed;
}

// ------------------------------------------------------------------ preview
let previewTimer = null;
let previewSeq = 0;

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(runPreview, 250);
}

async function runPreview() {
  const entry = buildEntry();
  // preview once the line is filled in enough to say something (the server judges the rest)
  const caller = value("caller");
  const complete = caller === "void"
    || (caller !== "" && value("trump") !== "" && (value("count") !== "" || value("misplay_by") !== ""));
  if (!complete) { preview.hidden = true; return; }
  const pending = (await outbox.pending()).length;
  preview.hidden = false;
  if (!navigator.onLine || pending > 0) {
    // the server's score is behind the hands still on this phone: it cannot judge this one yet
    preview.className = "preview";
    preview.textContent = navigator.onLine ? words.previewWaiting : words.previewOffline;
    return;
  }
  const seq = ++previewSeq;
  let response;
  try {
    response = await fetch(config.urls.preview, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ entry }),
    });
  } catch {
    preview.className = "preview";
    preview.textContent = words.previewOffline;
    return;
  }
  if (seq !== previewSeq) return;
  const data = await response.json().catch(() => ({}));
  if (response.ok && data.ok) {
    clearErrors();
    preview.className = "preview";
    preview.dataset.outcome = data.outcome;
    preview.innerHTML = "";
    const outcome = document.createElement("div");
    outcome.className = "outcome";
    outcome.innerHTML = `<span class="mark ${data.outcome}"></span>`;
    outcome.firstChild.textContent = data.outcome_label;
    const line = document.createElement("div");
    line.className = "preview-score";
    line.textContent = `${config.teams[0]} +${data.points[0]} → ${data.totals[0]} · ${config.teams[1]} +${data.points[1]} → ${data.totals[1]}`;
    preview.append(outcome, line);
    if (data.over && data.winner) {
      const end = document.createElement("div");
      end.className = "winner";
      end.textContent = words.wins.replace("%(team)s", data.winner);
      preview.append(end);
    }
  } else {
    preview.className = "preview error";
    preview.dataset.outcome = "";
    const placed = showErrors(data);
    preview.textContent = placed ? (data.message || "") : (data.message || response.statusText);
  }
}

// ------------------------------------------------------------------ the live sheet
let refreshing = false;

async function refreshLive(force = false) {
  if (refreshing) return;
  refreshing = true;
  try {
    const live = document.getElementById("live");
    const version = force ? "" : live.dataset.version;
    const response = await fetch(`${config.urls.sheet}?version=${version}`, { credentials: "same-origin" });
    if (response.status === 200) {
      const html = await response.text();
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const fresh = holder.querySelector("#live");
      if (fresh) {
        live.replaceWith(fresh);
        config.nextNumber = Number(fresh.dataset.next);
        const title = document.getElementById("hand-title");
        if (title) title.textContent = `${words.hand} ${config.nextNumber + (await outbox.pending()).length}`;
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

async function renderOutbox() {
  const entries = await outbox.pending();
  const pendingRows = document.getElementById("pending-rows");
  if (pendingRows) pendingRows.innerHTML = "";
  outboxList.innerHTML = "";
  outboxBox.hidden = entries.length === 0;
  outboxTitle.textContent = words.waiting.replace("%(count)s", entries.length);
  for (const entry of entries) {
    const item = document.createElement("li");
    item.dataset.key = entry.key;
    item.textContent = `${entry.label} — ${entry.error ? words.refused + ": " + entry.error : words.notSent}`;
    if (entry.error) {
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "danger";
      discard.textContent = words.discard;
      discard.addEventListener("click", () => takeOut(entry));
      item.append(" ", discard);
      if (entry.form && form) {
        const edit = document.createElement("button");
        edit.type = "button";
        edit.textContent = words.edit;
        edit.addEventListener("click", () => takeBack(entry, { fields: entry.fields }));
        item.append(" ", edit);
      }
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
  const title = document.getElementById("hand-title");
  if (title) title.textContent = `${words.hand} ${config.nextNumber + entries.length}`;
}

// ------------------------------------------------------------------ refused hands
// The form as typed, kept with a hand in the outbox so a refused hand can be put back.
function formValues() {
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
}

// Out of the outbox: the hands queued behind it were never sent (the outbox stops at a
// refused one), so each moves up a number, and the queue goes on at once.
async function takeOut(entry) {
  const behind = (await outbox.pending()).filter((other) => other.created > entry.created);
  await outbox.remove(entry.key);
  for (const other of behind) {
    if (other.body && typeof other.body.number === "number") {
      other.body.number -= 1;
      other.label = describe(other.body, other.body.number);
      await outbox.update(other);
    }
  }
  await refreshLive(true);
  await outbox.flush();
}

// Back into the form, as typed, with the server's reasons beside the fields.
async function takeBack(entry, data) {
  restore(entry.form);
  await takeOut(entry);
  showErrors(data);
  preview.hidden = false;
  preview.className = "preview error";
  preview.textContent = entry.error || "";
}

outbox.addEventListener("change", renderOutbox);
outbox.addEventListener("sent", () => refreshLive(true));
outbox.addEventListener("refused", async (event) => {
  const { entry } = event.detail;
  const data = event.detail.data || {};
  const last = (await outbox.pending()).at(-1);
  if (form && entry.form && last && last.key === entry.key && !edited(form)) {
    // the hand just saved, with nothing typed since: it goes back to be put right
    await takeBack(entry, data);
    return;
  }
  if (form) showErrors(data);
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
    schedulePreview();
  });
  form.addEventListener("input", schedulePreview);
  form.addEventListener("reset", () => {
    setTimeout(() => { clearErrors(); preview.hidden = true; delete form.dataset.teamTouched; }, 0);
  });
  let saving = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving) return; // a second tap while the first is being saved is the same hand
    if (value("caller") === "") {
      showErrors({ fields: { caller: [form.querySelector('[data-error-for="caller"]').dataset.required || "?"] } });
      return;
    }
    saving = true;
    const button = event.submitter || form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    try {
      const entry = buildEntry();
      const number = config.nextNumber + (await outbox.pending()).length;
      await outbox.add({
        url: config.urls.hands,
        body: { entry_kind: "summary", number, ...entry },
        label: describe(entry, number),
        form: formValues(),
      });
      form.reset();
      preview.hidden = true;
      await outbox.flush();
    } finally {
      saving = false;
      if (button) button.disabled = false;
    }
  });
}

window.addEventListener("online", () => refreshLive(true));
renderOutbox().then(() => outbox.flush());
// Other score-pads, corrections and dispute verdicts: look for a new version now and then.
setInterval(() => {
  if (!navigator.onLine) return;
  const live = document.getElementById("live");
  const waiting = live && live.dataset.pendingDisputes === "1";
  if (waiting || !document.hidden) refreshLive();
}, 4000);
