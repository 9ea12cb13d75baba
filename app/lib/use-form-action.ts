// A screen's writes to its route action (issue 19), for components whose buttons each post one small thing
// (accept an invitation, leave a class): one fetcher, one write at a time, and the reply handed to the callback
// of the write that asked. The page's loaders reload after a successful write (React Router revalidates).
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { FormReply } from "./forms";

export function useFormAction<T = unknown>(action: string) {
  const fetcher = useFetcher<FormReply<T>>();
  const onReply = useRef<((reply: FormReply<T>) => void) | null>(null);
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    const handle = onReply.current;
    if (!reply || !handle) return;
    onReply.current = null;
    handle(reply);
  }, [reply]);
  /** Posts `body` as JSON (an `intent` names the write) and calls `then` with the action's reply. */
  const submit = (body: Record<string, unknown>, then: (reply: FormReply<T>) => void) => {
    onReply.current = then;
    void fetcher.submit(body as never, { method: "post", action, encType: "application/json" });
  };
  return { busy: fetcher.state !== "idle", submit };
}
