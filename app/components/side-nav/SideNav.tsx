import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { PRODUCT_NAME } from "~/lib/constants";
import { clearLocalSession } from "~/lib/session-events";
import { useFocusTrap } from "~/lib/use-focus-trap";
import { activeNavKey, type NavEntry, type NavKey } from "./nav-entries";
import { NavIcon } from "./NavIcon";

function NavItems({
  entries,
  active,
  collapsed,
  onNavigate,
  onSignOut,
}: {
  entries: NavEntry[];
  active: NavKey;
  collapsed: boolean;
  onNavigate?: () => void;
  onSignOut?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <>
      {entries.map((entry) => {
        const common = { className: "nav-item", title: collapsed ? entry.label : undefined, "data-nav": entry.key };
        const content = (
          <>
            <NavIcon name={entry.key} />
            <span className="nav-item__label">{entry.label}</span>
          </>
        );
        return entry.to ? (
          <Link
            key={entry.key}
            to={entry.to}
            aria-current={active === entry.key ? "page" : undefined}
            onClick={onNavigate}
            {...common}
          >
            {content}
          </Link>
        ) : (
          // Sign-out posts to /esci, which ends the session and sends the browser home (a full page load).
          <Form
            key={entry.key}
            method="post"
            action="/esci"
            reloadDocument
            className="nav-item__form"
            onSubmit={(event) => {
              clearLocalSession();
              onSignOut?.(event);
            }}
          >
            <button type="submit" {...common}>
              {content}
            </button>
          </Form>
        );
      })}
    </>
  );
}

/**
 * Side navigation: fixed column at >= 1024px (260/84px), floating Menu with a modal card below. `entries` are the
 * signed-in user's (navEntriesFor(role)); the active one follows the path. Collapsed or not is the layout's state
 * (kept in a cookie the server reads: app/lib/nav-state.ts).
 */
export function SideNav({
  entries,
  collapsed,
  onCollapse,
  onSignOut,
}: {
  entries: NavEntry[];
  collapsed: boolean;
  onCollapse: (collapsed: boolean) => void;
  /** Before the sign-out form goes: the device lets go of the account (issue 47: use-sign-out.ts). */
  onSignOut?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { pathname } = useLocation();
  const active = activeNavKey(pathname);
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const trapRef = useFocusTrap<HTMLDivElement>(menuOpen, closeMenu);

  // While the mobile menu is open the page cannot scroll.
  useEffect(() => {
    if (!menuOpen) return;
    const html = document.documentElement;
    const previous = { html: html.style.overflow, body: document.body.style.overflow };
    html.style.overflow = "hidden";
    document.body.style.overflow = "hidden";
    return () => {
      html.style.overflow = previous.html;
      document.body.style.overflow = previous.body;
    };
  }, [menuOpen]);

  return (
    <>
      <nav className={`side-nav${collapsed ? " side-nav--collapsed" : ""}`} aria-label="Navigazione principale">
        <div className="side-nav__head">
          <button
            type="button"
            className="side-nav__logo"
            onClick={() => collapsed && onCollapse(false)}
            aria-label={collapsed ? "Espandi il menu" : PRODUCT_NAME}
            tabIndex={collapsed ? 0 : -1}
          >
            <span className="logo-mark" aria-hidden="true">
              U
            </span>
            <span className="side-nav__brand">{PRODUCT_NAME}</span>
          </button>
          {!collapsed ? (
            <button
              type="button"
              className="side-nav__toggle"
              onClick={() => onCollapse(true)}
              aria-label="Riduci il menu"
            >
              <span aria-hidden="true">«</span>
            </button>
          ) : null}
        </div>
        <div className="side-nav__items">
          <NavItems entries={entries} active={active} collapsed={collapsed} onSignOut={onSignOut} />
        </div>
      </nav>

      <button
        type="button"
        className="menu-fab"
        onClick={() => setMenuOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
      >
        Menu
      </button>
      {menuOpen ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the menu; the keyboard closes it with Escape or its button
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above
        <div className="menu-modal" onClick={(event) => event.target === event.currentTarget && closeMenu()}>
          <div className="menu-modal__card" role="dialog" aria-modal="true" aria-label="Menu" ref={trapRef}>
            <div className="menu-modal__head">
              <span className="side-nav__brand">{PRODUCT_NAME}</span>
              <button type="button" className="btn btn--ghost" onClick={closeMenu} aria-label="Chiudi il menu">
                ✕
              </button>
            </div>
            <div className="menu-modal__grid">
              <NavItems
                entries={entries}
                active={active}
                collapsed={false}
                onNavigate={closeMenu}
                onSignOut={onSignOut}
              />
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
