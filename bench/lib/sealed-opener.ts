// A client thread's helper (bench/lib/national-client.ts): opens sealed subjects with their keys, off the thread
// that holds the students' sockets. In a real sitting each student opens their copy on their own device; here
// 1,500 students share one thread, and opening 1,500 copies at a subject's opening (~0.3 ms each) would hold that
// thread for about half a second, during which the acknowledgements already on its sockets wait unread and count as
// the server's latency. This thread runs at the lowest priority: the students' devices, not the server, pay for it.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { openSealedSubject, type SealedSubject } from "../../app/lib/sealed-subject.ts";

try {
  setPriority(19);
} catch {
  // not permitted here
}

parentPort!.on("message", async ({ id, key, sealed }: { id: number; key: string; sealed: SealedSubject }) => {
  parentPort!.postMessage({ id, questions: await openSealedSubject(key, sealed) });
});
