// The device a session was opened on, in words, from the browser's User-Agent (parsed by bowser).
import Bowser from "bowser";

const OS_NAMES: Record<string, string> = { macOS: "Mac", iOS: "iPhone o iPad", "Chrome OS": "Chromebook" };

/** "Chrome su Windows", "Safari su iPhone", "Firefox su Linux"; "Dispositivo sconosciuto" when it says nothing. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return "Dispositivo sconosciuto";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.trim();
  let os = parsed.os.name?.trim();
  if (os === "iOS") os = parsed.platform.model?.trim() || OS_NAMES.iOS;
  else if (os) os = OS_NAMES[os] ?? os;
  if (browser && os) return `${browser} su ${os}`;
  return browser || os || "Dispositivo sconosciuto";
}
