import { useEffect, useRef } from "react";

type GoogleId = {
  accounts: {
    id: {
      initialize(options: Record<string, unknown>): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
};

const GIS_SRC = "https://accounts.google.com/gsi/client";

function loadGis(): Promise<GoogleId> {
  const existing = (window as unknown as { google?: GoogleId }).google;
  if (existing?.accounts?.id) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => resolve((window as unknown as { google: GoogleId }).google);
    script.onerror = () => reject(new Error("Google Identity Services non raggiungibile"));
    document.head.appendChild(script);
  });
}

/** Google Identity Services button, popup mode, auto-select off; hands Google's credential to the page (/login posts it). */
export function GoogleSignInButton(props: { clientId: string; onCredential: (credential: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const { clientId } = props;
  // Callbacks through a ref, so a re-render does not re-initialise Google's button.
  const callbacks = useRef(props);
  callbacks.current = props;
  useEffect(() => {
    let cancelled = false;
    loadGis()
      .then((google) => {
        if (cancelled || !ref.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: "popup",
          auto_select: false,
          callback: ({ credential }: { credential: string }) => callbacks.current.onCredential(credential),
        });
        google.accounts.id.renderButton(ref.current, {
          theme: "filled_black",
          size: "large",
          text: "signin_with",
          locale: "it",
        });
      })
      .catch((error) => console.warn(error));
    return () => {
      cancelled = true;
    };
  }, [clientId]);
  return <div ref={ref} className="google-button" />;
}
