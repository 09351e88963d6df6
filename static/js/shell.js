// Every page: register the service worker (the installable, offline shell) and say plainly
// when there is no signal.
const status = document.getElementById("net-status");

function showNetwork() {
  if (status) status.hidden = navigator.onLine;
}
window.addEventListener("online", showNetwork);
window.addEventListener("offline", showNetwork);
showNetwork();

const worker = document.body.dataset.sw;
if (worker && "serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {
    // No service worker (private mode, old browser): the pages still work online.
  });
}
