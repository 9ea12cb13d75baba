// React Router's default client entry, but hydrating at once rather than inside startTransition (issue 47, point 4).
// A transition lets React yield to the browser every few milliseconds; on a phone at 4x CPU that cut the hydration
// of /dashboard into thirty-odd tasks, each paying the browser's turn in between, while nothing on the page can
// answer a tap before it is hydrated anyway. With the compile hints (scripts/vite-compile-hints.ts) the dashboard
// became usable 93 ms sooner in the median of 12 loads alternating the built files, 42 ms more than the hints alone
// (alone, this change moved nothing: the compiling on first call dominated).
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

hydrateRoot(
  document,
  <StrictMode>
    <HydratedRouter />
  </StrictMode>,
);
