/**
 * The requests of a page load, started by the entry (main.tsx) before the admin bundle has even
 * downloaded (issue 15, heavy pages): the session check, and the GETs this page made in its first
 * moments the last time this browser's last signed-in user opened it (its first list page, the
 * selects' options…), kept in localStorage per user and address. The request client
 * (request.ts) answers an identical GET from such a response instead of asking again, once.
 *
 * Nothing here decides what anyone may see: a started request carries this browser's cookie like
 * any other and the server scopes its answer. An answer is used at most once, for exactly the
 * same URL (and no extra headers), only while the page is still the one it was started for and
 * nothing has happened yet: not after the first input (pointer or key), a write (any other
 * method), a login or logout (`dropEarlyRequests`, called whenever the request cache is cleared),
 * another address, or 10 s. Which URLs to start is a hint: a wrong one is an unused answer.
 */
export const SESSION_URL = "/Backend/Common/user/get-current";

const PREFIX = "saiwu-early:v1:";
const LAST_USER = `${PREFIX}user`;
/** At most this many URLs are kept (and started) per page. */
const MAX_URLS = 6;
/** GETs started within this long of the start, on the same address, before any input, are kept for next time. */
const RECORD_MS = 5000;
/** An unused early answer is not used after this long. */
const TTL_MS = 10_000;
/** Addresses kept per browser: beyond this, the other addresses' lists go. */
const MAX_PAGES = 40;

interface Early {
  response: Promise<Response>;
  at: number;
}

const started = new Map<string, Early>();
/** The address the early requests were started for. */
let startedFor = "";
let recording: { address: string; urls: string[]; until: number; user?: string; stopped: boolean } | null = null;

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
};

const pageKey = (user: string, address: string) => `${PREFIX}${user}:${address}`;
/** Downloads a click asks for (audited, rate limited) are never repeated by the next page load. */
const NOT_REMEMBERED = ["/Backend/Common/account/my-data"];
const isBackendGet = (url: string) => url.startsWith("/Backend/") && url !== SESSION_URL && !NOT_REMEMBERED.includes(url);

function start(url: string) {
  if (started.has(url)) return;
  const response = fetch(url, { method: "GET", headers: { Accept: "application/json" }, credentials: "same-origin" });
  // An unused failure is not an unhandled rejection; a user of it sees the failure itself.
  response.catch(() => {});
  started.set(url, { response, at: Date.now() });
}

function readUrls(key: string): string[] {
  try {
    const list: unknown = JSON.parse(storage()?.getItem(key) ?? "[]");
    return Array.isArray(list)
      ? list.filter((u): u is string => typeof u === "string" && isBackendGet(u)).slice(0, MAX_URLS)
      : [];
  } catch {
    return [];
  }
}

const currentAddress = () => location.pathname + location.search;

/** The entry's first step on an admin page: the session check and the page's remembered GETs go out now. */
export function startEarlyRequests(address: string = currentAddress()) {
  startedFor = address;
  start(SESSION_URL);
  const user = storage()?.getItem(LAST_USER);
  if (user) for (const url of readUrls(pageKey(user, address))) start(url);
  recording = { address, urls: [], until: Date.now() + RECORD_MS, stopped: false };
  // The user's first input ends both: what follows is theirs, not the page load's.
  const stop = () => {
    started.clear();
    stopRecording();
  };
  addEventListener("pointerdown", stop, { once: true, capture: true });
  addEventListener("keydown", stop, { once: true, capture: true });
  setTimeout(stopRecording, RECORD_MS);
}

/** The early answer for this GET (same URL, no headers but Accept), once; undefined when there is none. */
export function takeEarlyResponse(url: string, headers?: Record<string, string>): Promise<Response> | undefined {
  const hit = started.get(url);
  if (!hit) return undefined;
  started.delete(url);
  if (headers && Object.keys(headers).length) return undefined;
  if (Date.now() - hit.at > TTL_MS || currentAddress() !== startedFor) {
    started.clear();
    return undefined;
  }
  return hit.response;
}

/** After a login or logout (anything that clears the request cache) or a write: no early answer is used any more. */
export function dropEarlyRequests() {
  started.clear();
  if (recording) recording.stopped = true;
}

/** A GET the page made: kept for the next load of this address while recording. */
export function noteGet(url: string) {
  const r = recording;
  if (!r || r.stopped || !isBackendGet(url)) return;
  if (Date.now() > r.until || currentAddress() !== r.address) {
    stopRecording();
    return;
  }
  if (!r.urls.includes(url) && r.urls.length < MAX_URLS) {
    r.urls.push(url);
    // Kept at once: the page may be closed before the recording ends.
    save(r);
  }
}

/** Who the session check found (undefined: nobody signed in): whose list the recording is, and whose lists the next load starts. */
export function noteSessionUser(id: number | undefined) {
  const store = storage();
  try {
    if (id === undefined) {
      // Signed out (or never signed in): no list of anyone's requests stays in this browser
      // (a shared computer in a school lab keeps no trace of which lists the last user searched).
      if (store) for (const k of Object.keys(store)) if (k.startsWith(PREFIX)) store.removeItem(k);
      if (recording) recording.stopped = true;
      return;
    }
    store?.setItem(LAST_USER, String(id));
  } catch {
    // storage full or disabled: no early requests next time
  }
  if (recording && !recording.stopped && recording.user === undefined) {
    recording.user = String(id);
    save(recording);
  }
}

function stopRecording() {
  if (recording) recording.stopped = true;
}

/** The recording so far becomes the address's list for the next load (once the user is known). */
function save(r: NonNullable<typeof recording>) {
  if (!r.user) return;
  const store = storage();
  if (!store) return;
  try {
    const key = pageKey(r.user, r.address);
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i);
      if (k?.startsWith(PREFIX) && k !== LAST_USER && k !== key) keys.push(k);
    }
    if (keys.length >= MAX_PAGES) for (const k of keys) store.removeItem(k);
    if (r.urls.length) store.setItem(key, JSON.stringify(r.urls));
    else store.removeItem(key);
  } catch {
    // storage full or disabled
  }
}
