// Where the outbox keeps its entries on the phone: IndexedDB, which outlives a reload, a lost
// signal and a flat battery. The outbox asks only for these four things of its store, so it
// can be given another one (its tests keep theirs in memory).

const DB_NAME = "tarabish-outbox";
const STORE = "requests";

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "key" });
      store.createIndex("scope", "scope");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, work) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => { db.close(); resolve(result && "result" in result ? result.result : undefined); };
    tx.onerror = () => { db.close(); reject(tx.error); };
  });
}

export const indexedDbStore = {
  // Every entry of ``scope``, in no particular order.
  async all(scope) {
    return (await withStore("readonly", (store) => store.index("scope").getAll(scope))) || [];
  },
  put(entry) {
    return withStore("readwrite", (store) => store.put(entry));
  },
  delete(key) {
    return withStore("readwrite", (store) => store.delete(key));
  },
  // ``oldKey`` out and ``entry`` in, in one transaction: both or neither.
  swap(oldKey, entry) {
    return withStore("readwrite", (store) => { store.delete(oldKey); return store.put(entry); });
  },
};
