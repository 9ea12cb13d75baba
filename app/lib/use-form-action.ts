// A screen's writes to its route action (issue 19), for components whose buttons each post one small thing
// (accept an invitation, leave a class, a simulation's attempt): one fetcher, one write at a time, and the reply
// handed to the callback (or the promise) of the write that asked. The page's loaders reload after a successful
// write unless the route's shouldRevalidate says otherwise.
import { useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { FormReply } from "./forms";

export function useFormAction<T = unknown>(action: string) {
  const fetcher = useFetcher<FormReply<T>>();
  const onReply = useRef<((reply: FormReply<T>) => void) | null>(null);
  const send = useRef(fetcher.submit);
  send.current = fetcher.submit;
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    const handle = onReply.current;
    if (!reply || !handle) return;
    onReply.current = null;
    handle(reply);
  }, [reply]);
  /** Posts `body` as JSON (an `intent` names the write) and calls `then` with the action's reply. */
  const submit = useCallback(
    (body: Record<string, unknown>, then: (reply: FormReply<T>) => void) => {
      onReply.current = then;
      void send.current(body as never, { method: "post", action, encType: "application/json" });
    },
    [action],
  );
  /** The same as a promise of the reply, for a write the screen awaits (and may retry). One at a time. */
  const call = useCallback(
    (body: Record<string, unknown>) => new Promise<FormReply<T>>((resolve) => submit(body, resolve)),
    [submit],
  );
  return { busy: fetcher.state !== "idle", submit, call };
}
