// What this browser keeps of an account, and how it lets go of it (issue 47; the rule: app/lib/offline-routes.ts).
// The screens' own copies in localStorage (app/lib/offline-cache.ts, the dashboard's, the review's, the answers of an
// online quiz) belong to the account that saved them: the first signed-in page of another account forgets them
// (adoptAccount), and so does signing out (clearDevice), which also deletes the account's downloaded quizzes and every
// page the service worker keeps.
import { offlineQuizzes } from "./offline-store";
import { PAGES_CACHE_PREFIX, pagesCacheName } from "./offline-routes";

const ACCOUNT_KEY = "unicum_account";
/** Keys holding an account's data (spec section 3's local storage keys, and the answers of an online quiz). */
const PERSONAL = [/^unicum_/, /^wrong_questions/, /^redo_/, /^quiz_answers_/, /^simResult_/, /^last_attempt_result$/];

function forgetLocalCopies(): void {
  try {
    for (const key of Object.keys(localStorage)) if (PERSONAL.some((p) => p.test(key))) localStorage.removeItem(key);
    localStorage.removeItem("jwt");
    localStorage.removeItem("user");
  } catch {
    // storage unavailable: nothing kept
  }
}

/** The account whose copies this browser holds (null: none yet). */
export function deviceAccount(): string | null {
  try {
    return localStorage.getItem(ACCOUNT_KEY);
  } catch {
    return null;
  }
}

/** A signed-in page of `account` (the server's user id): another account's copies go first. */
export function adoptAccount(account: number): void {
  const previous = deviceAccount();
  if (previous === String(account)) return;
  if (previous !== null) forgetLocalCopies();
  try {
    localStorage.setItem(ACCOUNT_KEY, String(account));
  } catch {
    // storage unavailable
  }
}

/** Signing out (or the account deleted): nothing of the account stays on this device. */
export async function clearDevice(account: number | null): Promise<void> {
  forgetLocalCopies();
  try {
    localStorage.removeItem(ACCOUNT_KEY);
  } catch {
    // storage unavailable
  }
  navigator.serviceWorker?.controller?.postMessage({ type: "SIGNED_OUT" });
  await Promise.all([
    account != null
      ? offlineQuizzes()
          .then(({ deleteAccountQuizzes }) => deleteAccountQuizzes(account))
          .catch(() => undefined)
      : undefined,
    typeof caches === "undefined"
      ? undefined
      : caches
          .keys()
          .then((names) =>
            Promise.all(names.filter((n) => n.startsWith(PAGES_CACHE_PREFIX)).map((n) => caches.delete(n))),
          )
          .catch(() => undefined),
  ]);
}

/** The screens the service worker keeps for the current account, for the offline screen's links. */
export async function keptScreens(): Promise<string[]> {
  const account = deviceAccount();
  if (!account || typeof caches === "undefined" || !(await caches.has(pagesCacheName(account)))) return [];
  const keys = await (await caches.open(pagesCacheName(account))).keys();
  return keys.map((r) => new URL(r.url).pathname);
}
