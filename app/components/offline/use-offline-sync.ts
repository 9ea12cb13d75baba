import { useEffect } from "react";
import { adoptAccount } from "~/lib/device-data";
import { offlineQuizzes } from "~/lib/offline-store";

/** How often a page tries the queue again: the browser's "online" event is not told of every way back. */
const RETRY_MS = 15_000;

/**
 * Every signed-in page (the app layout): this browser's copies become the account's (another account's go), and the
 * quizzes handed in offline are sent now, at each reconnection and every RETRY_MS while the page is open (a send with
 * nothing queued reads the device and stops there).
 */
export function useOfflineSync(account: number): void {
  useEffect(() => {
    adoptAccount(account);
    if (typeof indexedDB === "undefined") return;
    // The queue's module loads here, after the page is usable (app/lib/offline-store.ts).
    const send = () =>
      void offlineQuizzes()
        .then(({ sendQueued }) => sendQueued(account))
        .catch(() => undefined);
    send();
    window.addEventListener("online", send);
    const timer = setInterval(send, RETRY_MS);
    return () => {
      window.removeEventListener("online", send);
      clearInterval(timer);
    };
  }, [account]);
}
