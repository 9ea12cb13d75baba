// The door to the downloaded quizzes (app/lib/offline-quizzes.ts, with idb) for the pages that only touch them after
// they are usable: the signed-in layout (sending what was handed in offline, signing out) and the download list on
// /test/nuovo. Loaded on first use, after hydration, so IndexedDB's wrapper and the queue are off the way to a usable
// page (issue 47, point 4); the service worker precaches the file, so it loads with no network too.

/** Tells the open pages (other tabs too) that the downloaded quizzes changed. */
export const CHANGED_EVENT = "unicum:offline-quizzes";

/** The downloaded quizzes' module, loaded once. */
export const offlineQuizzes = () => import("./offline-quizzes");
