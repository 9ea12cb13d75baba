import { type FormEvent, useCallback } from "react";
import { useToast } from "~/components/ui/Toast";
import { clearDevice } from "~/lib/device-data";
import { offlineQuizzes } from "~/lib/offline-store";
import { O } from "./messages";

const SEND_WAIT_MS = 5000;

/**
 * "Esci" (the side navigation's form to /esci): with no network it is refused in Italian (the session lives on the
 * server); otherwise the quizzes handed in offline are sent first, answers not yet sent are not dropped without the
 * student's word, and nothing of the account stays on the device (clearDevice) before the form goes.
 */
export function useSignOut(account: number) {
  const toast = useToast();
  return useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      if (!navigator.onLine) return toast(O.offlineSignOut, "error");
      void (async () => {
        // The downloaded quizzes' module, loaded now (app/lib/offline-store.ts); if it cannot load (as when IndexedDB
        // fails) signing out goes on.
        const store = typeof indexedDB === "undefined" ? null : await offlineQuizzes().catch(() => null);
        if (store) {
          await Promise.race([
            store.sendQueued(account).catch(() => undefined),
            new Promise((resolve) => setTimeout(resolve, SEND_WAIT_MS)),
          ]);
          const pending = store.unsent(await store.listQuizzes(account).catch(() => []));
          if (pending.length && !window.confirm(O.signOutPending(pending.length))) return;
        }
        await clearDevice(account);
        form.submit();
      })();
    },
    [account, toast],
  );
}
