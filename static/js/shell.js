// Every page: register the service worker (the installable, offline shell), say plainly
// when there is no signal, and print a printable sheet from its button.
const status = document.getElementById("net-status");

function showNetwork() {
  if (status) status.hidden = navigator.onLine;
}
window.addEventListener("online", showNetwork);
window.addEventListener("offline", showNetwork);
showNetwork();

// Printable sheets: their Print button.
const print = document.getElementById("print");
if (print) print.addEventListener("click", () => window.print());

// Pages that must open with no signal (the score-pad) ask the service worker to keep them.
function keepPage(registration) {
  if (!document.body.dataset.keepOffline || !registration.active) return;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => {
    if (event.data && event.data.kept) document.documentElement.dataset.offlineReady = "1";
  };
  registration.active.postMessage({ type: "keep-page", url: window.location.href }, [channel.port2]);
}

const worker = document.body.dataset.sw;
if (worker && "serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register(worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then(keepPage)
    .catch(() => {
      // No service worker (private mode, old browser): the pages still work online.
    });
}
